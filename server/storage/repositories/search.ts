import type { Mode } from '../rows.js';
import type { SqlConnection } from '../sql.js';

/** How many of each kind of movement one search shows. */
const searchLimit = 20;

/**
 * The dashboard's search over one kind of movement: the merchant's own reference, whole, or a
 * phone number by its first digits (or whole), newest first. A scan of the account's rows in
 * that mode; the dashboard's, not the API's, so no index is kept for it.
 */
export function movementSearch<Row>(
  connection: SqlConnection,
  table: 'payments' | 'payouts' | 'topups',
  columns: readonly string[],
  msisdnColumn: string,
) {
  const statement = connection.prepare<Row>(
    `SELECT ${columns.join(', ')} FROM ${table}
      WHERE account_id = ? AND mode = ? AND (reference = ? OR ${msisdnColumn} LIKE ?)
      ORDER BY created_at DESC, seq DESC LIMIT ${searchLimit}`,
  );
  /** `digits` are only digits (no LIKE wildcard), or null when the text is no number. */
  return (accountId: string, mode: Mode, text: string, digits: string | null): Promise<Row[]> =>
    statement.all(accountId, mode, text, digits === null ? null : `${digits}%`);
}
