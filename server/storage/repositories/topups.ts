import { conditionsOf, type TopupQuery, topupFilters } from '../list-filters.js';
import type { PageRequest, Pager } from '../pagination.js';
import { type ListedTopupRow, listedTopupColumns, type Mode, type TopupRow } from '../rows.js';
import type { SqlConnection } from '../sql.js';
import { rowInserter } from './insert-row.js';
import { pendingQueries } from './pending.js';
import { movementSearch } from './search.js';

export function topupsRepository(connection: SqlConnection, page: Pager) {
  const insert = rowInserter<TopupRow, 'operator_token'>(
    connection,
    'topups',
    `id, account_id, mode, amount, currency, status, payer_msisdn, payment_method, reference, metadata,
       failure_code, operator_ref, next_check_at, expires_at, created_at, updated_at, completed_at`,
    ['operator_token'],
  );
  const get = connection.prepare<TopupRow>(
    'SELECT * FROM topups WHERE id = ? AND account_id = ? AND mode = ?',
  );

  const search = movementSearch<ListedTopupRow>(connection, 'topups', listedTopupColumns, 'payer_msisdn');

  return {
    /** The dashboard's search: a reference, whole, or a phone number's first digits. */
    search,
    ...pendingQueries<TopupRow>(connection, 'topups', 'initiated'),
    /** Inserts the row and returns it as stored. */
    async insert(row: Omit<TopupRow, 'seq' | 'operator_token'>): Promise<TopupRow> {
      return insert(row);
    },
    async get(accountId: string, mode: Mode, id: string): Promise<TopupRow | undefined> {
      return get.get(id, accountId, mode);
    },
    /** A page of an account's topups in one mode, filtered by the list's query (list-filters.ts). */
    async list(accountId: string, mode: Mode, query: TopupQuery, request: PageRequest) {
      return page<ListedTopupRow>(
        'topups',
        [['account_id = ?', accountId], ['mode = ?', mode], ...conditionsOf(topupFilters, query)],
        request,
        listedTopupColumns,
      );
    },
  };
}
