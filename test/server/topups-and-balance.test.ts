import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balanceOf, sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

// A server per test: each builds the balance it asserts, whatever ran before it.
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** Tops up and settles: 50 000 XAF, then 700 GHS, as most tests here start from. */
async function twoTopups() {
  await topup(50_000);
  await topup(700, sandbox.mtn.succeeds, 'GHS');
  await server.settle();
}

const topup = (amount: number, payer = sandbox.mtn.succeeds, currency = 'XAF') =>
  server.raw('POST', '/topups', {
    body: { amount, currency, payer_msisdn: payer, payment_method: 'mtn_momo' },
  });

describe('POST /topups', () => {
  it('answers 202 initiated, then credits the Main Balance when the operator succeeds', async () => {
    const response = await topup(50_000);
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ status: 'initiated', payer_msisdn: sandbox.mtn.succeeds });
    expect(await balanceOf(server)).toBe(0);
    await server.settle();
    const read = await server.raw('GET', `/topups/${response.body.data.transaction_id}`);
    expect(read.body.data.status).toBe('success');
    expect(await balanceOf(server)).toBe(50_000);
    const events = await server.raw('GET', '/events', {
      query: { transaction_id: response.body.data.transaction_id },
    });
    expect(events.body.data.items[0].event).toBe('topup.completed');
  });

  it('fails with a number ending in 1, expires with one ending in 4, and credits nothing', async () => {
    await topup(50_000);
    await server.settle();
    const failed = await topup(1000, sandbox.mtn.fails);
    const stuck = await topup(1000, sandbox.mtn.neverSettles);
    await server.settle(400_000);
    expect((await server.raw('GET', `/topups/${failed.body.data.transaction_id}`)).body.data).toMatchObject({
      status: 'failed',
      failure_code: 'payer_declined',
    });
    expect((await server.raw('GET', `/topups/${stuck.body.data.transaction_id}`)).body.data.status).toBe(
      'expired',
    );
    expect(await balanceOf(server)).toBe(50_000);
  });

  it('keeps a balance per currency', async () => {
    await twoTopups();
    const balance = await server.raw('GET', '/balance');
    expect(balance.body.data.balances).toEqual([
      { currency: 'GHS', available: 700 },
      { currency: 'XAF', available: 50_000 },
    ]);
  });
});

describe('GET /balance', () => {
  it('a new account shows its wallet and its default currency at zero', async () => {
    const fresh = await server.newAccount('Empty');
    const response = await server.raw('GET', '/balance', { as: fresh.test });
    expect(response.body.data).toMatchObject({
      mode: 'test',
      default_currency: 'XAF',
      balances: [{ currency: 'XAF', available: 0 }],
    });
    expect(response.body.data.wallet_id).toMatch(/^wal_/);
  });
});

describe('GET /balance/transactions', () => {
  it('lists ledger entries newest first with the balance after each, filterable by type and currency', async () => {
    await topup(50_000);
    await server.settle();
    await topup(700, sandbox.mtn.succeeds, 'GHS');
    await server.settle();
    const all = await server.raw('GET', '/balance/transactions');
    expect(all.body.data.items.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([
      ['topup', 700],
      ['topup', 50_000],
    ]);
    const xaf = await server.raw('GET', '/balance/transactions', { query: { currency: 'XAF' } });
    expect(xaf.body.data.items).toHaveLength(1);
    expect(xaf.body.data.items[0].balance_after).toBe(50_000);
  });
});

describe('GET /reports/balance-transactions', () => {
  it('streams the period as CSV, oldest first, with a header line', async () => {
    await topup(50_000);
    await server.settle();
    await topup(700, sandbox.mtn.succeeds, 'GHS');
    await server.settle();
    const response = await server.raw('GET', '/reports/balance-transactions', {
      query: { created_gte: '2020-01-01T00:00:00Z', created_lt: '2030-01-01T00:00:00Z' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toContain('balance-transactions.csv');
    const lines = response.text.trim().split('\n');
    expect(lines[0]).toBe('id,created_at,type,amount,currency,balance_after,source_id,description');
    expect(lines.slice(1).map((l) => l.split(',').slice(2, 5))).toEqual([
      ['topup', '50000', 'XAF'],
      ['topup', '700', 'GHS'],
    ]);
  });

  it('reads a large ledger in chunks: 2 500 entries arrive whole and in order', async () => {
    const fresh = await server.newAccount('Big ledger');
    const { store } = server.service.deps;
    const wallet = (await server.raw('GET', '/balance', { as: fresh.test })).body.data.wallet_id;
    const { credit } = await import('../../server/domain/ledger.js');
    await store.transact(async (tx) => {
      for (let i = 1; i <= 2500; i++) {
        await credit(tx, {
          walletId: wallet,
          currency: 'XAF',
          amount: i,
          type: 'topup',
          sourceId: 'tu_000000000000000000000000',
          description: `entry, "${i}"`,
          now: server.clock.now(),
        });
      }
    });
    const response = await server.raw('GET', '/reports/balance-transactions', {
      as: fresh.test,
      query: { created_gte: '2020-01-01T00:00:00Z', created_lt: '2030-01-01T00:00:00Z', currency: 'XAF' },
    });
    const rows = response.text.trim().split('\n').slice(1);
    expect(rows).toHaveLength(2500);
    expect(rows[0]).toContain(',"entry, ""1"""');
    expect(rows[2499]).toContain(`,${(2500 * 2501) / 2},`);
  });

  it('requires the period: a missing created_gte is 400', async () => {
    const response = await server.raw('GET', '/reports/balance-transactions', {
      query: { created_lt: '2030-01-01T00:00:00Z' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_parameter');
  });
});
