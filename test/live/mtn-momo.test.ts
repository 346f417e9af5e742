import { describe, expect, it } from 'vitest';
import { sandbox } from '../support/fixtures.js';
import { expectLedgerSound, live, liveBalance, liveShop, operatorRefOf, statusOf } from './support.js';

const h = liveShop('mtn_momo');
const { pay, settled } = h;
let nextNumber = 100;
/** A fresh MTN number (ending 7 or 8: no simulator digit rule) for an outcome set per number. */
const freshMtnNumber = (last: string) => `23767000${String(nextNumber++).padStart(3, '0')}${last}`;

describe('live payments through MTN MoMo (simulator over HTTP)', () => {
  it('a direct payment succeeds, credits the balance once, and is one requesttopay at MTN', async () => {
    const before = await liveBalance(h.server);
    const created = await pay(sandbox.mtn.succeeds, 5000);
    expect(created.status).toBe(202);
    const id = created.body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payments', id);
    const recorded = h.mtnSim.requests.get(ref);
    expect(recorded).toMatchObject({
      product: 'collection',
      amount: '5000',
      currency: 'XAF',
      msisdn: sandbox.mtn.succeeds,
      posts: 1,
    });
    expect(await settled(`/payments/${id}`)).toMatchObject({ status: 'success', failure_code: null });
    await h.server.settle();
    expect(await liveBalance(h.server)).toBe(before + 5000);
    expect(h.mtnSim.requests.get(ref)?.posts).toBe(1);
    await expectLedgerSound(h.server);
  });

  it.each([
    ['APPROVAL_REJECTED', 'failed', 'payer_declined'],
    ['PAYER_NOT_FOUND', 'failed', 'payer_declined'],
    ['NOT_ENOUGH_FUNDS', 'failed', 'payer_declined'],
    ['PAYER_LIMIT_REACHED', 'failed', 'payer_declined'],
    ['SENDER_ACCOUNT_NOT_ACTIVE', 'failed', 'payer_declined'],
    ['INTERNAL_PROCESSING_ERROR', 'failed', 'operator_error'],
    ['NOT_ALLOWED', 'failed', 'operator_error'],
    ['EXPIRED', 'expired', null],
    ['COULD_NOT_PERFORM_TRANSACTION', 'expired', null],
  ])('FAILED with reason %s ends the payment %s (%s) and credits nothing', async (reason, status, code) => {
    const number = `2376700${String(Math.floor(Math.random() * 90000) + 10000)}`
      .slice(0, 12)
      .replace(/.$/, '7');
    h.mtnSim.setOutcome(number, { status: 'FAILED', reason });
    const before = await liveBalance(h.server);
    const id = (await pay(number)).body.data.transaction_id;
    expect(await settled(`/payments/${id}`)).toMatchObject({ status, failure_code: code });
    expect(await liveBalance(h.server)).toBe(before);
    await expectLedgerSound(h.server);
  });

  it('a payment the customer never approves expires at expires_at, credits nothing', async () => {
    const before = await liveBalance(h.server);
    const id = (await pay(sandbox.mtn.neverSettles)).body.data.transaction_id;
    await h.server.settle(1000);
    expect(await statusOf(h.server, `/payments/${id}`)).toBe('initiated');
    await h.server.settle(400_000);
    expect(await statusOf(h.server, `/payments/${id}`)).toBe('expired');
    expect(await liveBalance(h.server)).toBe(before);
  });

  it('a hosted payment is charged through MTN when the customer pays on the checkout page', async () => {
    const before = await liveBalance(h.server);
    const created = await live(h.server, 'POST', '/payments/initiate', {
      amount: 2500,
      currency: 'XAF',
      service_id: h.serviceId,
    });
    expect(created.status).toBe(202);
    const paid = await fetch(`${created.body.data.checkout_url}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ msisdn: sandbox.mtn.succeeds, payment_method: 'mtn_momo' }),
    });
    expect(paid.status).toBe(202);
    const id = created.body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payments', id);
    expect(h.mtnSim.requests.get(ref)?.posts).toBe(1);
    expect(await settled(`/payments/${id}`)).toMatchObject({ status: 'success' });
    expect(await liveBalance(h.server)).toBe(before + 2500);
  });

  it('POST /payments/direct is the same flow', async () => {
    const created = await live(h.server, 'POST', '/payments/direct', {
      amount: 1200,
      currency: 'XAF',
      customer_msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo',
      service_id: h.serviceId,
    });
    expect(created.status).toBe(202);
    expect(await settled(`/payments/${created.body.data.transaction_id}`)).toMatchObject({
      status: 'success',
    });
  });
});

describe('live top-ups and payouts through MTN MoMo', () => {
  it('a top-up from an MTN number credits the Main Balance once', async () => {
    const before = await liveBalance(h.server);
    const created = await live(h.server, 'POST', '/topups', {
      amount: 100_000,
      currency: 'XAF',
      payer_msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo',
    });
    expect(created.status).toBe(202);
    expect(await settled(`/topups/${created.body.data.transaction_id}`)).toMatchObject({ status: 'success' });
    expect(await liveBalance(h.server)).toBe(before + 100_000);
    await expectLedgerSound(h.server);
  });

  it('a payout to an MTN number is routed to MTN by its prefix, is one transfer, and debits once', async () => {
    const before = await liveBalance(h.server);
    const created = await live(h.server, 'POST', '/payouts', {
      amount: 3000,
      recipient_msisdn: sandbox.mtn650,
      payout_type: 'withdrawal',
    });
    expect(created.status).toBe(202);
    expect(created.body.data.payment_method).toBe('mtn_momo');
    const id = created.body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payouts', id);
    expect(h.mtnSim.requests.get(ref)).toMatchObject({ product: 'disbursement', amount: '3000', posts: 1 });
    expect(await settled(`/payouts/${id}`)).toMatchObject({ status: 'success' });
    expect(await liveBalance(h.server)).toBe(before - 3000);
    await expectLedgerSound(h.server);
  });

  it.each([
    ['PAYEE_NOT_FOUND', 'recipient_rejected'],
    ['PAYEE_NOT_ALLOWED_TO_RECEIVE', 'recipient_rejected'],
    ['NOT_ENOUGH_FUNDS', 'operator_error'],
    ['INTERNAL_PROCESSING_ERROR', 'operator_error'],
    ['EXPIRED', 'operator_timeout'],
  ])('a transfer FAILED with %s fails the payout (%s) and returns the amount', async (reason, code) => {
    const number = freshMtnNumber('8');
    h.mtnSim.setOutcome(number, { status: 'FAILED', reason });
    const before = await liveBalance(h.server);
    const id = (
      await live(h.server, 'POST', '/payouts', {
        amount: 700,
        recipient_msisdn: number,
        payout_type: 'withdrawal',
      })
    ).body.data.transaction_id;
    expect(await settled(`/payouts/${id}`)).toMatchObject({ status: 'failed', failure_code: code });
    expect(await liveBalance(h.server)).toBe(before);
    await expectLedgerSound(h.server);
  });

  it('a transfer MTN never settles fails operator_timeout at the payout timeout and is reversed', async () => {
    await h.expectPayoutTimesOut({
      amount: 900,
      recipient_msisdn: sandbox.mtn.neverSettles,
      payout_type: 'withdrawal',
    });
  });

  it('a bulk payout sends each item to its own network, one request each', async () => {
    const before = await liveBalance(h.server);
    const created = await live(h.server, 'POST', '/payouts/bulk', {
      currency: 'XAF',
      items: [
        { amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
        { amount: 200, recipient_msisdn: sandbox.orange.succeeds, payout_type: 'withdrawal' },
        { amount: 300, recipient_msisdn: sandbox.mtn.fails, payout_type: 'withdrawal' },
      ],
    });
    expect(created.status).toBe(202);
    const items = created.body.data.items as Array<{ transaction_id: string; payment_method: string }>;
    expect(items.map((p) => p.payment_method)).toEqual(['mtn_momo', 'orange_money', 'mtn_momo']);
    for (const item of items) await settled(`/payouts/${item.transaction_id}`);
    const [first, second, third] = items as [(typeof items)[0], (typeof items)[0], (typeof items)[0]];
    expect(
      h.mtnSim.requests.get((await operatorRefOf(h.server, 'payouts', first.transaction_id)).ref)?.posts,
    ).toBe(1);
    expect(
      h.mtnSim.requests.get((await operatorRefOf(h.server, 'payouts', third.transaction_id)).ref)?.posts,
    ).toBe(1);
    const orangeRef = (await operatorRefOf(h.server, 'payouts', second.transaction_id)).ref;
    expect(h.orangeSim.paidByOrder().get(orangeRef)?.pays).toBe(1);
    expect(await statusOf(h.server, `/payouts/${third.transaction_id}`)).toBe('failed');
    expect(await liveBalance(h.server)).toBe(before - 300);
    await expectLedgerSound(h.server);
  });

  it('a refund of an MTN payment is one transfer back to the payer through MTN', async () => {
    const paymentId = (await pay(sandbox.mtn.succeeds, 4000)).body.data.transaction_id;
    await settled(`/payments/${paymentId}`);
    const before = await liveBalance(h.server);
    const refund = await live(h.server, 'POST', '/refunds', { payment_id: paymentId, amount: 1500 });
    expect(refund.status).toBe(202);
    const { ref } = await operatorRefOf(h.server, 'payouts', refund.body.data.transaction_id);
    expect(h.mtnSim.requests.get(ref)).toMatchObject({
      product: 'disbursement',
      msisdn: sandbox.mtn.succeeds,
      amount: '1500',
      posts: 1,
    });
    expect(await settled(`/payouts/${refund.body.data.transaction_id}`)).toMatchObject({ status: 'success' });
    expect(await liveBalance(h.server)).toBe(before - 1500);
    await expectLedgerSound(h.server);
  });

  it('asks MTN for one token per product, not one per call', async () => {
    // Two collections and two transfers of its own, whatever ran before: one token per product.
    for (const amount of [300, 400]) {
      const paymentId = (await pay(sandbox.mtn.succeeds, amount)).body.data.transaction_id;
      expect(await settled(`/payments/${paymentId}`)).toMatchObject({ status: 'success' });
      const payout = await live(h.server, 'POST', '/payouts', {
        amount,
        recipient_msisdn: sandbox.mtn.succeeds,
        payout_type: 'withdrawal',
      });
      expect(await settled(`/payouts/${payout.body.data.transaction_id}`)).toMatchObject({
        status: 'success',
      });
    }
    expect(h.mtnSim.tokensIssued).toEqual({ collection: 1, disbursement: 1 });
  });
});
