import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../support/database.js';
import { balanceOf, createService, fund, sandbox } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

const server = useTestServer();
let serviceId: string;

beforeAll(async () => {
  serviceId = await createService(server);
});

const payment = (amount = 1000) => ({
  amount,
  currency: 'XAF',
  customer_msisdn: sandbox.mtn.succeeds,
  payment_method: 'mtn_momo',
  service_id: serviceId,
});

async function countPayments() {
  const response = await server.raw('GET', '/payments', { query: { limit: 100 } });
  return response.body.data.items.length as number;
}

describe('Idempotency-Key on POST', () => {
  it('stores the fingerprint of method, full path and canonical body, as every version did', async () => {
    // A record stored before an upgrade must still match its retry after it: the fingerprint's
    // text may not change (here: the path stays /v1/..., wherever the API router is mounted).
    const key = 'fingerprint-format';
    const body = { ...payment(777), reference: 'fp' };
    expect(
      (await server.raw('POST', '/payments', { body, headers: { 'idempotency-key': key } })).status,
    ).toBe(202);
    const canonical = `{${Object.keys(body)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${JSON.stringify(body[k as keyof typeof body])}`)
      .join(',')}}`;
    const expected = createHash('sha256').update(`POST /v1/payments\n${canonical}`).digest('hex');
    const [row] = await queryRows<{ fingerprint: string }>(
      server,
      'SELECT fingerprint FROM idempotency_keys WHERE key = ?',
      key,
    );
    expect(row?.fingerprint).toBe(expected);
  });

  it('the same key and body replays the first response, status and body, and creates nothing more', async () => {
    const before = await countPayments();
    const headers = { 'idempotency-key': 'order-1042-attempt' };
    const first = await server.raw('POST', '/payments', { body: payment(), headers });
    const second = await server.raw('POST', '/payments', { body: payment(), headers });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await countPayments()).toBe(before + 1);
  });

  it('the first response wins over what a retry would meet now: a retry after the service was deactivated replays', async () => {
    // POST /payments does not look its key up before its work (keyCheckedInUnit): the stored
    // response must still win over the refusal the retry's own work now meets.
    const shop = await createService(server);
    const headers = { 'idempotency-key': 'before-deactivation' };
    const body = { ...payment(1200), service_id: shop };
    const first = await server.raw('POST', '/payments', { body, headers });
    expect(first.status).toBe(202);
    await server.raw('PUT', `/services/${shop}`, { body: { status: 'inactive' } });
    const fresh = await server.raw('POST', '/payments', {
      body,
      headers: { 'idempotency-key': 'after' },
    });
    expect(fresh.status).toBe(422);
    expect(fresh.body.error.code).toBe('service_inactive');
    const retry = await server.raw('POST', '/payments', { body, headers });
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const reused = await server.raw('POST', '/payments', { body: { ...body, amount: 1300 }, headers });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });

  it('the body is compared as JSON: the same fields in another order are the same request', async () => {
    const headers = { 'idempotency-key': 'reordered' };
    const first = await server.raw('POST', '/payments', { body: payment(1100), headers });
    const { amount, ...rest } = payment(1100);
    const second = await server.raw('POST', '/payments', { body: { ...rest, amount }, headers });
    expect(second.body).toEqual(first.body);
  });

  it('the same key with another body is 409 idempotency_key_reused and creates nothing', async () => {
    const headers = { 'idempotency-key': 'reused-key' };
    await server.raw('POST', '/payments', { body: payment(1200), headers });
    const before = await countPayments();
    const response = await server.raw('POST', '/payments', { body: payment(1300), headers });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('idempotency_key_reused');
    expect(await countPayments()).toBe(before);
  });

  it('the same key on another path is another request: 409', async () => {
    const headers = { 'idempotency-key': 'path-scoped' };
    await server.raw('POST', '/payments', { body: payment(1400), headers });
    const response = await server.raw('POST', '/payments/direct', { body: payment(1400), headers });
    expect(response.status).toBe(409);
  });

  it('keys belong to one account and mode: another account may use the same key', async () => {
    const other = await server.newAccount('Other');
    const otherService = await createService(server, other.test);
    const headers = { 'idempotency-key': 'shared-name' };
    const mine = await server.raw('POST', '/payments', { body: payment(), headers });
    const theirs = await server.raw('POST', '/payments', {
      as: other.test,
      body: { ...payment(), service_id: otherService },
      headers,
    });
    expect(theirs.status).toBe(202);
    expect(theirs.body.data.transaction_id).not.toBe(mine.body.data.transaction_id);
  });

  it('an error is not stored: after the cause is fixed, the same key runs the request', async () => {
    const fresh = await server.newAccount('Retry after funding');
    const headers = { 'idempotency-key': 'payout-after-topup' };
    const body = { amount: 500, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' };
    const refused = await server.raw('POST', '/payouts', { as: fresh.test, body, headers });
    expect(refused.status).toBe(403);
    await fund(server, 500, fresh.test);
    const accepted = await server.raw('POST', '/payouts', { as: fresh.test, body, headers });
    expect(accepted.status).toBe(202);
    const replayed = await server.raw('POST', '/payouts', { as: fresh.test, body, headers });
    expect(replayed.body).toEqual(accepted.body);
    expect(await balanceOf(server, fresh.test)).toBe(0);
  });

  it('a key expires after 24 hours: it then names a new request', async () => {
    const headers = { 'idempotency-key': 'day-old' };
    const first = await server.raw('POST', '/payments', { body: payment(1500), headers });
    server.clock.advance(24 * 3600 * 1000 + 1);
    const second = await server.raw('POST', '/payments', { body: payment(1500), headers });
    expect(second.status).toBe(202);
    expect(second.body.data.transaction_id).not.toBe(first.body.data.transaction_id);
  });

  it('a malformed key (control characters, over 255 characters) is 400 invalid_parameter', async () => {
    const response = await server.raw('POST', '/payments', {
      body: payment(),
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_parameter');
  });
});

describe('concurrent duplicates', () => {
  it('thirty parallel payouts with one key create one payout and one debit; all answers agree', async () => {
    const fresh = await server.newAccount('Concurrent duplicates');
    await fund(server, 10_000, fresh.test);
    const headers = { 'idempotency-key': 'parallel-key' };
    const body = { amount: 1000, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' };
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => server.raw('POST', '/payouts', { as: fresh.test, body, headers })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(202));
    const ids = new Set(responses.map((r) => r.body.data.transaction_id));
    expect(ids.size).toBe(1);
    expect(await balanceOf(server, fresh.test)).toBe(9000);
    const payouts = await server.raw('GET', '/payouts', { as: fresh.test });
    expect(payouts.body.data.items).toHaveLength(1);
  });
});
