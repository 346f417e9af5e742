import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, fund, successNumber } from '../support/fixtures.js';
import { reconcile, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('parallel payouts against a balance that funds only some of them', () => {
  it('exactly the funded ones succeed, the balance ends at zero, and the ledger sums to it', async () => {
    await fund(server, 10_000);
    const amounts = Array.from({ length: 40 }, (_, i) => 300 + (i % 7) * 100); // 40 payouts, 20 200 XAF asked
    const responses = await Promise.all(
      amounts.map((amount) =>
        server.request('POST', '/payouts', {
          body: { amount, recipient_msisdn: successNumber, payout_type: 'withdrawal' },
        }),
      ),
    );
    const accepted = responses.filter((r) => r.status === 202);
    const refused = responses.filter((r) => r.status === 403);
    expect(accepted.length + refused.length).toBe(amounts.length);
    for (const r of refused) expect(r.body.error.code).toBe('insufficient_balance');
    const paidOut = accepted.reduce((sum, r) => sum + (r.body.data.amount as number), 0);
    const left = await balanceOf(server);
    expect(paidOut + left).toBe(10_000);
    // Every refused payout was larger than what was left when it was decided: nothing fundable was refused.
    const smallest = Math.min(
      ...refused.map((r) => JSON.parse(r.text).error.message.match(/payout of (\d+)/)[1]),
    );
    expect(left).toBeLessThan(smallest);

    // Spend what is left exactly: the balance ends at zero, never below.
    if (left > 0) {
      const last = await server.request('POST', '/payouts', {
        body: { amount: left, recipient_msisdn: successNumber, payout_type: 'withdrawal' },
      });
      expect(last.status).toBe(202);
    }
    expect(await balanceOf(server)).toBe(0);
    await server.settle();
    for (const row of await reconcile(server)) expect(row.available).toBe(row.ledger_sum);
  });

  it('the database itself refuses a ledger row that would overdraw or break the chain', async () => {
    const { store } = server.service.deps;
    const wallet = (await server.request('GET', '/balance')).body.data.wallet_id as string;
    const row = {
      id: 'btx_manual00000000000000000',
      wallet_id: wallet,
      currency: 'XAF',
      type: 'payout' as const,
      amount: -1,
      balance_after: -1,
      source_id: 'po_manual0000000000000000000',
      description: 'overdraw attempt',
      created_at: server.clock.now(),
    };
    await expect(store.transact(async (tx) => tx.ledger.append(row))).rejects.toThrow(
      /CHECK constraint failed|violates check constraint/,
    );
    await expect(
      store.transact(async (tx) => tx.ledger.append({ ...row, amount: 5, balance_after: 999 })),
    ).rejects.toThrow(/does not continue the balance/);
    expect(await balanceOf(server)).toBe(0);
  });
});
