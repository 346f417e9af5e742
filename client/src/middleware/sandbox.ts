import type { Middleware } from 'openapi-fetch';

/**
 * Adds `test=true` to every call, so the API refuses the call (`400 live_key_in_test_mode`)
 * instead of moving real money if a live key slips in. openapi-fetch joins `baseUrl` and the
 * path itself, so the query is added here, on the finished request, never to `baseUrl`.
 *
 * @example
 * ```ts
 * client.use(sandboxMiddleware());
 * await client.GET('/balance'); // GET {baseUrl}/balance?test=true
 * ```
 */
export function sandboxMiddleware(): Middleware {
  return {
    async onRequest({ request }) {
      const url = new URL(request.url);
      url.searchParams.set('test', 'true');
      // A Request's URL cannot change: rebuild it with the body buffered, so that it keeps its
      // Content-Length instead of being streamed chunked.
      return new Request(url, {
        method: request.method,
        headers: request.headers,
        body: request.body === null ? null : await request.arrayBuffer(),
        signal: request.signal,
        redirect: request.redirect,
        credentials: request.credentials,
        cache: request.cache,
        integrity: request.integrity,
        keepalive: request.keepalive,
        mode: request.mode,
        referrer: request.referrer,
        referrerPolicy: request.referrerPolicy,
      });
    },
  };
}
