/**
 * What the client adds to every request (credentials, sandbox mode), seen by a real HTTP server
 * on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentsClient, type PaymentsClientOptions } from '../../client/src/index.js';
import { operations } from '../support/spec.js';
import { type LocalServer, sendJson, someServiceId, startLocalServer } from './local-server.js';

let server: LocalServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(options: Partial<PaymentsClientOptions> = {}) {
  server = await startLocalServer((_req, res) => sendJson(res, 200, { status: 'success', data: {} }));
  const client = createPaymentsClient({
    apiKey: 'sk_test_abc123',
    apiUser: '3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f9a8b',
    baseUrl: server.baseUrl,
    ...options,
  });
  return { client, requests: server.requests };
}

const service = { name: 'Boutique Akwa', type: 'plugin' } as const;

describe('credentials', () => {
  it('sends the bearer key and the API user on every call', async () => {
    const { client, requests } = await clientFor();
    await client.GET('/balance');
    await client.POST('/services', { body: service });
    await client.DELETE('/services/{id}', { params: { path: { id: someServiceId } } });

    expect(requests).toHaveLength(3);
    for (const request of requests) {
      expect(request.headers.authorization).toBe('Bearer sk_test_abc123');
      expect(request.headers['x-api-user']).toBe('3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f9a8b');
    }
  });

  it('sends JSON bodies as the contract spells them', async () => {
    const { client, requests } = await clientFor();
    await client.POST('/services', { body: service });
    expect(requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(requests[0]?.body ?? '')).toEqual(service);
  });
});

describe('sandbox mode', () => {
  it('adds test=true to every call, after the base path and the other query parameters', async () => {
    const { client, requests } = await clientFor({ sandbox: true });
    await client.GET('/balance');
    await client.GET('/payments', { params: { query: { limit: 5, status: 'success' } } });
    await client.GET('/payments/{id}', { params: { path: { id: 'pay_26ckKthu9SR4AlZ0MBzSvYzU' } } });

    expect(requests.map((r) => r.url)).toEqual([
      '/v1/balance?test=true',
      '/v1/payments?limit=5&status=success&test=true',
      '/v1/payments/pay_26ckKthu9SR4AlZ0MBzSvYzU?test=true',
    ]);
  });

  it('keeps the body, its length and every header of a POST', async () => {
    const { client, requests } = await clientFor({ sandbox: true });
    await client.POST('/services', { body: service });

    const [request] = requests;
    expect(request?.url).toBe('/v1/services?test=true');
    expect(JSON.parse(request?.body ?? '')).toEqual(service);
    expect(request?.headers['content-length']).toBe(String(request?.body.length));
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.authorization).toBe('Bearer sk_test_abc123');
    expect(request?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('adds test=true to every operation: the contract declares the parameter on all of them', async () => {
    const withoutTest = operations().filter(
      (op) => !op.parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'test'),
    );
    expect(withoutTest.map((op) => op.operationId)).toEqual([]);
    const { client, requests } = await clientFor({ sandbox: true });
    await client.GET('/healthz');
    expect(requests[0]?.url).toBe('/v1/healthz?test=true');
  });

  it('adds nothing outside sandbox mode', async () => {
    const { client, requests } = await clientFor();
    await client.GET('/payments', { params: { query: { limit: 5 } } });
    expect(requests[0]?.url).toBe('/v1/payments?limit=5');
  });
});
