/**
 * The client against the real server: no mock anywhere. Each server is the real application on
 * a free 127.0.0.1 port with its own SQLite file and a clock the test moves; failures on the
 * wire come from small real proxies placed between the client and the server.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type BalanceTransaction,
  createPaymentsClient,
  type EventName,
  type Payment,
  type PaymentStatus,
  type PaymentsClient,
  type PaymentsClientOptions,
  PaymentsConnectionError,
  type PayoutStatus,
  paginate,
  requestIdOf,
  type Service,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '../../client/src/index.js';
import { sandbox } from '../support/fixtures.js';
import { type Credentials, startTestServer, type TestServer, useTestServer } from '../support/server.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { type Attempt, type ProxyPlan, recordingFetch, startProxy } from './real-server-support.js';

/** A sandbox client of `baseUrl` with `credentials`; retries are fast unless a test says otherwise. */
function clientOf(
  baseUrl: string,
  credentials: Credentials,
  options: Partial<PaymentsClientOptions> = {},
): PaymentsClient {
  return createPaymentsClient({
    apiKey: credentials.key,
    apiUser: credentials.apiUser,
    baseUrl,
    sandbox: true,
    retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50 },
    timeoutMs: 5_000,
    ...options,
  });
}

/** The data of a successful call, or a failed test naming the error code and request id. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(
      `expected a success, got ${result.response.status} ${JSON.stringify(result.error)} (request ${requestIdOf(result.response)})`,
    );
  }
  return result.data;
}

async function availableXaf(client: PaymentsClient): Promise<number> {
  const balance = ok(await client.GET('/balance')).data;
  return balance.balances.find((entry) => entry.currency === 'XAF')?.available ?? 0;
}

async function createServiceThrough(client: PaymentsClient, name = 'Boutique Akwa'): Promise<string> {
  return ok(await client.POST('/services', { body: { name } })).data.service_id;
}

const paymentBody = (serviceId: string, amount = 2500, msisdn = sandbox.mtn.succeeds) =>
  ({
    amount,
    currency: 'XAF',
    customer_msisdn: msisdn,
    payment_method: 'mtn_momo',
    service_id: serviceId,
  }) as const;

/** The contract's error envelope, as a proxy in front of the server answers it. */
const unavailable = (requestId: string) => ({
  status: 'error',
  error: {
    code: 'service_unavailable',
    message: 'Storage is temporarily unavailable; nothing moved, retry.',
    request_id: requestId,
  },
});

let server: TestServer;

beforeAll(async () => {
  // The webhook receiver is on 127.0.0.1: sandbox endpoints may be local only with the opt-in.
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
});
afterAll(() => server.close());

/**
 * A sandbox integrator's account, fresh for each test: each test builds, through the client,
 * the history it asserts on (a service, a settled top-up, a paid payment, a payout, a refund),
 * so none depends on an earlier test having run.
 */
async function sandboxAccount(name = 'Sandbox flow') {
  const fresh = await server.newAccount(name);
  const client = clientOf(server.url, fresh.test);
  const service = () => createServiceThrough(client);
  const topUp = async (amount = 100_000) => {
    const topup = ok(
      await client.POST('/topups', {
        body: { amount, currency: 'XAF', payer_msisdn: sandbox.mtn.succeeds, payment_method: 'mtn_momo' },
      }),
    ).data;
    await server.settle();
    return topup.transaction_id;
  };
  const paidPayment = async (serviceId: string, amount = 2500) => {
    const payment = ok(await client.POST('/payments', { body: paymentBody(serviceId, amount) })).data;
    await server.settle();
    return payment.transaction_id;
  };
  const payout = async (amount = 15_000) => {
    const sent = ok(
      await client.POST('/payouts', {
        body: {
          amount,
          currency: 'XAF',
          recipient_msisdn: sandbox.orange.succeeds,
          payout_type: 'withdrawal',
        },
      }),
    ).data;
    await server.settle();
    return sent.transaction_id;
  };
  const refund = async (paymentId: string) => {
    const sent = ok(await client.POST('/refunds', { body: { payment_id: paymentId } })).data;
    await server.settle();
    return sent.transaction_id;
  };
  /** Top-up 100 000, payment 2 500, payout 15 000, refund 2 500: 85 000 left. */
  const history = async () => {
    const serviceId = await service();
    const topupId = await topUp();
    const paymentId = await paidPayment(serviceId);
    const payoutId = await payout();
    const refundId = await refund(paymentId);
    return { serviceId, topupId, paymentId, payoutId, refundId };
  };
  return { credentials: fresh.test, client, service, topUp, paidPayment, payout, refund, history };
}

