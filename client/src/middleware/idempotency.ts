import type { Middleware } from 'openapi-fetch';

/**
 * Gives every `POST` a fresh `Idempotency-Key` (a random UUID) unless the caller set one. The
 * key is set once, before the request is sent: the retries of that call (see `retryingFetch`)
 * resend the same request, so the API replays the first answer and never moves money twice.
 *
 * @example
 * ```ts
 * client.use(idempotencyMiddleware());
 * await client.POST('/payouts', { body }); // Idempotency-Key: 0b6f...
 * // Your own key, e.g. to retry a call from an earlier process:
 * await client.POST('/payouts', { body, params: { header: { 'Idempotency-Key': savedKey } } });
 * ```
 */
export function idempotencyMiddleware(newKey: () => string = () => crypto.randomUUID()): Middleware {
  return {
    onRequest({ request }) {
      if (request.method === 'POST' && !request.headers.has('Idempotency-Key')) {
        request.headers.set('Idempotency-Key', newKey());
      }
      return request;
    },
  };
}
