import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, fund, sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Numbers as people write them, stored in one form; a payment method that cannot reach the number refused. */
let server: TestServer;
let serviceId: string;

beforeAll(async () => {
  server = await startTestServer();
  serviceId = await createService(server);
  await fund(server, 100_000);
});
afterAll(() => server.close());

const pay = (customer_msisdn: string, payment_method = 'mtn_momo') =>
  server.raw('POST', '/payments', {
    body: { amount: 500, currency: 'XAF', customer_msisdn, payment_method, service_id: serviceId },
  });

describe('phone numbers', () => {
  it.each([
    ['+237 6 70 00 00 00', 'spaces and +'],
    ['00237670000000', '00 before the country code'],
    ['670000000', 'nine national digits'],
    ['+237 (670) 00-00.00', 'brackets, dashes and dots'],
    ['237670000000', 'the stored form itself'],
  ])('%s (%s) is stored as 237670000000', async (written) => {
    const response = await pay(written);
    expect(response.status).toBe(202);
    expect(response.body.data.customer_msisdn).toBe(sandbox.mtn.succeeds);
    const read = await server.raw('GET', `/payments/${response.body.data.transaction_id}`);
    expect(read.body.data.customer_msisdn).toBe(sandbox.mtn.succeeds);
  });

  it('payouts and top-ups take the same forms', async () => {
    const payout = await server.raw('POST', '/payouts', {
      body: { amount: 100, recipient_msisdn: '+237 690 00 00 00', payout_type: 'withdrawal' },
    });
    expect(payout.status).toBe(202);
    expect(payout.body.data).toMatchObject({
      recipient_msisdn: sandbox.orange.succeeds,
      payment_method: 'orange_money',
    });
    const topup = await server.raw('POST', '/topups', {
      body: { amount: 100, currency: 'XAF', payer_msisdn: '00237 670 000 000', payment_method: 'mtn_momo' },
    });
    expect(topup.status).toBe(202);
    expect(topup.body.data.payer_msisdn).toBe(sandbox.mtn.succeeds);
  });

  it.each([
    ['23767000000', 'a Cameroonian number one digit short'],
    ['+237 6700 000 000', 'one digit too many'],
    ['0670000000', 'a national number with a leading 0'],
    ['+', 'no digits'],
  ])('%s (%s) is 400 invalid_msisdn naming the expected form', async (written) => {
    const response = await pay(written);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_msisdn', param: 'customer_msisdn' });
    expect(response.body.error.message).toContain('237670000000');
  });

  it('a payment whose payment_method is not the number’s network is 422 network_mismatch, nothing recorded', async () => {
    const before = (await server.raw('GET', '/payments?limit=100')).body.data.items.length;
    const response = await pay(sandbox.mtn.succeeds, 'orange_money');
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'network_mismatch', param: 'payment_method' });
    expect(response.body.error.message).toContain('mtn_momo');
    expect((await server.raw('GET', '/payments?limit=100')).body.data.items).toHaveLength(before);
  });

  const mtnNumberPaidByOrange = { payment_method: 'orange_money', customer_msisdn: sandbox.mtn.succeeds };
  const elsewhere: Array<[what: string, path: string, body: () => object, param: string]> = [
    [
      'a payout',
      '/payouts',
      () => ({
        amount: 100,
        recipient_msisdn: sandbox.orange.succeeds,
        payout_type: 'withdrawal',
        payment_method: 'mtn_momo',
      }),
      'payment_method',
    ],
    [
      'a bulk item',
      '/payouts/bulk',
      () => ({
        items: [
          {
            amount: 100,
            recipient_msisdn: sandbox.mtn.succeeds,
            payout_type: 'withdrawal',
            payment_method: 'orange_money',
          },
        ],
      }),
      'items[0].payment_method',
    ],
    [
      'a top-up',
      '/topups',
      () => ({
        amount: 100,
        currency: 'XAF',
        payer_msisdn: sandbox.orange.succeeds,
        payment_method: 'mtn_momo',
      }),
      'payment_method',
    ],
    [
      'a hosted payment',
      '/payments/initiate',
      () => ({ amount: 100, currency: 'XAF', service_id: serviceId, ...mtnNumberPaidByOrange }),
      'payment_method',
    ],
  ];
  for (const [what, path, body, param] of elsewhere) {
    it(`${what} to a number of another network is refused the same way`, async () => {
      const response = await server.raw('POST', path, { body: body() });
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'network_mismatch', param });
    });
  }

  it('a number of no listed network goes to the payment method named', async () => {
    const response = await pay(sandbox.nexttel, 'orange_money');
    expect(response.status).toBe(202);
  });
});
