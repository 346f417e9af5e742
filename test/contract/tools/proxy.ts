/**
 * Prism's validation proxy between real client calls and the server. Two proxies run:
 *
 * - strict (`--errors`): the project's TypeScript client (client/src) calls every operation
 *   through it the way an integrator does: successes, and the business errors a valid request
 *   can meet (bad key, short balance, unknown id, reused idempotency key, deleted or inactive
 *   service, unknown wallet, refund too large or of an unsettled payment). Prism checks the
 *   request and the response.
 * - responses only (`--errors --validate-request=false`): deliberately invalid requests (missing
 *   field, invalid amount, unknown field, wrong type, bad parameter, malformed JSON, text body,
 *   oversized body), which the strict proxy would refuse itself; Prism checks the server's
 *   error responses.
 *
 * Any violation Prism reports fails the tool. Requests without credentials are not sent:
 * Prism answers them 401 itself without calling the server (dredd and the fuzzer cover them).
 */
import { createPaymentsClient, type PaymentsClient } from '../../../client/src/index.js';
import { sandbox } from '../../support/fixtures.js';
import { operations } from '../../support/spec.js';
import { Api, eventually, testCredentials } from '../lib/api.js';
import { type PrismFinding, prismFinding, startPrismProxy } from '../lib/prism-proxy.js';
import type { Account } from '../lib/server.js';
import type { Tool } from './types.js';

interface Observed {
  requests: number;
  findings: string[];
  statuses: Map<number, number>;
  operations: Set<string>;
}

const observed = (): Observed => ({ requests: 0, findings: [], statuses: new Map(), operations: new Set() });

