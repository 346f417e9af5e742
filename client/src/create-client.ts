import type { Client } from 'openapi-fetch';
import createClient from 'openapi-fetch';
import type { paths } from './contract.js';
import { authMiddleware } from './middleware/auth.js';
import { idempotencyMiddleware } from './middleware/idempotency.js';
import { sandboxMiddleware } from './middleware/sandbox.js';
import { type PaymentsClientOptions, resolveOptions } from './options.js';
import { retryingFetch } from './retrying-fetch.js';

/** A client of the Payments and Payouts API: openapi-fetch typed by the contract's `paths`. */
export type PaymentsClient = Client<paths>;

/**
 * Creates a client of the Payments and Payouts API. Every call is typed from the contract
 * (paths, parameters, bodies, responses, error codes) and returns `{ data, error, response }`:
 * HTTP errors are returned as the typed `error` envelope, never thrown; only a call that got no
 * response after its retries throws (`PaymentsConnectionError`).
 *
 * On every call the client sends the key and the API user, adds `test=true` in sandbox mode,
 * gives each `POST` an `Idempotency-Key`, times each attempt out after `timeoutMs` and retries
 * network errors, timeouts, 429 (after `Retry-After`) and 5xx with backoff and jitter.
 *
 * @throws {PaymentsConfigError} when an option is missing or invalid, when `sandbox: true` comes
 * with a live key, or when a live key is used in a browser.
 *
 * @example
 * ```ts
 * const client = createPaymentsClient({
 *   apiKey: process.env.PAYMENTS_API_KEY!, // sk_test_...
 *   apiUser: process.env.PAYMENTS_API_USER!,
 *   baseUrl: 'https://api.example.com/v1',
 *   sandbox: true,
 * });
 * const { data, error, response } = await client.GET('/payments/{id}', {
 *   params: { path: { id: 'pay_26ckKthu9SR4AlZ0MBzSvYzU' } },
 * });
 * if (error) console.error(error.error.code, requestIdOf(response));
 * else console.log(data.data.status);
 * ```
 */
export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  const resolved = resolveOptions(options);
  const client = createClient<paths>({
    baseUrl: resolved.baseUrl,
    fetch: retryingFetch({ fetch: resolved.fetch, retry: resolved.retry, timeoutMs: resolved.timeoutMs }),
  });
  client.use(authMiddleware(resolved));
  if (resolved.sandbox) client.use(sandboxMiddleware());
  client.use(idempotencyMiddleware());
  return client;
}
