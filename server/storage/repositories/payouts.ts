import { conditionsOf, type PayoutQuery, payoutFilters } from '../list-filters.js';
import type { PageRequest, Pager } from '../pagination.js';
import { type ListedPayoutRow, listedPayoutColumns, type Mode, type PayoutRow } from '../rows.js';
import type { SqlConnection } from '../sql.js';
import { rowInserter } from './insert-row.js';
import { pendingQueries } from './pending.js';
import { movementSearch } from './search.js';

export function payoutsRepository(connection: SqlConnection, page: Pager) {
  const insert = rowInserter<PayoutRow, 'operator_token'>(
    connection,
    'payouts',
    `id, account_id, mode, amount, currency, status, payout_type, recipient_msisdn,
       recipient_wallet_id, payment_method, payment_id, bulk_id, reference, metadata, failure_code,
       operator_ref, next_check_at, expires_at, created_at, updated_at, completed_at,
       recipient_iban, recipient_name, recipient_bic, bank_batch_id`,
    ['operator_token'],
  );
  const get = connection.prepare<PayoutRow>(
    'SELECT * FROM payouts WHERE id = ? AND account_id = ? AND mode = ?',
  );

  const search = movementSearch<ListedPayoutRow>(
    connection,
    'payouts',
    listedPayoutColumns,
    'recipient_msisdn',
  );

  return {
    /** The dashboard's search: a reference, whole, or a phone number's first digits. */
    search,
    ...pendingQueries<PayoutRow>(connection, 'payouts', 'pending'),
    /** Inserts the row and returns it as stored. */
    async insert(row: Omit<PayoutRow, 'seq' | 'operator_token'>): Promise<PayoutRow> {
      return insert(row);
    },
    async get(accountId: string, mode: Mode, id: string): Promise<PayoutRow | undefined> {
      return get.get(id, accountId, mode);
    },
    /** A page of an account's payouts in one mode, filtered by the list's query (list-filters.ts). */
    async list(accountId: string, mode: Mode, query: PayoutQuery, request: PageRequest) {
      return page<ListedPayoutRow>(
        'payouts',
        [['account_id = ?', accountId], ['mode = ?', mode], ...conditionsOf(payoutFilters, query)],
        request,
        listedPayoutColumns,
      );
    },
  };
}
