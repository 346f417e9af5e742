import { describe, expect, it } from 'vitest';
import { balanceOf, collect, createService, fund, sandbox } from '../support/fixtures.js';
import { startServiceOn, startTestServer } from '../support/server.js';

describe('settlement after a restart', () => {
  it('pending payments and payouts settle once the service is back on the same file', async () => {
    const server = await startTestServer();
    const serviceId = await createService(server);
    await fund(server, 5000);
    const paymentId = await collect(server, serviceId, 2000);
    const payout = await server.raw('POST', '/payouts', {
      body: { amount: 1500, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
    });
    expect(await balanceOf(server)).toBe(3500);
    await server.service.close();

    // A second service on the same database file, with the clock past the settle delay.
    server.clock.advance(2000);
    const again = await startServiceOn(server);
    try {
      expect(await again.settlement.runOnce()).toBe(2);
      const payment = await again.deps.store.read(async (tx) => tx.payments.byId(paymentId));
      expect(payment?.status).toBe('success');
      const payoutRow = await again.deps.store.read(async (tx) =>
        tx.payouts.get(server.account.accountId, 'test', payout.body.data.transaction_id),
      );
      expect(payoutRow?.status).toBe('success');
      const balances = await again.deps.store.read(async (tx) => tx.ledger.reconcile());
      for (const row of balances) expect(row.available).toBe(row.ledger_sum);
      expect(balances.find((b) => b.currency === 'XAF')?.available).toBe(5500);
    } finally {
      await again.close();
      await server.close();
    }
  });
});