describe('a full sandbox flow through the client', () => {
  it('registers a service, active and in test mode, every answer carrying a request id', async () => {
    const { client } = await sandboxAccount();
    const { data, error, response } = await client.POST('/services', {
      body: { name: 'Boutique Akwa', type: 'website', description: 'The shop of the sandbox flow' },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    const service = ok({ data, response }).data;
    expectTypeOf(service).toEqualTypeOf<Service>();
    expect(service).toMatchObject({ name: 'Boutique Akwa', type: 'website', status: 'active', mode: 'test' });
    expect(requestIdOf(response)).toMatch(/^req_[0-9A-Za-z]{24}$/);
  });

  it('tops up the Main Balance: initiated at once, credited once the operator settles it', async () => {
    const { client } = await sandboxAccount();
    const { data, response } = await client.POST('/topups', {
      body: {
        amount: 100_000,
        currency: 'XAF',
        payer_msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
      },
    });
    expect(response.status).toBe(202);
    const topup = ok({ data, response }).data;
    expect(topup).toMatchObject({
      status: 'initiated',
      amount: 100_000,
      currency: 'XAF',
      completed_at: null,
    });
    expect(await availableXaf(client)).toBe(0);
    const topupId = topup.transaction_id;

    await server.settle();
    const settled = ok(await client.GET('/topups/{id}', { params: { path: { id: topupId } } })).data;
    expectTypeOf(settled.status).toEqualTypeOf<PaymentStatus>();
    expect(settled.status).toBe('success');
    expect(settled.completed_at).not.toBeNull();
    expect(await availableXaf(client)).toBe(100_000);
  });

  it('collects through /payments, /payments/direct and /payments/initiate, each reaching its final status', async () => {
    const { client, service } = await sandboxAccount();
    const serviceId = await service();
    const direct = await client.POST('/payments', {
      body: { ...paymentBody(serviceId, 2500, sandbox.mtn.succeeds), reference: 'order-1042' },
    });
    const explicitDirect = await client.POST('/payments/direct', {
      body: paymentBody(serviceId, 1500, sandbox.mtn.fails),
    });
    const hosted = await client.POST('/payments/initiate', {
      body: { amount: 3000, currency: 'XAF', service_id: serviceId, expires_in_seconds: 60 },
    });
    for (const { response } of [direct, explicitDirect, hosted]) expect(response.status).toBe(202);
    const initiated = [ok(direct).data, ok(explicitDirect).data, ok(hosted).data];
    expect(initiated.map((p) => [p.flow, p.status])).toEqual([
      ['direct', 'initiated'],
      ['direct', 'initiated'],
      ['hosted', 'initiated'],
    ]);
    expect(initiated[0]?.reference).toBe('order-1042');
    expect(initiated[2]).toMatchObject({ customer_msisdn: null, payment_method: null });
    expect(initiated[2]?.checkout_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/cs_/);
    const payments = {
      direct: ok(direct).data.transaction_id,
      explicitDirect: ok(explicitDirect).data.transaction_id,
      hosted: ok(hosted).data.transaction_id,
    };

    const read = async (id: string): Promise<Payment> =>
      ok(await client.GET('/payments/{id}', { params: { path: { id } } })).data;

    // The operator settles both direct charges; nobody opens the checkout link.
    await server.settle();
    expect(await read(payments.direct)).toMatchObject({ status: 'success', failure_code: null });
    expect(await read(payments.explicitDirect)).toMatchObject({
      status: 'failed',
      failure_code: 'payer_declined',
    });
    expect((await read(payments.hosted)).status).toBe('initiated');

    await server.settle(60_000);
    const hostedFinal = await read(payments.hosted);
    expect(hostedFinal.status).toBe('expired');
    expect(hostedFinal.completed_at).not.toBeNull();
    expect(await availableXaf(client)).toBe(2500);
  });

  it('pays out to a number: debited when accepted, pending, then success once the operator settles it', async () => {
    const { client, topUp } = await sandboxAccount();
    await topUp(100_000);
    const { data, response } = await client.POST('/payouts', {
      body: {
        amount: 15_000,
        currency: 'XAF',
        recipient_msisdn: sandbox.orange.succeeds,
        payout_type: 'withdrawal',
        reference: 'payroll-2026-11',
      },
    });
    expect(response.status).toBe(202);
    const payout = ok({ data, response }).data;
    expect(payout).toMatchObject({ status: 'pending', payout_type: 'withdrawal', recipient_wallet_id: null });
    expect(await availableXaf(client)).toBe(85_000);
    const payoutId = payout.transaction_id;

    await server.settle();
    const settled = ok(await client.GET('/payouts/{id}', { params: { path: { id: payoutId } } })).data;
    expectTypeOf(settled.status).toEqualTypeOf<PayoutStatus>();
    expect(settled.status).toBe('success');
  });

  it('refuses a payout the balance cannot fund: 403 insufficient_balance, the request id reachable, nothing moved', async () => {
    const { client, topUp } = await sandboxAccount();
    await topUp(87_500);
    const { data, error, response } = await client.POST('/payouts', {
      body: { amount: 10_000_000, recipient_msisdn: sandbox.orange.succeeds, payout_type: 'withdrawal' },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(403);
    expect(error?.status).toBe('error');
    expect(error?.error.code).toBe('insufficient_balance');
    expect(error?.error.request_id).toMatch(/^req_/);
    expect(requestIdOf(response)).toBe(error?.error.request_id);
    expect(await availableXaf(client)).toBe(87_500);
  });

  it('refunds the successful payment in full, as a refund payout to the customer', async () => {
    const { client, service, paidPayment } = await sandboxAccount();
    const paymentId = await paidPayment(await service());
    const { data, response } = await client.POST('/refunds', {
      body: { payment_id: paymentId, reference: 'return-1042' },
    });
    expect(response.status).toBe(202);
    const refund = ok({ data, response }).data;
    expect(refund).toMatchObject({
      payout_type: 'refund',
      amount: 2500,
      payment_id: paymentId,
      recipient_msisdn: sandbox.mtn.succeeds,
      status: 'pending',
    });
    const refundId = refund.transaction_id;

    await server.settle();
    const settled = ok(await client.GET('/payouts/{id}', { params: { path: { id: refundId } } })).data;
    expect(settled.status).toBe('success');
    const payment = ok(await client.GET('/payments/{id}', { params: { path: { id: paymentId } } })).data;
    expect(payment.refunded_amount).toBe(2500);

    const refunds = ok(await client.GET('/payouts', { params: { query: { payment_id: paymentId } } }));
    expect(refunds.data.items.map((p) => p.transaction_id)).toEqual([refundId]);
  });

  it('reads a balance that is the sum of its ledger, every movement listed newest first', async () => {
    const { client, history } = await sandboxAccount();
    const { topupId, paymentId, payoutId, refundId } = await history();
    const balance = ok(await client.GET('/balance')).data;
    expect(balance.mode).toBe('test');
    expect(balance.balances).toContainEqual({ currency: 'XAF', available: 85_000 });

    const ledger: BalanceTransaction[] = [];
    for await (const entry of paginate(client, '/balance/transactions', {
      params: { query: { limit: 2 } },
    })) {
      ledger.push(entry);
    }
    expect(ledger.map((entry) => [entry.type, entry.amount, entry.source_id])).toEqual([
      ['payout', -2500, refundId],
      ['payout', -15_000, payoutId],
      ['payment', 2500, paymentId],
      ['topup', 100_000, topupId],
    ]);
    expect(ledger[0]?.balance_after).toBe(85_000);
    expect(ledger.reduce((sum, entry) => sum + entry.amount, 0)).toBe(85_000);
  });

  it('exports the ledger as CSV, oldest first, read as text', async () => {
    const { client, history } = await sandboxAccount();
    await history();
    const ledger: BalanceTransaction[] = [];
    for await (const entry of paginate(client, '/balance/transactions', {})) ledger.push(entry);
    const { data, error, response } = await client.GET('/reports/balance-transactions', {
      params: { query: { created_gte: '2026-11-01T00:00:00Z', created_lt: '2026-12-01T00:00:00Z' } },
      parseAs: 'text',
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expectTypeOf(data).toEqualTypeOf<string | undefined>();
    const [header, ...rows] = (data ?? '').trimEnd().split('\n');
    expect(header).toBe('id,created_at,type,amount,currency,balance_after,source_id,description');
    const columns = rows.map((row) => row.split(','));
    expect(columns.map(([id]) => id)).toEqual(ledger.map((entry) => entry.id).reverse());
    expect(columns.map((cells) => [cells[2], cells[3], cells[5]])).toEqual([
      ['topup', '100000', '100000'],
      ['payment', '2500', '102500'],
      ['payout', '-15000', '87500'],
      ['payout', '-2500', '85000'],
    ]);
  });

  it('finds its own calls in the logs, the refused payout with its request id and error code', async () => {
    const { client, history } = await sandboxAccount();
    const { serviceId } = await history();
    ok(await client.POST('/payments/direct', { body: paymentBody(serviceId, 1500) }));
    ok(
      await client.POST('/payments/initiate', {
        body: { amount: 3000, currency: 'XAF', service_id: serviceId, expires_in_seconds: 60 },
      }),
    );
    const { response } = await client.POST('/payouts', {
      body: { amount: 10_000_000, recipient_msisdn: sandbox.orange.succeeds, payout_type: 'withdrawal' },
    });
    expect(response.status).toBe(403);
    const refusedRequestId = requestIdOf(response) ?? '';
    await server.flushLogs();
    const refused = ok(await client.GET('/logs', { params: { query: { request_id: refusedRequestId } } }));
    expect(refused.data.items).toHaveLength(1);
    expect(refused.data.items[0]).toMatchObject({
      request_id: refusedRequestId,
      method: 'POST',
      path: '/v1/payouts',
      status: 403,
      error_code: 'insufficient_balance',
      mode: 'test',
    });

    const paths = new Set<string>();
    for await (const log of paginate(client, '/logs', { params: { query: { limit: 100 } } }))
      paths.add(log.path);
    for (const path of [
      '/v1/services',
      '/v1/topups',
      '/v1/payments/direct',
      '/v1/payments/initiate',
      '/v1/refunds',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it('rotates its key: the old key is refused at once and the new one carries on with the same account', async () => {
    const { client, credentials, service, topUp } = await sandboxAccount();
    const serviceId = await service();
    await topUp(85_000);
    const { data, response } = await client.POST('/api-keys/rotate');
    expect(response.status).toBe(201);
    const rotation = ok({ data, response }).data;
    expect(rotation.secret_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(rotation.previous_key.status).toBe('revoked');
    expect(rotation.api_key.status).toBe('active');

    const refused = await client.GET('/balance');
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error.code).toBe('invalid_api_key');

    const rotated = clientOf(server.url, { apiUser: credentials.apiUser, key: rotation.secret_key });
    expect(await availableXaf(rotated)).toBe(85_000);
    const next = await rotated.POST('/payments', { body: paymentBody(serviceId, 700) });
    expect(next.response.status).toBe(202);
    await server.settle();
    const paid = ok(
      await rotated.GET('/payments/{id}', { params: { path: { id: ok(next).data.transaction_id } } }),
    ).data;
    expect(paid.status).toBe('success');
    expect(await availableXaf(rotated)).toBe(85_700);
  });
});

describe('retries against the real server', () => {
  describe('when the key is over its rate limit', () => {
    const limited = useTestServer({ RATE_LIMIT_PER_WINDOW: '2', RATE_LIMIT_WINDOW_MS: '1000' });

    it('a burst ends with every call succeeding, each 429 retried after its Retry-After with the same Idempotency-Key', async () => {
      const { fetch, attempts } = recordingFetch();
      // The backoff alone is at most 5 ms: only Retry-After explains waiting for the next window.
      const client = clientOf(limited.url, limited.test, {
        fetch,
        retry: { maxRetries: 5, baseDelayMs: 1, maxDelayMs: 5 },
      });
      const names = ['Burst 1', 'Burst 2', 'Burst 3', 'Burst 4', 'Burst 5'];

      const started = performance.now();
      const results = await Promise.all(names.map((name) => client.POST('/services', { body: { name } })));
      const elapsed = performance.now() - started;

      expect(results.map((r) => r.response.status)).toEqual([201, 201, 201, 201, 201]);
      const limitedAttempts = attempts.filter((a) => a.status === 429);
      // Two calls per window: five calls need three windows.
      expect(limitedAttempts.length).toBeGreaterThanOrEqual(3);
      for (const attempt of limitedAttempts) expect(attempt.retryAfter).toBe('1');
      expect(elapsed).toBeGreaterThanOrEqual(1_900);

      const byKey = new Map<string | null, Attempt[]>();
      for (const attempt of attempts)
        byKey.set(attempt.idempotencyKey, [...(byKey.get(attempt.idempotencyKey) ?? []), attempt]);
      expect(byKey.size).toBe(5);
      for (const [key, tries] of byKey) {
        expect(key).toMatch(/^[0-9a-f-]{36}$/);
        expect(tries.map((t) => t.status).at(-1)).toBe(201);
        expect(tries.slice(0, -1).every((t) => t.status === 429)).toBe(true);
      }

      const listed: string[] = [];
      for await (const service of paginate(client, '/services')) listed.push(service.name);
      expect(listed.sort()).toEqual(names);
    });

    it('with maxRetries 0 the 429 envelope is returned, with Retry-After and the request id', async () => {
      const fresh = await limited.newAccount('No retries');
      const client = clientOf(limited.url, fresh.test, { retry: { maxRetries: 0 } });

      // Three at once against a limit of 2 per second; on a busy machine they may straddle two
      // windows (all 200): then the next second's three are tried, a few times at most.
      const burst = () =>
        Promise.all([client.GET('/balance'), client.GET('/balance'), client.GET('/balance')]);
      let results = await burst();
      for (let attempt = 1; attempt < 5 && !results.some((r) => r.response.status === 429); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        results = await burst();
      }

      expect(results.map((r) => r.response.status).sort()).toEqual([200, 200, 429]);
      const refused = results.find((r) => r.response.status === 429);
      expect(refused?.data).toBeUndefined();
      expect(refused?.error).toMatchObject({ status: 'error', error: { code: 'rate_limited' } });
      expect(refused?.response.headers.get('Retry-After')).toBe('1');
      expect(refused?.response.headers.get('RateLimit-Remaining')).toBe('0');
      expect(refused?.error?.error.request_id).toBe(requestIdOf(refused?.response as Response));
    });
  });

  describe('when a proxy in front of the server answers 503 first', () => {
    const unavailableFirst =
      (count: number): ProxyPlan =>
      ({ index }) =>
        index < count
          ? {
              kind: 'answer',
              status: 503,
              body: unavailable(`req_proxy${String(index).padStart(19, '0')}`),
              headers: { 'X-Request-Id': `req_proxy${String(index).padStart(19, '0')}` },
            }
          : { kind: 'forward' };

    it('retries through the 503s and succeeds, sending the same Idempotency-Key and body every time', async () => {
      const account = await server.newAccount('Behind a flaky proxy');
      const direct = clientOf(server.url, account.test);
      const serviceId = await createServiceThrough(direct);
      const proxy = await startProxy(server.url, unavailableFirst(2));
      try {
        const client = clientOf(proxy.baseUrl, account.test);
        const { data, error, response } = await client.POST('/payments', { body: paymentBody(serviceId) });

        expect(error).toBeUndefined();
        expect(response.status).toBe(202);
        expect(proxy.requests.map((r) => [r.action, r.status])).toEqual([
          ['answer', 503],
          ['answer', 503],
          ['forward', 202],
        ]);
        const keys = proxy.requests.map((r) => r.headers['idempotency-key']);
        expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
        expect(new Set(keys).size).toBe(1);
        expect(new Set(proxy.requests.map((r) => r.body)).size).toBe(1);

        const listed = ok(await direct.GET('/payments')).data.items;
        expect(listed.map((p) => p.transaction_id)).toEqual([data?.data.transaction_id]);
      } finally {
        await proxy.close();
      }
    });

    it('when the 503s outlast the retries, returns the last 503 envelope instead of throwing', async () => {
      const proxy = await startProxy(server.url, unavailableFirst(10));
      try {
        const client = clientOf(proxy.baseUrl, server.test, { retry: { maxRetries: 1, baseDelayMs: 1 } });
        const { data, error, response } = await client.GET('/balance');

        expect(data).toBeUndefined();
        expect(response.status).toBe(503);
        expect(error?.error.code).toBe('service_unavailable');
        expect(requestIdOf(response)).toBe(error?.error.request_id);
        expect(proxy.requests).toHaveLength(2);
      } finally {
        await proxy.close();
      }
    });
  });
});

describe('an idempotent retry after a dropped connection', () => {
  it('replays the payment the server made (Idempotent-Replayed: true), and the account has exactly one payment', async () => {
    const account = await server.newAccount('Dropped connection');
    const direct = clientOf(server.url, account.test);
    const serviceId = await createServiceThrough(direct);
    const proxy = await startProxy(server.url, ({ method, url, index }) =>
      index === 0 && method === 'POST' && url.startsWith('/v1/payments')
        ? { kind: 'forward-then-drop' }
        : { kind: 'forward' },
    );
    try {
      const client = clientOf(proxy.baseUrl, account.test);
      const { data, error, response } = await client.POST('/payments', {
        body: { ...paymentBody(serviceId, 4200), reference: 'order-dropped' },
      });

      expect(error).toBeUndefined();
      expect(response.status).toBe(202);
      expect(response.headers.get('Idempotent-Replayed')).toBe('true');

      const [dropped, retried] = proxy.requests;
      expect(proxy.requests).toHaveLength(2);
      // The server made the payment on the first attempt; the client never saw that answer.
      expect(dropped).toMatchObject({ action: 'forward-then-drop', status: 202 });
      expect(dropped?.upstream?.headers['idempotent-replayed']).toBeUndefined();
      expect(retried).toMatchObject({ action: 'forward', status: 202 });
      expect(retried?.headers['idempotency-key']).toBe(dropped?.headers['idempotency-key']);
      expect(retried?.body).toBe(dropped?.body);
      const firstAnswer = JSON.parse(dropped?.upstream?.body ?? '{}') as { data: Payment };
      expect(data?.data.transaction_id).toBe(firstAnswer.data.transaction_id);

      const listed: Payment[] = [];
      for await (const payment of paginate(direct, '/payments')) listed.push(payment);
      expect(listed.map((p) => [p.transaction_id, p.amount, p.reference])).toEqual([
        [firstAnswer.data.transaction_id, 4200, 'order-dropped'],
      ]);
    } finally {
      await proxy.close();
    }
  });
  it('without retries, the dropped answer throws a PaymentsConnectionError although the server made the payment', async () => {
    const account = await server.newAccount('Dropped connection, no retries');
    const direct = clientOf(server.url, account.test);
    const serviceId = await createServiceThrough(direct);
    const proxy = await startProxy(server.url, () => ({ kind: 'forward-then-drop' }));
    try {
      const client = clientOf(proxy.baseUrl, account.test, { retry: { maxRetries: 0 } });
      const failure = await client
        .POST('/payments', { body: paymentBody(serviceId) })
        .catch((error) => error);

      expect(failure).toBeInstanceOf(PaymentsConnectionError);
      expect(failure).toMatchObject({ attempts: 1, timedOut: false });
      expect(proxy.requests.map((r) => [r.action, r.status])).toEqual([['forward-then-drop', 202]]);
      const listed = ok(await direct.GET('/payments')).data.items;
      expect(listed).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

describe('webhook verification of real deliveries', () => {
  it('verifies each delivery into its typed event, and rejects a tampered body and a wrong secret', async () => {
    const account = await server.newAccount('Webhooks');
    const client = clientOf(server.url, account.test);
    const receiver = await startReceiver();
    try {
      const endpoint = ok(await client.POST('/webhook-endpoints', { body: { url: receiver.url } })).data;
      expect(endpoint.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
      const serviceId = await createServiceThrough(client);
      const paid = ok(
        await client.POST('/payments', { body: paymentBody(serviceId, 2500, sandbox.mtn.succeeds) }),
      ).data;
      const declined = ok(
        await client.POST('/payments', { body: paymentBody(serviceId, 900, sandbox.mtn.fails) }),
      ).data;

      await server.settle();
      expect(await server.deliverWebhooks()).toBeGreaterThanOrEqual(2);

      // Signatures carry the server's clock, which the test moves: verify against that clock.
      const now = new Date(server.clock.now());
      const events = receiver.received.map(({ body, headers }) =>
        verifyWebhook(body, String(headers['x-webhook-signature']), endpoint.secret, { now }),
      );
      expectTypeOf(events).toEqualTypeOf<WebhookEvent[]>();
      expectTypeOf(events[0]?.event).toEqualTypeOf<EventName | undefined>();
      const byTransaction = new Map(events.map((event) => [event.data.transaction_id, event]));
      expect(byTransaction.get(paid.transaction_id)).toMatchObject({
        event: 'payment.completed',
        mode: 'test',
        data: { amount: 2500, currency: 'XAF', status: 'success', failure_code: null },
      });
      expect(byTransaction.get(declined.transaction_id)).toMatchObject({
        event: 'payment.failed',
        data: { amount: 900, status: 'failed', failure_code: 'payer_declined' },
      });

      const completed = byTransaction.get(paid.transaction_id);
      const recorded = ok(
        await client.GET('/events', { params: { query: { transaction_id: paid.transaction_id } } }),
      ).data.items;
      expect(recorded.map((event) => event.id)).toEqual([completed?.id]);

      const delivery = receiver.received.find((r) => r.body.includes(paid.transaction_id));
      const header = String(delivery?.headers['x-webhook-signature']);
      const body = delivery?.body ?? '';
      const rejection = (run: () => unknown) => {
        try {
          run();
        } catch (error) {
          return error instanceof WebhookVerificationError ? error.reason : error;
        }
        return 'accepted';
      };
      expect(rejection(() => verifyWebhook(body, header, endpoint.secret, { now }))).toBe('accepted');
      expect(body).toContain('"amount":2500');
      const tampered = body.replace('"amount":2500', '"amount":250000');
      expect(rejection(() => verifyWebhook(tampered, header, endpoint.secret, { now }))).toBe(
        'signature_mismatch',
      );
      const wrongSecret = `whsec_${'0'.repeat(32)}`;
      expect(rejection(() => verifyWebhook(body, header, wrongSecret, { now }))).toBe('signature_mismatch');
      const tenMinutesLater = new Date(server.clock.now() + 10 * 60_000);
      expect(rejection(() => verifyWebhook(body, header, endpoint.secret, { now: tenMinutesLater }))).toBe(
        'timestamp_out_of_tolerance',
      );
    } finally {
      await receiver.close();
    }
  });
});

describe('pagination over many items', () => {
  it('paginate yields every one of 120 services exactly once, newest first, 25 per page', async () => {
    const account = await server.newAccount('Many services');
    const { fetch, attempts } = recordingFetch();
    const client = clientOf(server.url, account.test, { fetch });
    const created: string[] = [];
    for (let i = 1; i <= 120; i++) {
      created.push(await createServiceThrough(client, `Service ${String(i).padStart(3, '0')}`));
      server.clock.advance(1_000);
    }
    attempts.length = 0;

    const seen: Service[] = [];
    for await (const service of paginate(client, '/services', { params: { query: { limit: 25 } } })) {
      seen.push(service);
    }

    expect(seen.map((s) => s.service_id)).toEqual([...created].reverse());
    expect(new Set(seen.map((s) => s.service_id)).size).toBe(120);
    const createdAt = seen.map((s) => Date.parse(s.created_at));
    expect(createdAt).toEqual([...createdAt].sort((a, b) => b - a));
    // 120 items in pages of 25: five pages, the first without a cursor, the others with one.
    expect(attempts).toHaveLength(5);
    expect(attempts.map((a) => new URL(a.url).searchParams.has('cursor'))).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
    for (const attempt of attempts) expect(new URL(attempt.url).searchParams.get('limit')).toBe('25');
  });
});
