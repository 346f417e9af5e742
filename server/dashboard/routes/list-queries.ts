import {
  pathsLogsGetParametersQueryMethodValues,
  pathsLogsGetParametersQueryStatus_classValues,
  paymentFlowValues,
  paymentStatusValues,
  payoutStatusValues,
  payoutTypeValues,
} from '../../../generated/openapi.js';
import { dayStart } from '../../i18n/translator.js';
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

/**
 * `from`/`to` dates (days in the account's time zone, `to` included) as the API's
 * created_gte/created_lt instants.
 */
export function dateRange(form: Query, timeZone: string): { created_gte?: string; created_lt?: string } {
  const valid = (value: string | undefined): value is string =>
    !!value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
  const next = (value: string) =>
    new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    ...(valid(form.from) ? { created_gte: new Date(dayStart(form.from, timeZone)).toISOString() } : {}),
    ...(valid(form.to) ? { created_lt: new Date(dayStart(next(form.to), timeZone)).toISOString() } : {}),
  };
}

export function paymentQuery(form: Query, timeZone: string): PaymentQuery {
  return {
    status: oneOf(form.status, paymentStatusValues),
    flow: oneOf(form.flow, paymentFlowValues),
    service_id: form.service_id,
    ...dateRange(form, timeZone),
  };
}

/** Payouts, or only refunds (payouts of the `refund` type, whatever the form says). */
export function payoutQuery(form: Query, refunds: boolean, timeZone: string): PayoutQuery {
  return {
    status: oneOf(form.status, payoutStatusValues),
    payout_type: refunds ? 'refund' : oneOf(form.payout_type, payoutTypeValues),
    payment_id: form.payment_id,
    bulk_id: refunds ? undefined : form.bulk_id,
    ...dateRange(form, timeZone),
  };
}

export function topupQuery(form: Query, timeZone: string): TopupQuery {
  return { status: oneOf(form.status, paymentStatusValues), ...dateRange(form, timeZone) };
}

export function logQuery(form: Query, timeZone: string): LogQuery {
  return {
    method: oneOf(form.method, pathsLogsGetParametersQueryMethodValues),
    path: form.path,
    status: form.status && /^[1-5]\d\d$/.test(form.status) ? Number(form.status) : undefined,
    status_class: oneOf(form.status_class, pathsLogsGetParametersQueryStatus_classValues),
    // Any text, as typed: a code no call was answered with matches no call.
    error_code: form.error_code as LogQuery['error_code'],
    request_id: form.request_id,
    ...dateRange(form, timeZone),
  };
}
