import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { Mode, TopupRow } from '../rows.js';
import { pendingQueries } from './pending.js';

export function topupsRepository(db: Db, page: Pager) {
  const insert = db.prepare(
    `INSERT INTO topups (id, account_id, mode, amount, currency, status, payer_msisdn, payment_method, reference,
       failure_code, operator_ref, next_check_at, expires_at, created_at, updated_at, completed_at)
     VALUES (@id, @account_id, @mode, @amount, @currency, @status, @payer_msisdn, @payment_method, @reference,
       @failure_code, @operator_ref, @next_check_at, @expires_at, @created_at, @updated_at, @completed_at)
     RETURNING *`,
  );
  const get = db.prepare('SELECT * FROM topups WHERE id = ? AND account_id = ? AND mode = ?');

  return {
    ...pendingQueries<TopupRow>(db, 'topups', 'initiated'),
    /** Inserts the row and returns it as stored. */
    insert(row: Omit<TopupRow, 'seq' | 'operator_token'>): TopupRow {
      return insert.get(row) as TopupRow;
    },
    get(accountId: string, mode: Mode, id: string): TopupRow | undefined {
      return get.get(id, accountId, mode) as TopupRow | undefined;
    },
    list(accountId: string, mode: Mode, filters: Condition[], request: PageRequest) {
      return page<TopupRow>(
        'topups',
        [['account_id = ?', accountId], ['mode = ?', mode], ...filters],
        request,
      );
    },
  };
}
