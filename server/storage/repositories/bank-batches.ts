import type { BankBatchRow, BankStatementRow, Mode, PayoutRow } from '../rows.js';
import type { SqlConnection } from '../sql.js';
import { rowInserter } from './insert-row.js';

/**
 * Bank batches (one pain.001 file each), the bank payouts they gather and the statements
 * applied to them. A payout joins a batch by a compare-and-set on its `bank_batch_id`, so it
 * is in one batch whoever batches at the same time.
 */
export function bankBatchesRepository(connection: SqlConnection) {
  const insert = rowInserter<BankBatchRow>(
    connection,
    'bank_batches',
    'id, account_id, mode, currency, payout_count, control_sum, file, created_at',
  );
  const get = connection.prepare<BankBatchRow>(
    'SELECT * FROM bank_batches WHERE id = ? AND account_id = ? AND mode = ?',
  );
  const list = connection.prepare<BankBatchRow>(
    'SELECT * FROM bank_batches WHERE account_id = ? AND mode = ? ORDER BY seq DESC LIMIT ?',
  );
  const unbatched = connection.prepare<PayoutRow>(
    `SELECT * FROM payouts WHERE account_id = ? AND mode = ? AND currency = ?
        AND recipient_iban IS NOT NULL AND bank_batch_id IS NULL AND status = 'pending'
      ORDER BY seq LIMIT ?`,
  );
  const waiting = connection.prepare<{ account_id: string; mode: Mode; currency: string }>(
    `SELECT DISTINCT account_id, mode, currency FROM payouts
      WHERE recipient_iban IS NOT NULL AND bank_batch_id IS NULL AND status = 'pending' LIMIT ?`,
  );
  const assign = connection.prepare(
    `UPDATE payouts SET bank_batch_id = ?
      WHERE id = ? AND bank_batch_id IS NULL AND recipient_iban IS NOT NULL AND status = 'pending'`,
  );
  const payoutsOf = connection.prepare<PayoutRow>(
    'SELECT * FROM payouts WHERE bank_batch_id = ? ORDER BY seq',
  );
  const statements = connection.prepare<BankStatementRow>(
    'SELECT * FROM bank_statements WHERE batch_id = ? ORDER BY seq',
  );
  const recordStatement = connection.prepare(
    `INSERT INTO bank_statements (batch_id, message_id, applied, received_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (batch_id, message_id) DO NOTHING`,
  );
  return {
    async insert(row: Omit<BankBatchRow, 'seq'>): Promise<BankBatchRow> {
      return insert(row);
    },
    async get(accountId: string, mode: Mode, id: string): Promise<BankBatchRow | undefined> {
      return get.get(id, accountId, mode);
    },
    /** An account's newest batches in one mode. */
    async list(accountId: string, mode: Mode, limit: number): Promise<BankBatchRow[]> {
      return list.all(accountId, mode, limit);
    },
    /** Pending bank payouts in no batch yet, oldest first. */
    async unbatched(accountId: string, mode: Mode, currency: string, limit: number): Promise<PayoutRow[]> {
      return unbatched.all(accountId, mode, currency, limit);
    },
    /** The accounts, modes and currencies that have bank payouts waiting for a batch. */
    async waiting(limit: number): Promise<Array<{ account_id: string; mode: Mode; currency: string }>> {
      return waiting.all(limit);
    },
    /** Puts a pending payout in a batch; false when it is in one already (or no longer pending). */
    async assign(payoutId: string, batchId: string): Promise<boolean> {
      return (await assign.run(batchId, payoutId)).changes === 1;
    },
    async payoutsOf(batchId: string): Promise<PayoutRow[]> {
      return payoutsOf.all(batchId);
    },
    async statements(batchId: string): Promise<BankStatementRow[]> {
      return statements.all(batchId);
    },
    /** Records a statement once by its MsgId; false when it was recorded before. */
    async recordStatement(row: Omit<BankStatementRow, 'seq'>): Promise<boolean> {
      const result = await recordStatement.run(row.batch_id, row.message_id, row.applied, row.received_at);
      return result.changes === 1;
    },
  };
}
