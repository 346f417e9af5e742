import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMtnMomoSimulator } from '../../scripts/simulators/mtn-momo-simulator.js';
import { sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { expectLedgerSound, live, liveBalance, mtnEnv, settleUntil, statusOf } from './support.js';

/** Live mode with only MTN MoMo connected: Orange numbers and Nexttel numbers have no operator. */
let server: TestServer;
let sim: Awaited<ReturnType<typeof startMtnMomoSimulator>>;
let serviceId: string;

beforeAll(async () => {
  sim = await startMtnMomoSimulator({ settleMs: 0 });
  server = await startTestServer({ ...mtnEnv(sim), OPERATOR_TIMEOUT_MS: '1000' });
  serviceId = (await live(server, 'POST', '/services', { name: 'Shop' })).body.data.service_id;
  const topup = await live(server, 'POST', '/topups', {
    amount: 10_000,
    currency: 'XAF',
    payer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo',
  });
  await settleUntil(
    server,
    async () => (await statusOf(server, `/topups/${topup.body.data.transaction_id}`)) === 'success',
  );
});
afterAll(async () => {
  await server.close();
  await sim.close();
});

describe('routing in live mode', () => {
  it('a payout to a number no connected operator serves is 422 unsupported_network, nothing debited', async () => {
    const before = await liveBalance(server);
    const requests = sim.requests.size;
    const payoutIds = async () =>
      ((await live(server, 'GET', '/payouts?limit=100')).body.data.items as Array<{ transaction_id: string }>)
        .map((p) => p.transaction_id)
        .sort();
    const payoutsBefore = await payoutIds();
    for (const number of [sandbox.orange.succeeds, sandbox.nexttel]) {
      const response = await live(server, 'POST', '/payouts', {
        amount: 500,
        recipient_msisdn: number,
        payout_type: 'withdrawal',
      });
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'unsupported_network', param: 'recipient_msisdn' });
    }
    const bulk = await live(server, 'POST', '/payouts/bulk', {
      items: [
        { amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
        { amount: 100, recipient_msisdn: sandbox.orange.succeeds, payout_type: 'withdrawal' },
      ],
    });
    expect(bulk.status).toBe(422);
    expect(bulk.body.error).toMatchObject({
      code: 'unsupported_network',
      param: 'items[1].recipient_msisdn',
    });
    expect(await liveBalance(server)).toBe(before);
    expect(sim.requests.size).toBe(requests);
    expect(await payoutIds()).toEqual(payoutsBefore);
    await expectLedgerSound(server);
  });

  it('a payment or top-up naming an operator that is not connected is 422 unsupported_network', async () => {
    const payment = await live(server, 'POST', '/payments', {
      amount: 500,
      currency: 'XAF',
      customer_msisdn: sandbox.orange.succeeds,
      payment_method: 'orange_money',
      service_id: serviceId,
    });
    expect(payment.status).toBe(422);
    expect(payment.body.error).toMatchObject({ code: 'unsupported_network', param: 'payment_method' });
    const topup = await live(server, 'POST', '/topups', {
      amount: 500,
      currency: 'XAF',
      payer_msisdn: sandbox.orange.succeeds,
      payment_method: 'orange_money',
    });
    expect(topup.status).toBe(422);
    expect(topup.body.error.code).toBe('unsupported_network');
    expect((await live(server, 'GET', '/payments')).body.data.items).toHaveLength(0);
  });

  it('payment_method on a payout chooses the operator explicitly, whatever the prefix', async () => {
    const toNexttel = (payment_method: string) =>
      live(server, 'POST', '/payouts', {
        amount: 300,
        recipient_msisdn: sandbox.nexttel,
        payout_type: 'withdrawal',
        payment_method,
      });
    const response = await toNexttel('mtn_momo');
    expect(response.status).toBe(202);
    expect(response.body.data.payment_method).toBe('mtn_momo');
    const refused = await toNexttel('orange_money');
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'unsupported_network', param: 'payment_method' });
  });

  it('payment_method with a wallet recipient is refused', async () => {
    const response = await live(server, 'POST', '/payouts', {
      amount: 300,
      recipient_wallet_id: 'wal_oGqJtpGseJzuyYmdiytIQWSY',
      payout_type: 'transfer',
      payment_method: 'mtn_momo',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_recipient');
  });

  it('the sandbox keeps serving every number with its magic endings', async () => {
    const response = await server.raw('POST', '/payouts', {
      body: { amount: 1, recipient_msisdn: sandbox.nexttelFails, payout_type: 'withdrawal' },
    });
    // The sandbox balance is empty: refused for the balance, not for the network.
    expect(response.body.error.code).toBe('insufficient_balance');
  });
});
