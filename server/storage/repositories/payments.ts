import { conditionsOf, type PaymentQuery, paymentFilters } from '../list-filters.js';
import type { PageRequest, Pager } from '../pagination.js';
import { type ListedPaymentRow, listedPaymentColumns, type Mode, type PaymentRow } from '../rows.js';
import type { SqlConnection } from '../sql.js';
import { rowInserter } from './insert-row.js';
import { pendingQueries } from './pending.js';
import { movementSearch } from './search.js';

export function paymentsRepository(connection: SqlConnection, page: Pager) {
  const insert = rowInserter<PaymentRow, 'operator_token'>(
    connection,
    'payments',
    `id, account_id, mode, amount, currency, status, flow, payment_method, customer_msisdn,
       service_id, reference, metadata, failure_code, refunded_amount, checkout_token, operator_ref,
       next_check_at, expires_at, created_at, updated_at, completed_at, return_url`,
    ['operator_token'],
  );
  const get = connection.prepare<PaymentRow>(
    'SELECT * FROM payments WHERE id = ? AND account_id = ? AND mode = ?',
  );
  const byId = connection.prepare<PaymentRow>('SELECT * FROM payments WHERE id = ?');
  const byCheckoutToken = connection.prepare<PaymentRow>('SELECT * FROM payments WHERE checkout_token = ?');
  const startCharge = connection.prepare(
    `UPDATE payments SET payment_method = ?, customer_msisdn = ?, operator_ref = ?, next_check_at = ?, updated_at = ?
      WHERE id = ? AND status = 'initiated' AND operator_ref IS NULL`,
  );
  const addRefunded = connection.prepare(
    'UPDATE payments SET refunded_amount = refunded_amount + ?, updated_at = ? WHERE id = ?',
  );

  const search = movementSearch<ListedPaymentRow>(
    connection,
    'payments',
    listedPaymentColumns,
    'customer_msisdn',
  );

  return {
    /** The dashboard's search: a reference, whole, or a phone number's first digits. */
    search,
    ...pendingQueries<PaymentRow>(connection, 'payments', 'initiated'),
    /** Inserts the row and returns it as stored. */
    async insert(row: Omit<PaymentRow, 'seq' | 'operator_token'>): Promise<PaymentRow> {
      return insert(row);
    },
    async get(accountId: string, mode: Mode, id: string): Promise<PaymentRow | undefined> {
      return get.get(id, accountId, mode);
    },
    async byId(id: string): Promise<PaymentRow | undefined> {
      return byId.get(id);
    },
    async byCheckoutToken(token: string): Promise<PaymentRow | undefined> {
      return byCheckoutToken.get(token);
    },
    /** Records the charge sent for a hosted payment; false when one was sent already. */
    async startCharge(
      id: string,
      method: string,
      msisdn: string,
      operatorRef: string,
      checkAt: number,
      now: number,
    ): Promise<boolean> {
      return (await startCharge.run(method, msisdn, operatorRef, checkAt, now, id)).changes === 1;
    },
    async addRefunded(id: string, delta: number, now: number): Promise<void> {
      await addRefunded.run(delta, now, id);
    },
    /** A page of an account's payments in one mode, filtered by the list's query (list-filters.ts). */
    async list(accountId: string, mode: Mode, query: PaymentQuery, request: PageRequest) {
      return page<ListedPaymentRow>(
        'payments',
        [['account_id = ?', accountId], ['mode = ?', mode], ...conditionsOf(paymentFilters, query)],
        request,
        listedPaymentColumns,
      );
    },
  };
}
