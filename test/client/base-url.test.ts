/**
 * Where the client sends its calls when no `baseUrl` is given: the `PAYMENTS_BASE_URL` that
 * `npm start` prints, else the address `npm start` listens on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPaymentsClient } from '../../client/src/index.js';
import { type LocalServer, sendJson, startLocalServer } from './local-server.js';

const credentials = { apiKey: 'sk_test_abc123', apiUser: '3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f9a8b' };
const servers: LocalServer[] = [];

async function server(): Promise<LocalServer> {
  const started = await startLocalServer((_req, res) => sendJson(res, 200, { status: 'success', data: {} }));
  servers.push(started);
  return started;
}

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('the base URL', () => {
  it('is PAYMENTS_BASE_URL when none is given', async () => {
    const fromEnvironment = await server();
    vi.stubEnv('PAYMENTS_BASE_URL', fromEnvironment.baseUrl);
    const client = createPaymentsClient({ ...credentials, sandbox: true });
    await client.GET('/balance');
    expect(fromEnvironment.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/balance?test=true',
    ]);
  });

  it('is the one given, whatever PAYMENTS_BASE_URL says', async () => {
    const fromEnvironment = await server();
    const given = await server();
    vi.stubEnv('PAYMENTS_BASE_URL', fromEnvironment.baseUrl);
    await createPaymentsClient({ ...credentials, baseUrl: given.baseUrl }).GET('/balance');
    expect(given.requests).toHaveLength(1);
    expect(fromEnvironment.requests).toHaveLength(0);
  });

  it('is where npm start listens when neither is set', async () => {
    vi.stubEnv('PAYMENTS_BASE_URL', '');
    const seen: string[] = [];
    const client = createPaymentsClient({
      ...credentials,
      retry: { maxRetries: 0 },
      fetch: async (request) => {
        seen.push(request.url);
        return new Response('{"status":"success","data":{}}', {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    await client.GET('/balance');
    expect(seen).toEqual(['http://127.0.0.1:3000/v1/balance']);
  });

  it('from the environment is checked like a given one', () => {
    vi.stubEnv('PAYMENTS_BASE_URL', '127.0.0.1:3000/v1');
    expect(() => createPaymentsClient(credentials)).toThrow(/not an absolute URL/);
  });
});
