import {
  pathsLogsGetParametersQueryMethodValues,
  pathsLogsGetParametersQueryStatus_classValues,
  paymentFlowValues,
  paymentStatusValues,
  payoutStatusValues,
  payoutTypeValues,
} from '../../../generated/openapi.js';
import type { LogQuery, PaymentQuery, PayoutQuery, TopupQuery } from '../../storage/list-filters.js';
import type { Query } from './context.js';

/**
 * The dashboard's filter forms as the API's typed list queries: the lists' one filter
 * definition (server/storage/list-filters.ts) reads both. A choice the contract does not know
 * is no filter, as the form's select offers only the contract's.
 */

/** Keeps a form value only when it is one of the contract's. */
function oneOf<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  return allowed.find((choice) => choice === value);
}

/** `from`/`to` dates (UTC days, `to` included) as the API's created_gte/created_lt. */
export function dateRange(form: Query): { created_gte?: string; created_lt?: string } {
  const day = (value: string | undefined) =>
    value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  const from = day(form.from);
  const to = day(form.to);
  return {
    ...(Number.isNaN(from) ? {} : { created_gte: new Date(from).toISOString() }),
    ...(Number.isNaN(to) ? {} : { created_lt: new Date(to + 86_400_000).toISOString() }),
  };
}

export function paymentQuery(form: Query): PaymentQuery {
  return {
    status: oneOf(form.status, paymentStatusValues),
    flow: oneOf(form.flow, paymentFlowValues),
    service_id: form.service_id,
    ...dateRange(form),
  };
}

/** Payouts, or only refunds (payouts of the `refund` type, whatever the form says). */
export function payoutQuery(form: Query, refunds: boolean): PayoutQuery {
  return {
    status: oneOf(form.status, payoutStatusValues),
    payout_type: refunds ? 'refund' : oneOf(form.payout_type, payoutTypeValues),
    payment_id: form.payment_id,
    bulk_id: refunds ? undefined : form.bulk_id,
    ...dateRange(form),
  };
}

export function topupQuery(form: Query): TopupQuery {
  return { status: oneOf(form.status, paymentStatusValues), ...dateRange(form) };
}

export function logQuery(form: Query): LogQuery {
  return {
    method: oneOf(form.method, pathsLogsGetParametersQueryMethodValues),
    path: form.path,
    status: form.status && /^[1-5]\d\d$/.test(form.status) ? Number(form.status) : undefined,
    status_class: oneOf(form.status_class, pathsLogsGetParametersQueryStatus_classValues),
    // Any text, as typed: a code no call was answered with matches no call.
    error_code: form.error_code as LogQuery['error_code'],
    request_id: form.request_id,
    ...dateRange(form),
  };
}
