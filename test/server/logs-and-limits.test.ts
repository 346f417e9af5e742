import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer, useTestServer } from '../support/server.js';

describe('GET /logs', () => {
  const server = useTestServer();

  it('records every call, rejected ones included, without keys, secrets or bodies', async () => {
    const serviceId = await createService(server);
    const created = await server.raw('POST', '/payments', {
      body: {
        amount: 1,
        currency: 'XAF',
        customer_msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
        service_id: serviceId,
      },
    });
    const refused = await server.raw('POST', '/payouts', {
      body: { amount: 999, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
    });
    await server.flushLogs();
    const logs = await server.raw('GET', '/logs', { query: { limit: 100 } });
    expect(logs.status).toBe(200);
    const byRequest = new Map(logs.body.data.items.map((l: { request_id: string }) => [l.request_id, l]));
    expect(byRequest.get(created.headers.get('x-request-id'))).toMatchObject({
      method: 'POST',
      path: '/v1/payments',
      status: 202,
      mode: 'test',
      error_code: null,
    });
    expect(byRequest.get(refused.headers.get('x-request-id'))).toMatchObject({
      path: '/v1/payouts',
      status: 403,
      error_code: 'insufficient_balance',
    });
    expect(logs.text).not.toContain(server.test.key);
    expect(logs.text).not.toContain(sandbox.mtn.succeeds);
  });

  it('filters by method, path, status, status class, error code, request id and time, and pages', async () => {
    for (let i = 0; i < 5; i++) await server.raw('GET', '/balance');
    await server.raw('GET', '/payments/pay_000000000000000000000000');
    await server.flushLogs();
    const get = (query: Record<string, string | number>) => server.raw('GET', '/logs', { query });
    const notFound = await get({ status: 404 });
    expect(notFound.body.data.items.every((l: { status: number }) => l.status === 404)).toBe(true);
    expect(notFound.body.data.items.length).toBeGreaterThanOrEqual(1);
    const clientErrors = await get({ status_class: '4xx' });
    expect(
      clientErrors.body.data.items.every((l: { status: number }) => l.status >= 400 && l.status < 500),
    ).toBe(true);
    const balance = await get({ path: '/v1/balance', method: 'GET', limit: 2 });
    expect(balance.body.data.items).toHaveLength(2);
    expect(balance.body.data.has_more).toBe(true);
    const next = await get({
      path: '/v1/balance',
      method: 'GET',
      limit: 2,
      cursor: balance.body.data.next_cursor,
    });
    expect(next.body.data.items).toHaveLength(2);
    expect(next.body.data.items[0].id).not.toBe(balance.body.data.items[0].id);
    const byCode = await get({ error_code: 'resource_not_found' });
    expect(byCode.body.data.items.length).toBeGreaterThanOrEqual(1);
    const one = await get({ request_id: byCode.body.data.items[0].request_id });
    expect(one.body.data.items).toHaveLength(1);
    const future = await get({ created_gte: new Date(server.clock.now() + 60_000).toISOString() });
    expect(future.body.data.items).toEqual([]);
  });

  it('an account sees only its own calls, in the mode of its key', async () => {
    const other = await server.newAccount('Other');
    await server.raw('GET', '/balance', { as: other.test });
    await server.raw('GET', '/balance', { as: server.live });
    await server.flushLogs();
    const theirs = await server.raw('GET', '/logs', { as: other.test, query: { limit: 100 } });
    expect(
      theirs.body.data.items.every((l: { key_id: string }) => l.key_id === theirs.body.data.items[0].key_id),
    ).toBe(true);
    const mine = await server.raw('GET', '/logs', { query: { limit: 100 } });
    const theirIds = new Set(theirs.body.data.items.map((l: { id: string }) => l.id));
    expect(mine.body.data.items.some((l: { id: string }) => theirIds.has(l.id))).toBe(false);
    const live = await server.raw('GET', '/logs', { as: server.live, query: { limit: 100 } });
    expect(live.body.data.items.every((l: { mode: string }) => l.mode === 'live')).toBe(true);
  });

  it('a key rotation leaves an audit trail: the rotating call, with the key that made it', async () => {
    const fresh = await server.newAccount('Audited');
    const rotation = await server.raw('POST', '/api-keys/rotate', { as: fresh.test });
    const next = { apiUser: fresh.test.apiUser, key: rotation.body.data.secret_key as string };
    await server.flushLogs();
    const logs = await server.raw('GET', '/logs', { as: next, query: { path: '/v1/api-keys/rotate' } });
    expect(logs.body.data.items).toHaveLength(1);
    expect(logs.body.data.items[0]).toMatchObject({
      status: 201,
      key_id: rotation.body.data.previous_key.id,
    });
  });
});

describe('rate limits', () => {
  const server = useTestServer({ RATE_LIMIT_PER_WINDOW: '5', RATE_LIMIT_WINDOW_MS: '60000' });

  it('a burst past the limit gets 429 rate_limited with Retry-After and RateLimit headers; other keys are not affected', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, () => server.raw('GET', '/balance')));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    const limited = responses.find((r) => r.status === 429);
    expect(limited?.body.error.code).toBe('rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited?.headers.get('ratelimit-limit')).toBe('5');
    expect(limited?.headers.get('ratelimit-remaining')).toBe('0');
    const ok = responses.find((r) => r.status === 200);
    expect(ok?.headers.get('ratelimit-limit')).toBe('5');
    const other = await server.newAccount('Unaffected');
    expect((await server.raw('GET', '/balance', { as: other.test })).status).toBe(200);
  });
});

describe('operations endpoints', () => {
  let server: TestServer;
  const metricsToken = 'metrics-token-for-tests-0123456789';
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: metricsToken });
  });
  afterAll(() => server.close());

  it('GET /v1/healthz answers without a key', async () => {
    const response = await server.raw('GET', '/healthz', { as: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', data: { service: 'ok', database: 'ok' } });
    expect(Object.keys(response.body.data)).toEqual(['service', 'database', 'operators']);
  });

  it('GET /metrics exposes request counts by operation and the outbox depth', async () => {
    await server.raw('GET', '/balance');
    const response = await fetch(server.url.replace(/\/v1$/, '/metrics'), {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    const text = await response.text();
    expect(text).toMatch(/http_requests_total\{operation="getBalance",method="GET",status="200"\} 1/);
    expect(text).toMatch(/webhook_outbox_depth \d+/);
  });
});

describe('the contract and its docs', () => {
  const server = useTestServer();

  it('GET /openapi.yaml serves the very contract the server validates against', async () => {
    const { readFile } = await import('node:fs/promises');
    const response = await fetch(server.url.replace(/\/v1$/, '/openapi.yaml'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/yaml/);
    expect(await response.text()).toBe(await readFile('openapi.yaml', 'utf8'));
  });

  it('GET /docs/ serves the built Redoc page (npm test builds it first)', async () => {
    const response = await fetch(server.url.replace(/\/v1$/, '/docs/'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/html/);
    expect(await response.text()).toContain('Payments and Payouts API');
  });
});
