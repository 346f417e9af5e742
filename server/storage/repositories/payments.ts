import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { Mode, PaymentRow } from '../rows.js';

export function paymentsRepository(db: Db, page: Pager) {
  const insert = db.prepare(
    `INSERT INTO payments (id, account_id, mode, amount, currency, status, flow, payment_method, customer_msisdn,
       service_id, reference, failure_code, refunded_amount, checkout_token, operator_ref, next_check_at, expires_at,
       created_at, updated_at, completed_at)
     VALUES (@id, @account_id, @mode, @amount, @currency, @status, @flow, @payment_method, @customer_msisdn,
       @service_id, @reference, @failure_code, @refunded_amount, @checkout_token, @operator_ref, @next_check_at,
       @expires_at, @created_at, @updated_at, @completed_at)
     RETURNING *`,
  );
  const get = db.prepare('SELECT * FROM payments WHERE id = ? AND account_id = ? AND mode = ?');
  const byId = db.prepare('SELECT * FROM payments WHERE id = ?');
  const byCheckoutToken = db.prepare('SELECT * FROM payments WHERE checkout_token = ?');
  const finish = db.prepare(
    `UPDATE payments SET status = ?, failure_code = ?, updated_at = ?, completed_at = ?, next_check_at = NULL
      WHERE id = ? AND status = 'initiated'`,
  );
  const startCharge = db.prepare(
    `UPDATE payments SET payment_method = ?, customer_msisdn = ?, operator_ref = ?, next_check_at = ?, updated_at = ?
      WHERE id = ? AND status = 'initiated' AND operator_ref IS NULL`,
  );
  const recheckLater = db.prepare(
    "UPDATE payments SET next_check_at = ? WHERE id = ? AND status = 'initiated'",
  );
  const addRefunded = db.prepare(
    'UPDATE payments SET refunded_amount = refunded_amount + ?, updated_at = ? WHERE id = ?',
  );
  const due = db.prepare(
    `SELECT * FROM payments WHERE status = 'initiated' AND next_check_at IS NOT NULL AND next_check_at <= ?
      ORDER BY next_check_at LIMIT ?`,
  );
  const expired = db.prepare(
    "SELECT * FROM payments WHERE status = 'initiated' AND expires_at <= ? ORDER BY expires_at LIMIT ?",
  );

  return {
    /** Inserts the row and returns it as stored. */
    insert(row: Omit<PaymentRow, 'seq'>): PaymentRow {
      return insert.get(row) as PaymentRow;
    },
    get(accountId: string, mode: Mode, id: string): PaymentRow | undefined {
      return get.get(id, accountId, mode) as PaymentRow | undefined;
    },
    byId(id: string): PaymentRow | undefined {
      return byId.get(id) as PaymentRow | undefined;
    },
    byCheckoutToken(token: string): PaymentRow | undefined {
      return byCheckoutToken.get(token) as PaymentRow | undefined;
    },
    /** Moves an initiated payment to a final state; false when it already was final. */
    finish(id: string, status: PaymentRow['status'], failureCode: string | null, now: number): boolean {
      return finish.run(status, failureCode, now, now, id).changes === 1;
    },
    /** Records the charge sent for a hosted payment; false when one was sent already. */
    startCharge(
      id: string,
      method: string,
      msisdn: string,
      operatorRef: string,
      checkAt: number,
      now: number,
    ) {
      return startCharge.run(method, msisdn, operatorRef, checkAt, now, id).changes === 1;
    },
    recheckLater(id: string, at: number): void {
      recheckLater.run(at, id);
    },
    addRefunded(id: string, delta: number, now: number): void {
      addRefunded.run(delta, now, id);
    },
    due(now: number, limit: number): PaymentRow[] {
      return due.all(now, limit) as PaymentRow[];
    },
    expired(now: number, limit: number): PaymentRow[] {
      return expired.all(now, limit) as PaymentRow[];
    },
    list(accountId: string, mode: Mode, filters: Condition[], request: PageRequest) {
      return page<PaymentRow>(
        'payments',
        [['account_id = ?', accountId], ['mode = ?', mode], ...filters],
        request,
      );
    },
  };
}
