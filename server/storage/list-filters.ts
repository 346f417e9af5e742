import type { operations } from '../../generated/openapi.js';
import type { Condition } from './pagination.js';

/**
 * The filters of every list, each defined once: a whitelist from the contract's query
 * parameters of the list's operation to the conditions they put on its rows. The API passes the
 * query its validator let through, the dashboard the same typed query built from its form; a
 * repository's list maps it through its whitelist, so no name or text from a request ever
 * reaches SQL, and a filter the contract adds does not compile until it is mapped here.
 */

/** The list operations of the contract whose rows can be filtered. */
export type FilteredList =
  | 'listPayments'
  | 'listPayouts'
  | 'listTopups'
  | 'listServices'
  | 'listLogs'
  | 'listEvents'
  | 'listBalanceTransactions';

/** A list operation's query parameters, as the contract types them (`generated/openapi.ts`). */
export type ListQuery<Op extends FilteredList> = NonNullable<operations[Op]['parameters']['query']>;

export type PaymentQuery = ListQuery<'listPayments'>;
export type PayoutQuery = ListQuery<'listPayouts'>;
export type TopupQuery = ListQuery<'listTopups'>;
export type ServiceQuery = ListQuery<'listServices'>;
export type LogQuery = ListQuery<'listLogs'>;
export type EventQuery = ListQuery<'listEvents'>;
export type LedgerQuery = ListQuery<'listBalanceTransactions'>;

/** The parameters that choose the mode or the page, never which rows. */
type NotAFilter = 'test' | 'limit' | 'cursor';

/** One condition for each filter parameter of a query, given its value; every parameter mapped. */
type Whitelist<Q> = {
  [K in Exclude<keyof Q, NotAFilter>]-?: (value: NonNullable<Q[K]>) => Condition;
};

/** A list's filters, and the conditions that hold when a parameter is not given. */
export interface ListFilters<Q> {
  whitelist: Whitelist<Q>;
  absent?: { [K in keyof Whitelist<Q>]?: Condition };
}

// The column names below are this file's constants; only the values come from the request.
const equals =
  (column: string) =>
  (value: string | number): Condition => [`${column} = ?`, value];
/** An integer parameter the validator may leave as the text it checked. */
const equalsNumber =
  (column: string) =>
  (value: string | number): Condition => [`${column} = ?`, Number(value)];
/** `created_gte` / `created_lt`: an ISO 8601 time against the stored epoch milliseconds. */
const createdFrom = (value: string): Condition => ['created_at >= ?', Date.parse(value)];
const createdBefore = (value: string): Condition => ['created_at < ?', Date.parse(value)];
/** `2xx`: the hundred status codes of the class. */
const statusClass = (value: string): Condition => {
  const base = Number(value[0]) * 100;
  return ['status >= ? AND status < ?', base, base + 100];
};

export const paymentFilters: ListFilters<PaymentQuery> = {
  whitelist: {
    status: equals('status'),
    service_id: equals('service_id'),
    flow: equals('flow'),
    reference: equals('reference'),
    created_gte: createdFrom,
    created_lt: createdBefore,
  },
};

export const payoutFilters: ListFilters<PayoutQuery> = {
  whitelist: {
    status: equals('status'),
    payout_type: equals('payout_type'),
    bulk_id: equals('bulk_id'),
    payment_id: equals('payment_id'),
    reference: equals('reference'),
    created_gte: createdFrom,
    created_lt: createdBefore,
  },
};

export const topupFilters: ListFilters<TopupQuery> = {
  whitelist: {
    status: equals('status'),
    reference: equals('reference'),
    created_gte: createdFrom,
    created_lt: createdBefore,
  },
};

/** Deleted services keep their history but are listed only when asked for. */
export const serviceFilters: ListFilters<ServiceQuery> = {
  whitelist: { status: equals('status') },
  absent: { status: ["status <> 'deleted'"] },
};

export const logFilters: ListFilters<LogQuery> = {
  whitelist: {
    method: equals('method'),
    path: equals('path'),
    status: equalsNumber('status'),
    status_class: statusClass,
    error_code: equals('error_code'),
    request_id: equals('request_id'),
    created_gte: createdFrom,
    created_lt: createdBefore,
  },
};

export const eventFilters: ListFilters<EventQuery> = {
  whitelist: {
    event: equals('event'),
    transaction_id: equals('transaction_id'),
    created_gte: createdFrom,
    created_lt: createdBefore,
  },
};

export const ledgerFilters: ListFilters<LedgerQuery> = {
  whitelist: {
    type: equals('type'),
    currency: equals('currency'),
    created_gte: createdFrom,
    created_lt: createdBefore,
  },
};

/**
 * The conditions of a query: one per whitelisted parameter given a value (an empty one is not
 * given), the `absent` condition for one not given; every other parameter is ignored.
 */
export function conditionsOf<Q extends object>(filters: ListFilters<Q>, query: Q): Condition[] {
  const conditions: Condition[] = [];
  const given = query as Record<string, unknown>;
  const whitelist = filters.whitelist as Record<string, (value: unknown) => Condition>;
  const absent = (filters.absent ?? {}) as Record<string, Condition | undefined>;
  for (const [name, condition] of Object.entries(whitelist)) {
    const value = given[name];
    if (value !== undefined && value !== null && value !== '') conditions.push(condition(value));
    else if (absent[name]) conditions.push(absent[name]);
  }
  return conditions;
}
