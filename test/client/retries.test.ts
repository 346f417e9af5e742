/**
 * Retries, timeouts and idempotency keys, against a real HTTP server on 127.0.0.1 that answers
 * what each test scripts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPaymentsClient,
  type PaymentsClientOptions,
  PaymentsConnectionError,
  requestIdOf,
} from '../../client/src/index.js';
import { backoffDelayMs, retryAfterMs } from '../../client/src/retry-policy.js';
import {
  type Handler,
  type LocalServer,
  sendError,
  sendJson,
  somePayment,
  someServiceId,
  startLocalServer,
} from './local-server.js';

const payment = somePayment;

const accepted = {
  status: 'success',
  data: { transaction_id: 'pay_26ckKthu9SR4AlZ0MBzSvYzU', status: 'initiated' },
};

let server: LocalServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(handler: Handler, options: Partial<PaymentsClientOptions> = {}) {
  server = await startLocalServer(handler);
  const client = createPaymentsClient({
    apiKey: 'sk_test_retries',
    apiUser: 'user-1',
    baseUrl: server.baseUrl,
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
    timeoutMs: 2_000,
    ...options,
  });
  return { client, requests: server.requests };
}

describe('retries', () => {
  it('waits Retry-After seconds after a 429, then retries the POST with the same Idempotency-Key and body', async () => {
    const { client, requests } = await clientFor((_req, res, index) =>
      index === 0
        ? sendError(res, 429, 'rate_limited', { 'Retry-After': '1' })
        : sendJson(res, 202, accepted),
    );
    const started = performance.now();
    const { data, error, response } = await client.POST('/payments', { body: payment });
    const elapsed = performance.now() - started;

    expect(error).toBeUndefined();
    expect(response.status).toBe(202);
    expect(data?.data.transaction_id).toBe(accepted.data.transaction_id);
    expect(requests).toHaveLength(2);
    // The backoff alone is at most 5 ms here: only Retry-After explains a one-second wait.
    expect(elapsed).toBeGreaterThanOrEqual(950);
    const [first, second] = requests;
    expect(first?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(second?.body).toBe(first?.body);
    expect(JSON.parse(second?.body ?? '')).toEqual(payment);
  });

  it('retries 503 with backoff until it succeeds, resending the same request each time', async () => {
    const { client, requests } = await clientFor((_req, res, index) =>
      index < 2 ? sendError(res, 503, 'service_unavailable') : sendJson(res, 202, accepted),
    );
    const { data, response } = await client.POST('/payments', { body: payment });

    expect(response.status).toBe(202);
    expect(data?.data.status).toBe('initiated');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    expect(requests.every((r) => r.headers['content-length'] === String(r.body.length))).toBe(true);
  });

  it.each([500, 502, 504])('retries %i like 503', async (status) => {
    const { client, requests } = await clientFor((_req, res, index) =>
      index === 0
        ? sendError(res, status, 'internal_error')
        : sendJson(res, 200, { status: 'success', data: {} }),
    );
    const { response } = await client.GET('/balance');
    expect(response.status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it('returns the last 5xx as the typed error once maxRetries is spent, without throwing', async () => {
    const { client, requests } = await clientFor((_req, res) => sendError(res, 503, 'service_unavailable'));
    const { data, error, response } = await client.GET('/balance');

    expect(data).toBeUndefined();
    expect(response.status).toBe(503);
    expect(error?.error.code).toBe('service_unavailable');
    expect(error?.error.request_id).toBe(requestIdOf(response));
    expect(requests).toHaveLength(3);
  });

  it.each([
    [400, 'missing_field'],
    [401, 'invalid_api_key'],
    [403, 'insufficient_balance'],
    [404, 'resource_not_found'],
    [409, 'idempotency_key_reused'],
    [422, 'service_not_found'],
  ])('never retries a %i (%s): it is an answer, returned at once', async (status, code) => {
    const { client, requests } = await clientFor((_req, res) => sendError(res, status, code));
    const { error, response } = await client.POST('/payments', { body: payment });

    expect(response.status).toBe(status);
    expect(error?.error.code).toBe(code);
    expect(requests).toHaveLength(1);
  });

  it('does not retry when maxRetries is 0', async () => {
    const { client, requests } = await clientFor((_req, res) => sendError(res, 503, 'service_unavailable'), {
      retry: { maxRetries: 0 },
    });
    const { response } = await client.GET('/balance');
    expect(response.status).toBe(503);
    expect(requests).toHaveLength(1);
  });

  it('returns a 429 whose Retry-After is longer than a minute instead of waiting for it', async () => {
    const { client, requests } = await clientFor((_req, res) =>
      sendError(res, 429, 'rate_limited', { 'Retry-After': '3600' }),
    );
    const { error } = await client.GET('/balance');
    expect(error?.error.code).toBe('rate_limited');
    expect(requests).toHaveLength(1);
  });
});

describe('network errors and timeouts', () => {
  it('retries a POST whose connection was dropped, with the same Idempotency-Key', async () => {
    const { client, requests } = await clientFor((_req, res, index) => {
      if (index === 0) res.socket?.destroy();
      else sendJson(res, 202, accepted);
    });
    const { data, response } = await client.POST('/payments', { body: payment });

    expect(response.status).toBe(202);
    expect(data?.data.transaction_id).toBe(accepted.data.transaction_id);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers['idempotency-key']).toBe(requests[0]?.headers['idempotency-key']);
    expect(requests[1]?.body).toBe(requests[0]?.body);
  });

  it('throws a PaymentsConnectionError with the cause once every attempt failed', async () => {
    const { client, requests } = await clientFor((_req, res) => {
      res.socket?.destroy();
    });
    const failure = await client.GET('/balance').catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(PaymentsConnectionError);
    expect(failure).toMatchObject({ attempts: 3, timedOut: false });
    expect((failure as Error).message).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/v1\/balance failed after 3 attempts/,
    );
    expect((failure as Error).cause).toBeInstanceOf(Error);
    expect(requests).toHaveLength(3);
  });

  it('aborts an attempt after timeoutMs and retries it with the same Idempotency-Key', async () => {
    const { client, requests } = await clientFor(
      async (_req, res, index) => {
        if (index === 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
        if (!res.destroyed) sendJson(res, 202, accepted);
      },
      { timeoutMs: 200 },
    );
    const started = performance.now();
    const { data } = await client.POST('/payments', { body: payment });

    expect(data?.data.transaction_id).toBe(accepted.data.transaction_id);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers['idempotency-key']).toBe(requests[0]?.headers['idempotency-key']);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('reports a timeout as such once every attempt timed out', async () => {
    const { client, requests } = await clientFor(
      async (_req, res) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        if (!res.destroyed) sendJson(res, 200, {});
      },
      { timeoutMs: 100, retry: { maxRetries: 1 } },
    );
    const failure = await client.GET('/balance').catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(PaymentsConnectionError);
    expect(failure).toMatchObject({ attempts: 2, timedOut: true });
    expect((failure as Error).message).toContain('timed out after 100 ms');
    expect(requests).toHaveLength(2);
  });

  it('never retries a call the caller aborted with their own signal', async () => {
    // The caller gives up once the server has the request (a timer could fire before it
    // arrives on a busy machine, and then nothing would have been sent at all).
    const caller = new AbortController();
    const { client, requests } = await clientFor(async (_req, res) => {
      caller.abort(new DOMException('the caller gave up', 'TimeoutError'));
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (!res.destroyed) sendJson(res, 200, {});
    });
    const failure = await client.GET('/balance', { signal: caller.signal }).catch((error: unknown) => error);

    expect(failure).not.toBeInstanceOf(PaymentsConnectionError);
    expect((failure as Error).name).toBe('TimeoutError');
    expect(requests).toHaveLength(1);
  });
});

describe('idempotency keys', () => {
  it('gives every POST call its own key, and no key to GET, PUT or DELETE', async () => {
    const { client, requests } = await clientFor((_req, res) =>
      sendJson(res, 200, { status: 'success', data: {} }),
    );
    await client.POST('/payments', { body: payment });
    await client.POST('/payments', { body: payment });
    await client.GET('/balance');
    await client.PUT('/services/{id}', {
      params: { path: { id: someServiceId } },
      body: { status: 'inactive' },
    });
    await client.DELETE('/services/{id}', { params: { path: { id: someServiceId } } });

    const keys = requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys.slice(2)).toEqual([undefined, undefined, undefined]);
  });

  it("keeps the caller's own key, on every attempt", async () => {
    const { client, requests } = await clientFor((_req, res, index) =>
      index === 0 ? sendError(res, 503, 'service_unavailable') : sendJson(res, 202, accepted),
    );
    await client.POST('/payments', {
      body: payment,
      params: { header: { 'Idempotency-Key': 'order-1042-attempt' } },
    });
    expect(requests.map((r) => r.headers['idempotency-key'])).toEqual([
      'order-1042-attempt',
      'order-1042-attempt',
    ]);
  });
});

describe('the retry policy', () => {
  const options = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('draws each backoff at random between 0 and an exponentially growing ceiling (full jitter)', () => {
    const almostOne = () => 0.999_999;
    expect([0, 1, 2, 3].map((retry) => backoffDelayMs(retry, options, almostOne))).toEqual([
      99, 199, 399, 799,
    ]);
    expect(backoffDelayMs(3, options, () => 0)).toBe(0);
    expect(backoffDelayMs(3, options, () => 0.5)).toBe(400);
  });

  it('never waits longer than maxDelayMs', () => {
    expect(backoffDelayMs(10, options, () => 0.999_999)).toBe(999);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-20T09:30:00Z');
    expect(retryAfterMs('2', now)).toBe(2_000);
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs('Fri, 20 Nov 2026 09:30:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 09:29:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
