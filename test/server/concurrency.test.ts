import { describe, expect, it } from 'vitest';
import { balanceOf, fund, sandbox } from '../support/fixtures.js';
import { reconcile, useTestServer } from '../support/server.js';

const server = useTestServer();

describe('parallel payouts against a balance that funds only some of them', () => {
  it('exactly the funded ones succeed, the balance ends at zero, and the ledger sums to it', async () => {
    const funded = 10_000;
    await fund(server, funded);
    const amounts = Array.from({ length: 40 }, (_, i) => 300 + (i % 7) * 100);
    // The premise: they ask for twice what the balance holds, so some must be refused.
    expect(amounts.reduce((sum, amount) => sum + amount, 0)).toBeGreaterThan(2 * funded);
    const responses = await Promise.all(
      amounts.map((amount) =>
        server.raw('POST', '/payouts', {
          body: { amount, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
        }),
      ),
    );
    const accepted = responses.filter((r) => r.status === 202);
    const refused = responses.filter((r) => r.status === 403);
    expect(accepted.length + refused.length).toBe(amounts.length);
    expect(refused.length).toBeGreaterThan(0);
    const paidOut = accepted.reduce((sum, r) => sum + (r.body.data.amount as number), 0);
    const left = await balanceOf(server);
    expect(paidOut + left).toBe(funded);
    // Nothing fundable was refused: each refusal names a balance, at the moment it was decided,
    // smaller than the payout; the balance only went down since, so what is left is smaller too.
    for (const r of refused) {
      expect(r.body.error.code).toBe('insufficient_balance');
      const [, available, amount] = (
        /\((\d+) XAF\) cannot fund this payout of (\d+) XAF/.exec(r.body.error.message) ?? []
      ).map(Number);
      expect(amounts, r.text).toContain(amount);
      expect(available, r.text).toBeLessThan(amount as number);
      expect(left, r.text).toBeLessThan(amount as number);
    }

    // Spend what is left exactly: the balance ends at zero, never below.
    if (left > 0) {
      const last = await server.raw('POST', '/payouts', {
        body: { amount: left, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
      });
      expect(last.status).toBe(202);
    }
    expect(await balanceOf(server)).toBe(0);
    await server.settle();
    for (const row of await reconcile(server)) expect(row.available).toBe(row.ledger_sum);
  });

  it('the database itself refuses a ledger row that would overdraw or break the chain', async () => {
    const { store } = server.service.deps;
    // An account of its own, empty whatever the other test left on the first one.
    const { test: as } = await server.newAccount('Empty wallet');
    const wallet = (await server.raw('GET', '/balance', { as })).body.data.wallet_id as string;
    expect(await balanceOf(server, as)).toBe(0);
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
    expect(await balanceOf(server, as)).toBe(0);
  });
});
