import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MtnMomoSimulator, startMtnMomoSimulator } from '../../scripts/simulators/mtn-momo-simulator.js';
import { sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { live, liveBalance, mtnEnv, settleUntil, statusOf } from './support.js';

/**
 * Live mode against MTN's sandbox (the simulator with targetEnvironment 'sandbox'), which takes
 * only EUR, and against Cameroon's production environment, which takes only XAF.
 */
let sim: MtnMomoSimulator;
let server: TestServer;
let serviceId: string;

beforeAll(async () => {
  sim = await startMtnMomoSimulator({ settleMs: 0, targetEnvironment: 'sandbox' });
  server = await startTestServer({ ...mtnEnv(sim), OPERATOR_TIMEOUT_MS: '1000' });
  serviceId = (await live(server, 'POST', '/services', { name: 'Shop' })).body.data.service_id;
});
afterAll(async () => {
  await server.close();
  await sim.close();
});

const payment = (currency: string, amount = 250) => ({
  amount,
  currency,
  customer_msisdn: sandbox.mtn.succeeds,
  payment_method: 'mtn_momo',
  service_id: serviceId,
});

describe("MTN's sandbox in live mode", () => {
  it('a payment in XAF is 422 currency_not_accepted naming EUR, nothing recorded or sent', async () => {
    const requests = sim.requests.size;
    const count = async () => (await live(server, 'GET', '/payments?limit=100')).body.data.items.length;
    const before = await count();
    const response = await live(server, 'POST', '/payments', payment('XAF'));
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'currency_not_accepted', param: 'currency' });
    expect(response.body.error.message).toContain('EUR');
    expect(response.body.error.message).toContain('sandbox');
    expect(await count()).toBe(before);
    expect(sim.requests.size).toBe(requests);
  });

  it('a payment in EUR cents reaches MTN in euros and settles', async () => {
    const response = await live(server, 'POST', '/payments', payment('EUR', 250));
    expect(response.status).toBe(202);
    const id = response.body.data.transaction_id;
    expect([...sim.requests.values()].at(-1)).toMatchObject({ amount: '2.50', currency: 'EUR' });
    await settleUntil(server, async () => (await statusOf(server, `/payments/${id}`)) === 'success');
    expect(await liveBalance(server, 'EUR')).toBeGreaterThanOrEqual(250);
  });

  it('payouts, bulk payouts, top-ups and hosted payments naming MTN are refused in XAF the same way', async () => {
    const refusals = await Promise.all([
      live(server, 'POST', '/payouts', {
        amount: 100,
        recipient_msisdn: sandbox.mtn.succeeds,
        payout_type: 'withdrawal',
      }),
      live(server, 'POST', '/payouts/bulk', {
        items: [{ amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' }],
      }),
      live(server, 'POST', '/topups', {
        amount: 100,
        currency: 'XAF',
        payer_msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
      }),
      live(server, 'POST', '/payments/initiate', { ...payment('XAF'), customer_msisdn: undefined }),
    ]);
    expect(refusals.map((r) => [r.status, r.body.error?.code])).toEqual(
      Array(4).fill([422, 'currency_not_accepted']),
    );
  });

  it('a payout in EUR goes through', async () => {
    const topup = await live(server, 'POST', '/topups', {
      amount: 500,
      currency: 'EUR',
      payer_msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo',
    });
    const topupId = topup.body.data.transaction_id;
    await settleUntil(server, async () => (await statusOf(server, `/topups/${topupId}`)) === 'success');
    const response = await live(server, 'POST', '/payouts', {
      amount: 100,
      currency: 'EUR',
      recipient_msisdn: sandbox.mtn.alsoSucceeds,
      payout_type: 'withdrawal',
    });
    expect(response.status).toBe(202);
    expect([...sim.requests.values()].at(-1)).toMatchObject({ amount: '1.00', currency: 'EUR' });
  });

  it('the simulator as MTN sandbox refuses a currency other than EUR itself', async () => {
    const direct = await startTestServer({
      ...mtnEnv(sim),
      MTN_MOMO_CURRENCIES: 'XAF,EUR',
      OPERATOR_TIMEOUT_MS: '1000',
    });
    try {
      const service = (await live(direct, 'POST', '/services', { name: 'Shop' })).body.data.service_id;
      const before = sim.requests.size;
      const response = await live(direct, 'POST', '/payments', { ...payment('XAF'), service_id: service });
      expect(response.status).toBe(202);
      expect(sim.requests.size).toBe(before);
    } finally {
      await direct.close();
    }
  });
});

describe("MTN's production environment in live mode", () => {
  it('takes XAF and refuses EUR, naming XAF', async () => {
    const production = await startMtnMomoSimulator({ settleMs: 0 });
    const other = await startTestServer({ ...mtnEnv(production), OPERATOR_TIMEOUT_MS: '1000' });
    try {
      const service = (await live(other, 'POST', '/services', { name: 'Shop' })).body.data.service_id;
      const eur = await live(other, 'POST', '/payments', { ...payment('EUR'), service_id: service });
      expect(eur.status).toBe(422);
      expect(eur.body.error.message).toContain('XAF');
      const xaf = await live(other, 'POST', '/payments', { ...payment('XAF'), service_id: service });
      expect(xaf.status).toBe(202);
    } finally {
      await other.close();
      await production.close();
    }
  });
});
