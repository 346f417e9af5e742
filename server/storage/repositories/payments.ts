import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { Mode, PaymentRow } from '../rows.js';
import { pendingQueries } from './pending.js';

export function paymentsRepository(db: Db, page: Pager) {
  const insert = db.prepare(
    `INSERT INTO payments (id, account_id, mode, amount, currency, status, flow, payment_method, customer_msisdn,
       service_id, reference, failure_code, refunded_amount, checkout_token, operator_ref, next_check_at, expires_at,
       created_at, updated_at, completed_at, return_url)
     VALUES (@id, @account_id, @mode, @amount, @currency, @status, @flow, @payment_method, @customer_msisdn,
       @service_id, @reference, @failure_code, @refunded_amount, @checkout_token, @operator_ref, @next_check_at,
       @expires_at, @created_at, @updated_at, @completed_at, @return_url)
     RETURNING *`,
  );
  const get = db.prepare('SELECT * FROM payments WHERE id = ? AND account_id = ? AND mode = ?');
  const byId = db.prepare('SELECT * FROM payments WHERE id = ?');
  const byCheckoutToken = db.prepare('SELECT * FROM payments WHERE checkout_token = ?');
  const startCharge = db.prepare(
    `UPDATE payments SET payment_method = ?, customer_msisdn = ?, operator_ref = ?, next_check_at = ?, updated_at = ?
      WHERE id = ? AND status = 'initiated' AND operator_ref IS NULL`,
  );
  const addRefunded = db.prepare(
    'UPDATE payments SET refunded_amount = refunded_amount + ?, updated_at = ? WHERE id = ?',
  );

  return {
    ...pendingQueries<PaymentRow>(db, 'payments', 'initiated'),
    /** Inserts the row and returns it as stored. */
    insert(row: Omit<PaymentRow, 'seq' | 'operator_token'>): PaymentRow {
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
    addRefunded(id: string, delta: number, now: number): void {
      addRefunded.run(delta, now, id);
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
