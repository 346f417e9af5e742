/**
 * The contract documents what the server really sends, so tools built from it (clients,
 * validators, mocks) read everything: the 500 and 503 any operation can answer, the headers of
 * every response (RateLimit-*, Idempotent-Replayed, Retry-After), the headers of a webhook
 * delivery (X-Webhook-Id), and the "exactly one recipient" rule as a schema tools can read.
 * Component names are unique across sections, so other generators need not rename any.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, createService, sandbox } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';
import { type Json, operations, resolve, schemaErrors, spec } from '../support/spec.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

/**
 * Headers HTTP itself adds, which a contract does not describe, and `X-Content-Type-Options:
 * nosniff`, which every response carries and the Conventions state once.
 */
const transportHeaders = new Set([
  'content-type',
  'x-content-type-options',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

function documentedHeaders(response: Json): Set<string> {
  return new Set(Object.keys(resolve(response)?.headers ?? {}).map((h) => h.toLowerCase()));
}

describe('the contract, read as a tool reads it', () => {
  it('every operation documents 500 and 503 through shared responses', () => {
    for (const op of operations()) {
      expect(op.operation.responses['500'], `${op.operationId} 500`).toEqual({
        $ref: '#/components/responses/InternalServerError',
      });
      const unavailable = op.operation.responses['503'];
      expect(unavailable, `${op.operationId} 503`).toBeDefined();
      expect(documentedHeaders(unavailable), `${op.operationId} 503`).toContain(
        op.path === '/healthz' ? 'x-request-id' : 'retry-after',
      );
    }
  });

  it('every response of an authenticated operation declares RateLimit-*; POST successes declare Idempotent-Replayed', () => {
    for (const op of operations()) {
      const authenticated = !(Array.isArray(op.operation.security) && op.operation.security.length === 0);
      for (const [status, response] of Object.entries<Json>(op.operation.responses)) {
        const headers = documentedHeaders(response);
        expect(headers, `${op.operationId} ${status}`).toContain('x-request-id');
        if (authenticated && status !== '401') {
          for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
            expect(headers, `${op.operationId} ${status} ${name}`).toContain(name);
        }
        if (op.method === 'post' && status.startsWith('2'))
          expect(headers, `${op.operationId} ${status}`).toContain('idempotent-replayed');
      }
    }
  });

  it('every webhook declares X-Webhook-Signature and X-Webhook-Id', () => {
    for (const [name, item] of Object.entries<Json>(spec['x-webhooks'])) {
      const headers = (item.post.parameters ?? []).map(resolve).filter((p: Json) => p.in === 'header');
      expect(
        headers.map((p: Json) => p.name),
        name,
      ).toEqual(expect.arrayContaining(['X-Webhook-Signature', 'X-Webhook-Id']));
    }
  });

  it('"exactly one recipient" is in the payout schemas, where validators and generators read it', () => {
    for (const name of ['PayoutCreate', 'BulkPayoutItem']) {
      const schema = spec.components.schemas[name];
      expect(schema.oneOf, name).toEqual([
        { required: ['recipient_msisdn'] },
        { required: ['recipient_wallet_id'] },
        { required: ['recipient_bank_account'] },
      ]);
      const base = { amount: 100, payout_type: 'transfer' };
      expect(schemaErrors(schema, { ...base, recipient_msisdn: sandbox.mtn.succeeds })).toEqual([]);
      expect(schemaErrors(schema, { ...base, recipient_wallet_id: 'wal_000000000000000000000000' })).toEqual(
        [],
      );
      expect(schemaErrors(schema, base)).not.toEqual([]);
      expect(
        schemaErrors(schema, {
          ...base,
          recipient_msisdn: sandbox.mtn.succeeds,
          recipient_wallet_id: 'wal_000000000000000000000000',
        }),
      ).not.toEqual([]);
    }
  });

  it('component names are unique across sections, and no schema is named Error', () => {
    const seen = new Map<string, string>();
    for (const [section, entries] of Object.entries<Json>(spec.components)) {
      for (const name of Object.keys(entries)) {
        expect(seen.get(name), `${section}/${name} also in ${seen.get(name)}`).toBeUndefined();
        seen.set(name, section);
      }
    }
    expect(spec.components.schemas.Error).toBeUndefined();
  });

  it('amounts are JSON numbers: no int64 (which validator generators turn into BigInt), exact bounds', () => {
    for (const name of ['Amount', 'MinorUnits', 'SignedMinorUnits']) {
      const schema = spec.components.schemas[name];
      expect(schema.type, name).toBe('integer');
      expect(schema.format, name).toBeUndefined();
      expect(schema.maximum, name).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
      expect(schema.minimum ?? 0, name).toBeGreaterThanOrEqual(Number.MIN_SAFE_INTEGER);
    }
    const formats: string[] = [];
    const walk = (node: Json, at: string) => {
      if (!node || typeof node !== 'object') return;
      if (node.type === 'integer' && node.format === 'int64') formats.push(at);
      for (const [key, value] of Object.entries<Json>(node)) walk(value, `${at}/${key}`);
    };
    walk(spec.paths, 'paths');
    walk(spec.components, 'components');
    expect(formats).toEqual([]);
  });
});

describe('the server sends only what the contract declares', () => {
  const server = useTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  function expectDeclared(operationId: string, status: number, headers: Headers) {
    const op = operations().find((o) => o.operationId === operationId) as Json;
    const response = op.operation.responses[String(status)];
    expect(response, `${operationId} ${status} is documented`).toBeDefined();
    const declared = documentedHeaders(response);
    const names: string[] = [];
    headers.forEach((_value, name) => {
      names.push(name);
    });
    const sent = names.filter((h) => !transportHeaders.has(h));
    expect(
      sent.filter((h) => !declared.has(h)),
      `${operationId} ${status} sends headers it does not declare`,
    ).toEqual([]);
  }

  it('on successes, replays, client errors and not-found', async () => {
    const key = 'documented-headers-1';
    const body = { name: 'Header shop', type: 'website' };
    const first = await server.raw('POST', '/services', { body, headers: { 'idempotency-key': key } });
    expectDeclared('createService', first.status, first.headers);
    const replay = await server.raw('POST', '/services', { body, headers: { 'idempotency-key': key } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectDeclared('createService', replay.status, replay.headers);
    const bad = await server.raw('POST', '/services', { body: { name: '' } });
    expectDeclared('createService', bad.status, bad.headers);
    const missing = await server.raw('GET', '/payments/pay_000000000000000000000000');
    expectDeclared('getPayment', missing.status, missing.headers);
    const list = await server.raw('GET', '/payments');
    expectDeclared('listPayments', list.status, list.headers);
    const report = await server.raw('GET', '/reports/balance-transactions', {
      query: { created_gte: '2026-11-01T00:00:00Z', created_lt: '2026-12-01T00:00:00Z' },
    });
    expectDeclared('exportBalanceTransactions', report.status, report.headers);
  });

  it('on a webhook delivery: every header sent is declared by the webhook', async () => {
    const registered = await server.raw('POST', '/webhook-endpoints', { body: { url: receiver.url } });
    expect(registered.status).toBe(201);
    const serviceId = await createService(server);
    await collect(server, serviceId, 1200);
    await server.settle();
    await server.deliverWebhooks();
    expect(receiver.received.length).toBeGreaterThan(0);
    const delivery = receiver.received[0] as (typeof receiver.received)[number];
    const event = JSON.parse(delivery.body);
    const declared = new Set(
      (spec['x-webhooks'][event.event].post.parameters ?? [])
        .map(resolve)
        .filter((p: Json) => p.in === 'header')
        .map((p: Json) => p.name.toLowerCase()),
    );
    expect(delivery.headers['x-webhook-id']).toBe(event.id);
    const undeclared = Object.keys(delivery.headers).filter(
      (h) =>
        !transportHeaders.has(h) &&
        !['host', 'user-agent', 'accept', 'accept-encoding', 'accept-language', 'sec-fetch-mode'].includes(
          h,
        ) &&
        !declared.has(h),
    );
    expect(undeclared).toEqual([]);
  });
});
