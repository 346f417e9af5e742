import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { Mode, PayoutRow } from '../rows.js';
import { pendingQueries } from './pending.js';

export function payoutsRepository(db: Db, page: Pager) {
  const insert = db.prepare(
    `INSERT INTO payouts (id, account_id, mode, amount, currency, status, payout_type, recipient_msisdn,
       recipient_wallet_id, payment_method, payment_id, bulk_id, reference, failure_code, operator_ref, next_check_at, expires_at,
       created_at, updated_at, completed_at)
     VALUES (@id, @account_id, @mode, @amount, @currency, @status, @payout_type, @recipient_msisdn,
       @recipient_wallet_id, @payment_method, @payment_id, @bulk_id, @reference, @failure_code, @operator_ref, @next_check_at,
       @expires_at, @created_at, @updated_at, @completed_at)
     RETURNING *`,
  );
  const get = db.prepare('SELECT * FROM payouts WHERE id = ? AND account_id = ? AND mode = ?');

  return {
    ...pendingQueries<PayoutRow>(db, 'payouts', 'pending'),
    /** Inserts the row and returns it as stored. */
    insert(row: Omit<PayoutRow, 'seq' | 'operator_token'>): PayoutRow {
      return insert.get(row) as PayoutRow;
    },
    get(accountId: string, mode: Mode, id: string): PayoutRow | undefined {
      return get.get(id, accountId, mode) as PayoutRow | undefined;
    },
    list(accountId: string, mode: Mode, filters: Condition[], request: PageRequest) {
      return page<PayoutRow>(
        'payouts',
        [['account_id = ?', accountId], ['mode = ?', mode], ...filters],
        request,
      );
    },
  };
}
