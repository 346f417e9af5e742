import type { Middleware } from 'openapi-fetch';

/**
 * Sends the two credentials the API requires on every call: `Authorization: Bearer <secret key>`
 * and `X-API-User: <api user id>`.
 *
 * @example
 * ```ts
 * import createClient from 'openapi-fetch';
 * const client = createClient<paths>({ baseUrl });
 * client.use(authMiddleware({ apiKey: 'sk_test_...', apiUser: '5a3c...' }));
 * ```
 */
export function authMiddleware(credentials: { apiKey: string; apiUser: string }): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${credentials.apiKey}`);
      request.headers.set('X-API-User', credentials.apiUser);
      return request;
    },
  };
}
