import type { FetchOptions } from 'openapi-fetch';
import type { paths } from './contract.js';
import type { PaymentsClient } from './create-client.js';
import { PaymentsApiError } from './errors.js';

interface Page<Item> {
  items: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

type GetOperation<P extends keyof paths> = paths[P] extends { get: infer Operation } ? Operation : never;

type OkBody<Operation> = Operation extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

/** Every path whose `GET` answers a page of items: the list operations. */
export type ListPath = {
  [P in keyof paths]: OkBody<GetOperation<P>> extends { data: Page<unknown> } ? P : never;
}[keyof paths];

/** The type of the items a list operation returns, e.g. `ListItem<'/payments'>` is `Payment`. */
export type ListItem<P extends ListPath> =
  OkBody<GetOperation<P>> extends { data: Page<infer Item> } ? Item : never;

/** The options of a list call: its parameters (filters, `limit`, path ids), as `client.GET` takes them. */
export type ListInit<P extends ListPath> = FetchOptions<GetOperation<P>>;

type ListArgs<P extends ListPath> =
  Record<string, never> extends ListInit<P> ? [init?: ListInit<P>] : [init: ListInit<P>];

type ListCall = (
  path: string,
  init: { params: { query: Record<string, unknown> } },
) => Promise<{ data?: { data: Page<unknown> }; error?: unknown; response: Response }>;

/**
 * Iterates over every item of a list operation, newest first, fetching page after page: each
 * page's `next_cursor` is sent as `cursor` until `has_more` is false. Pages hold `limit` items
 * (the API's default when omitted). Stop early with `break`. An error answer ends the iteration
 * by throwing a `PaymentsApiError` with the typed envelope and the request id.
 *
 * @example
 * ```ts
 * for await (const payment of paginate(client, '/payments', { params: { query: { status: 'success', limit: 100 } } })) {
 *   console.log(payment.transaction_id, payment.amount);
 * }
 * for await (const delivery of paginate(client, '/events/{id}/deliveries', { params: { path: { id: eventId } } })) {
 *   console.log(delivery.status);
 * }
 * ```
 */
export async function* paginate<P extends ListPath>(
  client: PaymentsClient,
  path: P,
  ...[init]: ListArgs<P>
): AsyncGenerator<ListItem<P>, void, undefined> {
  const list = client.GET as unknown as ListCall;
  const options = (init ?? {}) as { params?: { query?: Record<string, unknown> } };
  let cursor = options.params?.query?.cursor;
  for (;;) {
    const query = { ...options.params?.query, ...(cursor === undefined ? {} : { cursor }) };
    const { data, error, response } = await list(path, { ...options, params: { ...options.params, query } });
    if (data === undefined) throw new PaymentsApiError(response, error);
    yield* data.data.items as ListItem<P>[];
    if (!data.data.has_more || data.data.next_cursor === null) return;
    cursor = data.data.next_cursor;
  }
}

/** Options of `autoPagingToArray`. */
export interface AutoPagingOptions {
  /**
   * The most items to collect (required, at most 10 000): a list can be long, and an array
   * holds all of it in memory. Pages stop being fetched once it is reached.
   */
  limit: number;
}

/** The most items `autoPagingToArray` collects in one call. */
export const autoPagingMaxLimit = 10_000;

/**
 * Collects the items of a list operation into an array, newest first, fetching page after page
 * until `limit` items are collected or the list ends. For more, or for a stream, use `paginate`.
 * A failed page throws a `PaymentsApiError`.
 *
 * @throws {RangeError} when `limit` is not an integer from 1 to 10 000.
 *
 * @example
 * ```ts
 * const recent = await autoPagingToArray(client, '/payments', { limit: 250 }, {
 *   params: { query: { status: 'success', limit: 100 } },
 * });
 * console.log(recent.length); // at most 250
 * ```
 */
export async function autoPagingToArray<P extends ListPath>(
  client: PaymentsClient,
  path: P,
  options: AutoPagingOptions,
  ...init: ListArgs<P>
): Promise<ListItem<P>[]> {
  const { limit } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > autoPagingMaxLimit) {
    throw new RangeError(`limit must be an integer from 1 to ${autoPagingMaxLimit} (got ${limit})`);
  }
  const items: ListItem<P>[] = [];
  for await (const item of paginate(client, path, ...init)) {
    items.push(item);
    if (items.length >= limit) break;
  }
  return items;
}