/** Static paths before templated ones, so `/payments/direct` is not read as `/payments/{id}`. */
const routes = operations()
  .map((op) => ({
    op,
    regex: new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`),
    templated: op.path.includes('{'),
  }))
  .sort((a, b) => Number(a.templated) - Number(b.templated));

const operationOf = (method: string, pathname: string) =>
  routes.find((r) => r.op.method === method.toLowerCase() && r.regex.test(pathname))?.op.operationId;

/** A fetch that counts every exchange and keeps what Prism reports about it. */
function observingFetch(observed: Observed, accept: (finding: PrismFinding) => boolean) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const description = `${request.method} ${url.pathname}${url.search}`;
    const response = await fetch(request);
    observed.requests += 1;
    const operationId = operationOf(request.method, url.pathname);
    if (operationId) observed.operations.add(operationId);
    observed.statuses.set(response.status, (observed.statuses.get(response.status) ?? 0) + 1);
    const finding = await prismFinding(response);
    if (finding && !accept(finding))
      observed.findings.push(`${description}: ${finding.side} violation: ${finding.details}`);
    return response;
  };
}

export const proxyTool: Tool = {
  name: 'proxy',
  description: 'Prism validation proxy in front of the server, real client calls through it',
  async run({ server, sink, log }) {
    const [strict, lenient, other] = await Promise.all([
      startPrismProxy(server.apiUrl, { validateRequest: true }),
      startPrismProxy(server.apiUrl, { validateRequest: false }),
      server.createAccount('proxy other account'),
    ]);
    try {
      const valid = observed();
      const invalid = observed();
      const unexpected: string[] = [];
      const clientFor = (account: Account, baseUrl: string, observing: Observed) =>
        createPaymentsClient({
          apiKey: account.testKey,
          apiUser: account.apiUser,
          baseUrl,
          sandbox: true,
          retry: { maxRetries: 0 },
          fetch: observingFetch(observing, () => false),
        });
      const client = clientFor(server.account, strict.baseUrl, valid);
      const direct = new Api(server.apiUrl, testCredentials(server.account));
      try {
        await integratorCalls({
          client,
          otherWallet: (await direct.as(testCredentials(other)).get('/balance')).body.data.wallet_id,
          badKeyClient: clientFor(
            { ...server.account, testKey: `sk_test_${'0'.repeat(32)}` },
            strict.baseUrl,
            valid,
          ),
          sinkUrl: sink.url,
          expect: (what, response, status) => {
            if (response.status !== status)
              unexpected.push(`${what}: expected ${status}, got ${response.status}`);
          },
        });
      } catch (err) {
        // A response Prism replaced by its error leaves the scenario without the data it needs.
        unexpected.push(`the client scenario stopped: ${err instanceof Error ? err.message : String(err)}`);
      }
      const serviceId: string =
        (await direct.get('/services')).body.data?.items?.[0]?.service_id ?? `svc_${'0'.repeat(24)}`;
      const missed = operations()
        .map((op) => op.operationId)
        .filter((id) => !valid.operations.has(id));
      if (missed.length > 0)
        unexpected.push(`operations never called through the proxy: ${missed.join(', ')}`);
      log(
        `strict proxy: ${valid.requests} client calls covering ${valid.operations.size} operations, statuses ${histogram(valid.statuses)}`,
      );

      // Raw HTTP for what the typed client cannot send.
      const raw = new Api(lenient.baseUrl, testCredentials(server.account));
      const observe = observingFetch(invalid, (f) => f.side === 'request');
      const invalidCalls = invalidRequests(raw, serviceId);
      for (const call of invalidCalls) {
        const response = await observe(call.request);
        await response.body?.cancel();
        if (response.status !== call.status) {
          unexpected.push(`${call.what}: expected ${call.status}, got ${response.status}`);
        }
      }
      log(
        `responses-only proxy: ${invalid.requests} invalid requests, statuses ${histogram(invalid.statuses)}`,
      );

      const failures = [
        ...valid.findings.map((f) => `strict proxy: ${f}`),
        ...invalid.findings.map((f) => `responses-only proxy: ${f}`),
        ...unexpected.map((u) => `unexpected status (the scenario or the server is wrong): ${u}`),
      ];
      return {
        ok: failures.length === 0,
        summary: [
          `${valid.requests + invalid.requests} requests checked by Prism: ${valid.requests} client calls (${valid.operations.size} operations; ${count(valid.statuses, 400)} answered 4xx) and ${invalid.requests} invalid requests (${count(invalid.statuses, 400)} answered 4xx); ${valid.findings.length + invalid.findings.length} violations`,
        ],
        failures,
      };
    } finally {
      await Promise.all([strict.stop(), lenient.stop()]);
    }
  },
};

const histogram = (statuses: Map<number, number>) =>
  [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
const count = (statuses: Map<number, number>, from: number) =>
  [...statuses.entries()].filter(([s]) => s >= from && s < from + 100).reduce((n, [, c]) => n + c, 0);

interface Scenario {
  client: PaymentsClient;
  badKeyClient: PaymentsClient;
  otherWallet: string;
  sinkUrl: string;
  expect(what: string, response: Response, status: number): void;
}

type Ok = <T extends { response: Response; data?: unknown }>(
  what: string,
  status: number,
  call: Promise<T>,
) => Promise<T & { data: NonNullable<T['data']> }>;

/** The `params` of a call to a path with an `{id}`. */
const byId = (id: string) => ({ params: { path: { id } } });

/** A bank payout through its batch, file and the sandbox bank's statement (docs/bank-payouts.md). */
async function bankBatchCalls(ok: Ok, client: PaymentsClient) {
  await ok(
    'payout to a bank account',
    202,
    client.POST('/payouts', {
      body: {
        amount: 2_000,
        payout_type: 'withdrawal',
        recipient_bank_account: { iban: 'CM2110005000010123456789091', holder_name: 'Awa Ngono' },
      },
    }),
  );
  const batch = (await ok('batch the bank payouts', 201, client.POST('/bank-batches'))).data.data;
  const path = byId(batch.batch_id);
  await ok('list bank batches', 200, client.GET('/bank-batches'));
  await ok('read a bank batch', 200, client.GET('/bank-batches/{id}', path));
  await ok('its pain.001 file', 200, client.GET('/bank-batches/{id}/file', { ...path, parseAs: 'text' }));
  const statement = (
    await ok(
      "the sandbox bank's camt.054",
      200,
      client.GET('/bank-batches/{id}/sandbox-statement', { ...path, parseAs: 'text' }),
    )
  ).data;
  await ok(
    'apply the statement',
    200,
    client.POST('/bank-batches/{id}/statements', {
      ...path,
      body: statement,
      bodySerializer: (text: string) => text,
      headers: { 'Content-Type': 'application/xml' },
    }),
  );
}

/** Every operation at least once, as an integrator calls them, and the errors valid calls meet. */
async function integratorCalls({ client, badKeyClient, otherWallet, sinkUrl, expect }: Scenario) {
  const ok = async <T extends { response: Response; data?: unknown }>(
    what: string,
    status: number,
    call: Promise<T>,
  ) => {
    const result = await call;
    expect(what, result.response, status);
    return result as T & { data: NonNullable<T['data']> };
  };

  await ok('health', 200, client.GET('/healthz'));
  const service = (
    await ok(
      'create service',
      201,
      client.POST('/services', { body: { name: 'Proxy shop', type: 'website' } }),
    )
  ).data.data;
  await ok('list services', 200, client.GET('/services', { params: { query: { limit: 5 } } }));
  await ok('read service', 200, client.GET('/services/{id}', byId(service.service_id)));
  const updateService = (body: { description?: string; status?: 'inactive'; name?: string }) =>
    client.PUT('/services/{id}', { ...byId(service.service_id), body });
  await ok('update service', 200, updateService({ description: 'through Prism' }));
  const endpoint = (
    await ok(
      'create webhook endpoint',
      201,
      client.POST('/webhook-endpoints', {
        body: { url: sinkUrl, events: ['payment.completed', 'topup.completed'] },
      }),
    )
  ).data.data;
  const endpointPath = byId(endpoint.id);
  await ok('list webhook endpoints', 200, client.GET('/webhook-endpoints'));
  await ok('read webhook endpoint', 200, client.GET('/webhook-endpoints/{id}', endpointPath));
  await ok(
    'update webhook endpoint',
    200,
    client.PUT('/webhook-endpoints/{id}', { ...endpointPath, body: { description: null } }),
  );
  await ok('rotate endpoint secret', 200, client.POST('/webhook-endpoints/{id}/rotate-secret', endpointPath));

  const topup = (
    await ok(
      'top up',
      202,
      client.POST('/topups', {
        body: {
          amount: 500_000,
          currency: 'XAF',
          payer_msisdn: sandbox.orange.succeeds,
          payment_method: 'orange_money',
        },
      }),
    )
  ).data.data;
  const payment = { amount: 20_000, currency: 'XAF' as const, service_id: service.service_id };
  const direct = (
    await ok(
      'payment',
      202,
      client.POST('/payments', {
        body: { ...payment, customer_msisdn: sandbox.mtn.succeeds, payment_method: 'mtn_momo' },
      }),
    )
  ).data.data;
  await ok(
    'direct payment',
    202,
    client.POST('/payments/direct', {
      body: { ...payment, customer_msisdn: sandbox.orange.fails, payment_method: 'orange_money' },
    }),
  );
  const hosted = (
    await ok(
      'hosted payment',
      202,
      client.POST('/payments/initiate', { body: { ...payment, expires_in_seconds: 600 } }),
    )
  ).data.data;
  await eventually(
    'top-up and payment succeed',
    async () => [
      (await client.GET('/topups/{id}', byId(topup.transaction_id))).data?.data.status,
      (await client.GET('/payments/{id}', byId(direct.transaction_id))).data?.data.status,
    ],
    ([t, p]) => t === 'success' && p === 'success',
  );
  await ok('read hosted payment', 200, client.GET('/payments/{id}', byId(hosted.transaction_id)));
  await ok(
    'list payments',
    200,
    client.GET('/payments', { params: { query: { status: 'success', limit: 10 } } }),
  );
  await ok('list top-ups', 200, client.GET('/topups'));
  await ok('balance', 200, client.GET('/balance'));
  await ok('ledger', 200, client.GET('/balance/transactions', { params: { query: { currency: 'XAF' } } }));
  const today = new Date();
  await ok(
    'CSV export',
    200,
    client.GET('/reports/balance-transactions', {
      params: {
        query: {
          created_gte: new Date(today.getTime() - 86_400_000).toISOString(),
          created_lt: new Date(today.getTime() + 86_400_000).toISOString(),
        },
      },
      parseAs: 'text',
    }),
  );

  const payout = (
    await ok(
      'payout to a number',
      202,
      client.POST('/payouts', {
        body: { amount: 5_000, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
      }),
    )
  ).data.data;
  await ok(
    'transfer to a wallet',
    202,
    client.POST('/payouts', {
      body: { amount: 1_000, recipient_wallet_id: otherWallet, payout_type: 'transfer' },
    }),
  );
  const bulk = (
    await ok(
      'bulk payout',
      202,
      client.POST('/payouts/bulk', {
        body: {
          currency: 'XAF',
          items: [
            { amount: 700, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
            {
              amount: 300,
              recipient_msisdn: sandbox.mtn.fails,
              payout_type: 'withdrawal',
              reference: 'will fail',
            },
          ],
        },
      }),
    )
  ).data.data;
  await ok('read payout', 200, client.GET('/payouts/{id}', byId(payout.transaction_id)));
  await ok('list bulk', 200, client.GET('/payouts', { params: { query: { bulk_id: bulk.bulk_id } } }));
  await bankBatchCalls(ok, client);
  await ok(
    'refund',
    202,
    client.POST('/refunds', { body: { payment_id: direct.transaction_id, amount: 2_000 } }),
  );
  await ok(
    'list refunds',
    200,
    client.GET('/payouts', { params: { query: { payment_id: direct.transaction_id } } }),
  );

  const events = await eventually(
    'the payment event',
    async () =>
      (await client.GET('/events', { params: { query: { transaction_id: direct.transaction_id } } })).data,
    (page) => (page?.data.items.length ?? 0) > 0,
  );
  const eventPath = byId(events!.data.items[0]!.id);
  await ok('read event', 200, client.GET('/events/{id}', eventPath));
  await ok('list deliveries', 200, client.GET('/events/{id}/deliveries', eventPath));
  await ok(
    'resend event',
    202,
    client.POST('/events/{id}/resend', { ...eventPath, body: { endpoint_id: endpoint.id } }),
  );
  await ok(
    'logs',
    200,
    client.GET('/logs', { params: { query: { method: 'POST', status_class: '2xx', limit: 50 } } }),
  );
  await ok('api keys', 200, client.GET('/api-keys'));
  await ok('create a collect key', 201, client.POST('/api-keys', { body: { role: 'collect' } }));

  // Errors a valid request meets, each answered with its documented status.
  const refusals: Array<[string, number, () => Promise<{ response: Response; data?: unknown }>]> = [
    ['bad key', 401, () => badKeyClient.GET('/balance')],
    [
      'short balance',
      403,
      () =>
        client.POST('/payouts', {
          body: { amount: 1_000_000_000, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
        }),
    ],
    ['unknown payment', 404, () => client.GET('/payments/{id}', byId(`pay_${'Z'.repeat(24)}`))],
    [
      'refund of an unsettled payment',
      409,
      () => client.POST('/refunds', { body: { payment_id: hosted.transaction_id } }),
    ],
    [
      'refund too large',
      422,
      () => client.POST('/refunds', { body: { payment_id: direct.transaction_id, amount: 1_000_000 } }),
    ],
    [
      'unknown wallet',
      422,
      () =>
        client.POST('/payouts', {
          body: { amount: 10, recipient_wallet_id: `wal_${'Z'.repeat(24)}`, payout_type: 'transfer' },
        }),
    ],
  ];
  for (const [what, status, call] of refusals) await ok(what, status, call());
  const key = `proxy-${Date.now()}`;
  const keyed = { params: { header: { 'Idempotency-Key': key } } };
  await ok('keyed service', 201, client.POST('/services', { ...keyed, body: { name: 'first' } }));
  await ok('replayed service', 201, client.POST('/services', { ...keyed, body: { name: 'first' } }));
  await ok('reused key', 409, client.POST('/services', { ...keyed, body: { name: 'second' } }));
  await ok('deactivate service', 200, updateService({ status: 'inactive' }));
  await ok(
    'payment to an inactive service',
    422,
    client.POST('/payments', {
      body: { ...payment, customer_msisdn: sandbox.mtn.succeeds, payment_method: 'mtn_momo' },
    }),
  );
  await ok('delete webhook endpoint', 200, client.DELETE('/webhook-endpoints/{id}', endpointPath));
  await ok('delete service', 200, client.DELETE('/services/{id}', byId(service.service_id)));
  await ok('update a deleted service', 409, updateService({ name: 'x' }));
  const rotated = await ok(
    'rotate key with grace',
    201,
    client.POST('/api-keys/rotate', { body: { grace_period_seconds: 60 } }),
  );
  // The client still holds the retired key: in its grace period, it cannot revoke its successor.
  await ok(
    'revoke the new key from the retired one',
    403,
    client.POST('/api-keys/{id}/revoke', byId(rotated.data.data.api_key.id)),
  );
}

interface RawCall {
  what: string;
  request: Request;
  status: number;
}

/** Requests that break the contract on purpose; the server must refuse each as documented. */
function invalidRequests(api: Api, serviceId: string): RawCall[] {
  const headers = {
    authorization: `Bearer ${api.credentials.key}`,
    'x-api-user': api.credentials.apiUser,
  };
  const call = (
    what: string,
    status: number,
    method: string,
    path: string,
    body?: string,
    contentType = 'application/json',
    query?: Record<string, string>,
  ) => ({
    what,
    status,
    request: new Request(api.url(path, query), {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': contentType },
      body,
    }),
  });
  const payment = {
    amount: 2500,
    currency: 'XAF',
    customer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo',
    service_id: serviceId,
  };
  const json = (value: unknown) => JSON.stringify(value);
  const { amount: _amount, ...withoutAmount } = payment;
  return [
    call('missing field', 400, 'POST', '/payments', json(withoutAmount)),
    call('zero amount', 400, 'POST', '/payments', json({ ...payment, amount: 0 })),
    call('negative amount', 400, 'POST', '/payments/direct', json({ ...payment, amount: -5 })),
    call(
      'float amount',
      400,
      'POST',
      '/topups',
      json({ amount: 10.5, currency: 'XAF', payer_msisdn: sandbox.mtn.succeeds, payment_method: 'mtn_momo' }),
    ),
    call('unknown field', 400, 'POST', '/services', json({ name: 'x', colour: 'red' })),
    call('bad msisdn', 400, 'POST', '/payments', json({ ...payment, customer_msisdn: '+237 6 70' })),
    call('bad enum', 400, 'POST', '/payments', json({ ...payment, currency: 'USD' })),
    call(
      'both recipients',
      400,
      'POST',
      '/payouts',
      json({
        amount: 10,
        recipient_msisdn: sandbox.mtn.succeeds,
        recipient_wallet_id: `wal_${'Z'.repeat(24)}`,
        payout_type: 'transfer',
      }),
    ),
    call('no recipient', 400, 'POST', '/payouts', json({ amount: 10, payout_type: 'withdrawal' })),
    call(
      'too many items',
      400,
      'POST',
      '/payouts/bulk',
      json({
        items: Array.from({ length: 101 }, () => ({
          amount: 1,
          recipient_msisdn: sandbox.mtn.succeeds,
          payout_type: 'withdrawal',
        })),
      }),
    ),
    call('empty update', 400, 'PUT', `/services/${serviceId}`, json({})),
    call('malformed JSON', 400, 'POST', '/services', '{"name": '),
    call('text body', 415, 'POST', '/services', 'name=x', 'text/plain'),
    call('oversized body', 413, 'POST', '/services', json({ name: 'x', description: 'y'.repeat(70 * 1024) })),
    call('limit out of range', 400, 'GET', '/payments', undefined, undefined, { limit: '0' }),
    call('bad status filter', 400, 'GET', '/payouts', undefined, undefined, { status: 'lost' }),
    call('bad date filter', 400, 'GET', '/events', undefined, undefined, { created_gte: 'yesterday' }),
    call('bad test flag', 400, 'GET', '/balance', undefined, undefined, { test: 'maybe' }),
    call('malformed id', 400, 'GET', '/payments/not-a-payment-id'),
    call('bad grace period', 400, 'POST', '/api-keys/rotate', json({ grace_period_seconds: -1 })),
  ];
}
