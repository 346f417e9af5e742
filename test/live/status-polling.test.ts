import { describe, expect, it } from 'vitest';
import { startMtnMomoSimulator } from '../../scripts/simulators/mtn-momo-simulator.js';
import { sandbox } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';
import { live, mtnEnv, settleUntil, statusOf } from './support.js';

/** Status polling in live mode stays within the operator's published limits. */
async function harness(options: { pace: number; limit?: number; slowMs?: number }) {
  const sim = await startMtnMomoSimulator({
    settleMs: 0,
    ...(options.limit ? { rateLimitPerSecond: options.limit } : {}),
  });
  const server = await startTestServer({
    ...mtnEnv(sim),
    OPERATOR_TIMEOUT_MS: '2000',
    MTN_MOMO_REQUESTS_PER_SECOND: String(options.pace),
  });
  const service = (await live(server, 'POST', '/services', { name: 'Shop' })).body.data.service_id;
  const pay = (msisdn: string) =>
    live(server, 'POST', '/payments', {
      amount: 100,
      currency: 'XAF',
      customer_msisdn: msisdn,
      payment_method: 'mtn_momo',
      service_id: service,
    });
  return {
    sim,
    server,
    pay,
    close: async () => {
      await server.close();
      await sim.close();
    },
  };
}

describe('status polling in live mode', () => {
  it('many pending payments are asked about at the configured pace, under the operator limit, no 429', async () => {
    const h = await harness({ pace: 4, limit: 5 });
    try {
      await Promise.all(Array.from({ length: 12 }, () => h.pay(sandbox.mtn.neverSettles)));
      const started = Date.now();
      while (Date.now() - started < 3000) await h.server.settle(1000);
      expect([...h.sim.statusChecks.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(h.sim.busiestSecond('collection')).toBeLessThanOrEqual(5);
      expect(h.sim.rateLimited).toBe(0);
    } finally {
      await h.close();
    }
  });

  it('a 429 is honoured: the product waits for its Retry-After, and the payment still settles', async () => {
    const h = await harness({ pace: 50, limit: 2 });
    try {
      const payments = await Promise.all([h.pay(sandbox.mtn.succeeds), h.pay(sandbox.mtn.alsoSucceeds)]);
      const ids = payments.map((p) => p.body.data.transaction_id as string);
      await settleUntil(
        h.server,
        async () =>
          (await Promise.all(ids.map((id) => statusOf(h.server, `/payments/${id}`)))).every(
            (s) => s === 'success',
          ),
        { timeoutMs: 20_000 },
      );
      expect(h.sim.rateLimited).toBeGreaterThan(0);
      // After each 429 the product paused a second: never many calls in one second.
      expect(h.sim.busiestSecond('collection')).toBeLessThanOrEqual(6);
    } finally {
      await h.close();
    }
  });

  it('never asks about a payment before its request was sent', async () => {
    const h = await harness({ pace: 8 });
    try {
      h.sim.faults.slowMs = 1500;
      const posting = h.pay(sandbox.mtn.succeeds);
      let passes = 0;
      const polling = (async () => {
        while (h.sim.requests.size === 0 && passes < 50) {
          // Steps well inside the send window (6 operator timeouts): only "not sent yet" stops a check.
          await h.server.settle(100);
          passes++;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      await polling;
      const checksBeforeSent = [...h.sim.statusChecks.values()].reduce((a, b) => a + b, 0);
      h.sim.faults.slowMs = 0;
      const id = (await posting).body.data.transaction_id;
      expect(passes).toBeGreaterThan(0);
      expect(checksBeforeSent).toBe(0);
      // Once sent, it is asked about at the next poll, not after the send window.
      await h.server.settle(300);
      expect(await statusOf(h.server, `/payments/${id}`)).toBe('success');
    } finally {
      await h.close();
    }
  });
});
