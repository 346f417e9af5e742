/**
 * Every call is in the call log. An attacker with a stolen key would like calls that do real
 * work but never show in `GET /logs`: paths in another letter case, with a trailing slash, a
 * doubled slash or an upper-case `/V1`. Each such request either never reaches an operation
 * (404) or is logged; whatever it was answered, the owner of the key sees it.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { raw } from '../support/api.js';
import { useTestServer } from '../support/server.js';

const server = useTestServer();

describe('the call log misses no call', () => {
  it('variants of real paths are refused and still logged under the caller', async () => {
    const { test } = await server.newAccount('Watched account');
    const origin = server.url.replace(/\/v1$/, '');
    const variants: Array<[string, string]> = [
      ['GET', `${origin}/V1/payments`],
      ['GET', `${server.url}/PAYMENTS`],
      ['GET', `${server.url}/payments/`],
      ['GET', `${server.url}//payments`],
      ['GET', `${server.url}/Balance`],
      ['POST', `${server.url}/API-KEYS/rotate`],
      ['POST', `${server.url}/api-keys/rotate/`],
      ['POST', `${server.url}/Services`],
    ];
    const requestIds: string[] = [];
    for (const [method, url] of variants) {
      const response = await raw(origin, method, url.slice(origin.length), {
        as: test,
        body: method === 'POST' ? { name: 'Ghost', type: 'website' } : undefined,
      });
      // None of them reached an operation...
      expect({ url, status: response.status }).toEqual({ url, status: 404 });
      requestIds.push(response.headers.get('x-request-id') as string);
    }
    // ...the key was not rotated, no service was created...
    const services = await server.raw('GET', '/services', { as: test });
    expect(services.status).toBe(200);
    expect(services.body.data.items).toEqual([]);
    // ...and every one of them is in the owner's call log.
    await server.flushLogs();
    const logs = await server.raw('GET', '/logs', { as: test, query: { limit: 100 } });
    const logged = new Set(logs.body.data.items.map((l: { request_id: string }) => l.request_id));
    for (const [i, id] of requestIds.entries()) {
      expect({ call: variants[i], logged: logged.has(id) }).toEqual({ call: variants[i], logged: true });
    }
  });

  it('a call that runs an operation is logged with the path it was sent to', async () => {
    const { test } = await server.newAccount('Logged account');
    const head = await server.raw('HEAD', '/balance', { as: test });
    expect(head.status).toBe(200);
    await server.flushLogs();
    const logs = await server.raw('GET', '/logs', { as: test, query: { limit: 100 } });
    expect(logs.body.data.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          request_id: head.headers.get('x-request-id'),
          method: 'HEAD',
          path: '/v1/balance',
          status: 200,
        }),
      ]),
    );
    // And it can be found by its method.
    const heads = await server.raw('GET', '/logs', { as: test, query: { method: 'HEAD' } });
    expect(heads.status).toBe(200);
    expect(heads.body.data.items.map((l: { request_id: string }) => l.request_id)).toEqual([
      head.headers.get('x-request-id'),
    ]);
  });

  it('logs a target with a fragment under its path, as the request log does, though it is refused', async () => {
    const { test } = await server.newAccount('Raw client');
    // fetch drops fragments; a raw client may send one. No request target has one (RFC 9112), so
    // no operation runs, and the call log writes the path as the request log does (rawPath).
    const { status, requestId } = await new Promise<{ status?: number; requestId: string }>(
      (resolve, reject) => {
        const req = httpRequest(`${server.url}/balance?x=1#part`, {
          headers: { authorization: `Bearer ${test.key}`, 'x-api-user': test.apiUser },
        });
        req.path = '/v1/balance#part';
        req.on('response', (res) => {
          res.resume();
          resolve({ status: res.statusCode, requestId: res.headers['x-request-id'] as string });
        });
        req.on('error', reject);
        req.end();
      },
    );
    expect(status).toBe(404);
    await server.flushLogs();
    const logs = await server.raw('GET', '/logs', { as: test, query: { limit: 100 } });
    expect(logs.body.data.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ request_id: requestId, path: '/v1/balance', status: 404 }),
      ]),
    );
  });
});
