import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { Mode, PayoutRow } from '../rows.js';

export function payoutsRepository(db: Db, page: Pager) {
  const insert = db.prepare(
    `INSERT INTO payouts (id, account_id, mode, amount, currency, status, payout_type, recipient_msisdn,
       recipient_wallet_id, payment_id, bulk_id, reference, failure_code, operator_ref, next_check_at, expires_at,
       created_at, updated_at, completed_at)
     VALUES (@id, @account_id, @mode, @amount, @currency, @status, @payout_type, @recipient_msisdn,
       @recipient_wallet_id, @payment_id, @bulk_id, @reference, @failure_code, @operator_ref, @next_check_at,
       @expires_at, @created_at, @updated_at, @completed_at)
     RETURNING *`,
  );
  const get = db.prepare('SELECT * FROM payouts WHERE id = ? AND account_id = ? AND mode = ?');
  const finish = db.prepare(
    `UPDATE payouts SET status = ?, failure_code = ?, updated_at = ?, completed_at = ?, next_check_at = NULL
      WHERE id = ? AND status = 'pending'`,
  );
  const recheckLater = db.prepare("UPDATE payouts SET next_check_at = ? WHERE id = ? AND status = 'pending'");
  const due = db.prepare(
    `SELECT * FROM payouts WHERE status = 'pending' AND next_check_at IS NOT NULL AND next_check_at <= ?
      ORDER BY next_check_at LIMIT ?`,
  );

  return {
    /** Inserts the row and returns it as stored. */
    insert(row: Omit<PayoutRow, 'seq'>): PayoutRow {
      return insert.get(row) as PayoutRow;
    },
    get(accountId: string, mode: Mode, id: string): PayoutRow | undefined {
      return get.get(id, accountId, mode) as PayoutRow | undefined;
    },
    /** Moves a pending payout to a final state; false when it already was final. */
    finish(id: string, status: PayoutRow['status'], failureCode: string | null, now: number): boolean {
      return finish.run(status, failureCode, now, now, id).changes === 1;
    },
    recheckLater(id: string, at: number): void {
      recheckLater.run(at, id);
    },
    due(now: number, limit: number): PayoutRow[] {
      return due.all(now, limit) as PayoutRow[];
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
