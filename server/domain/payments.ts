import { randomUUID } from 'node:crypto';
import type { HostedPaymentCreate, PaymentCreate } from '../../generated/openapi.js';
import type { PaymentQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';
import type { ListedPaymentRow, PaymentRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound } from './errors.js';
import { newId, randomBase62 } from './ids.js';
import { type AnyView, type ListAnswer, listPage } from './lists.js';
import { storedMetadata } from './metadata.js';
import { normaliseMsisdn } from './msisdn.js';
import {
  askOperator,
  firstStatusCheckAt,
  refuseOtherNetwork,
  refuseUnacceptedCurrency,
  routeRequest,
  sendWindowMs,
} from './operator-requests.js';
import { settleRefused } from './settlement.js';
import { type Answer, write } from './write.js';

/** A payment names an existing, active service of its own account and mode. */
async function requireActiveService(tx: Tx, caller: Caller, serviceId: string): Promise<void> {
  const service = await tx.services.get(caller.accountId, caller.mode, serviceId);
  if (!service) {
    throw new ApiError(
      422,
      'service_not_found',
      `No service ${serviceId} exists in this account and mode. Create one with POST /services (a service comes first) and pass its service_id.`,
      { param: 'service_id' },
    );
  }
  if (service.status !== 'active') {
    throw new ApiError(
      422,
      'service_inactive',
      `The service ${serviceId} is ${service.status} and takes no payments.`,
      { param: 'service_id' },
    );
  }
}

/** A new payment's row, before the database gives it its `seq`. */
type NewPaymentRow = Omit<PaymentRow, 'seq' | 'operator_token'>;

/** What a payment's creator chooses; the rest of a new row is the same for every payment. */
type ChosenFields = Omit<
  NewPaymentRow,
  | 'id'
  | 'account_id'
  | 'mode'
  | 'status'
  | 'failure_code'
  | 'refunded_amount'
  | 'created_at'
  | 'updated_at'
  | 'completed_at'
>;

/**
 * A new payment's row, `initiated`, written as one object literal: spreading a base object and
 * adding twelve fields after it made V8 build the row many times slower, on every POST
 * /payments (docs/performance.md).
 */
function newPaymentRow(caller: Caller, now: number, chosen: ChosenFields): NewPaymentRow {
  return {
    id: newId('pay'),
    account_id: caller.accountId,
    mode: caller.mode,
    status: 'initiated',
    failure_code: null,
    refunded_amount: 0,
    created_at: now,
    updated_at: now,
    completed_at: null,
    amount: chosen.amount,
    currency: chosen.currency,
    flow: chosen.flow,
    payment_method: chosen.payment_method,
    customer_msisdn: chosen.customer_msisdn,
    service_id: chosen.service_id,
    reference: chosen.reference,
    metadata: chosen.metadata,
    return_url: chosen.return_url,
    checkout_token: chosen.checkout_token,
    operator_ref: chosen.operator_ref,
    next_check_at: chosen.next_check_at,
    expires_at: chosen.expires_at,
  };
}

/**
 * Records a payment whose service is an active one of the caller's: the named unit both flows
 * share, so it runs on SQLite's writer thread (server/storage/unit.ts).
 */
export const insertPayment = defineUnit(
  import.meta.url,
  'payments.insert',
  async (tx, a: { caller: Caller; row: NewPaymentRow }): Promise<PaymentRow> => {
    await requireActiveService(tx, a.caller, a.row.service_id);
    return tx.payments.insert(a.row);
  },
);

/**
 * Starts a direct payment: records it `initiated` with the operator reference chosen now, then
 * (after the commit) asks the operator to push the approval to the customer's phone. The
 * settlement worker follows it to its final state.
 */
export async function createDirectPayment(
  deps: Deps,
  caller: Caller,
  input: PaymentCreate,
  answer?: Answer<PaymentRow>,
): Promise<PaymentRow> {
  const now = deps.clock.now();
  let customerMsisdn: string;
  try {
    customerMsisdn = normaliseMsisdn(input.customer_msisdn, 'customer_msisdn');
    routeRequest(
      deps,
      caller.mode,
      { msisdn: customerMsisdn, paymentMethod: input.payment_method, currency: input.currency },
      'payment_method',
    );
  } catch (refusal) {
    // A missing or inactive service is said first, as when both are wrong.
    await deps.store.read((tx) => requireActiveService(tx, caller, input.service_id));
    throw refusal;
  }
  const row = newPaymentRow(caller, now, {
    amount: input.amount,
    currency: input.currency,
    flow: 'direct',
    payment_method: input.payment_method,
    customer_msisdn: customerMsisdn,
    service_id: input.service_id,
    reference: input.reference ?? null,
    metadata: storedMetadata(input.metadata),
    return_url: null,
    checkout_token: null,
    operator_ref: randomUUID(),
    next_check_at: firstStatusCheckAt(deps, caller.mode, now),
    expires_at: now + deps.config.paymentExpirySeconds * 1000,
  });
  const payment = await write(deps, insertPayment, { caller, row }, answer);
  await askOperatorToCollect(deps, payment);
  return payment;
}

async function askOperatorToCollect(deps: Deps, payment: PaymentRow): Promise<void> {
  if (!payment.operator_ref || !payment.customer_msisdn || !payment.payment_method) return;
  await askOperator(
    deps,
    'collection',
    {
      transactionId: payment.id,
      table: 'payments',
      mode: payment.mode,
      operatorRef: payment.operator_ref,
      amount: payment.amount,
      currency: payment.currency,
      msisdn: payment.customer_msisdn,
      paymentMethod: payment.payment_method,
      operatorToken: payment.operator_token,
    },
    (failureCode) => settleRefused(deps, 'payments', payment, failureCode),
  );
}

/** Starts a hosted payment: no charge yet, a checkout link the customer pays through. */
export async function initiateHostedPayment(
  deps: Deps,
  caller: Caller,
  input: HostedPaymentCreate,
  answer?: Answer<PaymentRow>,
): Promise<PaymentRow> {
  if (input.return_url && caller.mode === 'live' && !input.return_url.startsWith('https://')) {
    throw new ApiError(
      400,
      'invalid_field',
      'In live mode return_url must be an https URL: the customer is sent back to it.',
      { param: 'return_url' },
    );
  }
  const customerMsisdn =
    input.customer_msisdn === undefined ? null : normaliseMsisdn(input.customer_msisdn, 'customer_msisdn');
  refuseOtherNetwork(customerMsisdn ?? '', input.payment_method, 'payment_method');
  if (input.payment_method) refuseUnacceptedCurrency(deps, caller.mode, input.payment_method, input.currency);
  const now = deps.clock.now();
  const row = newPaymentRow(caller, now, {
    amount: input.amount,
    currency: input.currency,
    flow: 'hosted',
    return_url: input.return_url ?? null,
    payment_method: input.payment_method ?? null,
    customer_msisdn: customerMsisdn,
    service_id: input.service_id,
    reference: input.reference ?? null,
    metadata: storedMetadata(input.metadata),
    checkout_token: `cs_${randomBase62(32)}`,
    operator_ref: null,
    next_check_at: null,
    expires_at: now + (input.expires_in_seconds ?? 1800) * 1000,
  });
  return write(deps, insertPayment, { caller, row }, answer);
}

export async function getPayment(deps: Deps, caller: Caller, id: string): Promise<PaymentRow> {
  const row = await deps.store.read(async (tx) => tx.payments.get(caller.accountId, caller.mode, id));
  if (!row) throw notFound('payment', id);
  return row;
}

/** A page of the caller's payments: its rows, or given a `view`, its response (lists.ts). */
export async function listPayments<V extends AnyView<ListedPaymentRow> = undefined>(
  deps: Deps,
  caller: Caller,
  query: PaymentQuery,
  page: PageRequest,
  view?: V,
): ListAnswer<ListedPaymentRow, V> {
  return listPage(deps, caller, 'payments', query, page, view);
}

/** What the hosted checkout page needs to show, found by the link's token. */
export async function findCheckout(deps: Deps, token: string) {
  return deps.store.read(async (tx) => {
    const payment = await tx.payments.byCheckoutToken(token);
    if (!payment) return undefined;
    const service = await tx.services.get(payment.account_id, payment.mode, payment.service_id);
    return { payment, serviceName: service?.name ?? '', serviceActive: service?.status === 'active' };
  });
}

export type CheckoutResult =
  | { ok: true; payment: PaymentRow }
  | {
      ok: false;
      reason: 'not_found' | 'expired' | 'already_paid' | 'closed' | 'service_inactive';
      payment?: PaymentRow;
    };

/** The hosted payment's charge, recorded with its operator reference when its link may be paid. */
const startCheckoutCharge = defineUnit(
  import.meta.url,
  'payments.start-checkout-charge',
  async (
    tx,
    a: {
      token: string;
      msisdn: string;
      paymentMethod: string;
      operatorRef: string;
      now: number;
      /** How long before a live charge's status is first asked, unless its send ends sooner. */
      sendWindowMs: number;
    },
  ): Promise<CheckoutResult> => {
    const payment = await tx.payments.byCheckoutToken(a.token);
    if (!payment) return { ok: false, reason: 'not_found' };
    if (payment.status !== 'initiated') return { ok: false, reason: 'closed', payment };
    if (payment.expires_at <= a.now) return { ok: false, reason: 'expired', payment };
    if (payment.operator_ref !== null) return { ok: false, reason: 'already_paid', payment };
    const service = await tx.services.get(payment.account_id, payment.mode, payment.service_id);
    if (service?.status !== 'active') return { ok: false, reason: 'service_inactive', payment };
    const firstCheck = payment.mode === 'live' ? a.now + a.sendWindowMs : a.now;
    await tx.payments.startCharge(payment.id, a.paymentMethod, a.msisdn, a.operatorRef, firstCheck, a.now);
    return { ok: true, payment: (await tx.payments.byId(payment.id)) as PaymentRow };
  },
);

/**
 * The customer pays a hosted payment: the link must be open and unpaid, and its service still
 * active (a service made inactive or deleted after the link was sent takes no more money); the
 * charge is sent once (a second submit finds `operator_ref` set and is refused).
 */
export async function payCheckout(
  deps: Deps,
  token: string,
  input: { msisdn: string; paymentMethod: 'mtn_momo' | 'orange_money' },
): Promise<CheckoutResult> {
  const charge = {
    token,
    ...input,
    operatorRef: randomUUID(),
    now: deps.clock.now(),
    sendWindowMs: sendWindowMs(deps),
  };
  const result = await write(deps, startCheckoutCharge, charge);
  if (result.ok) await askOperatorToCollect(deps, result.payment);
  return result;
}
