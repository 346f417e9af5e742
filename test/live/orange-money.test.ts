import { describe, expect, it } from 'vitest';
import { sandbox } from '../support/fixtures.js';
import { expectLedgerSound, live, liveBalance, liveShop, operatorRefOf, statusOf } from './support.js';

const h = liveShop('orange_money');
const { pay, settled } = h;

/** The Orange request of a movement: its payToken was committed before `pay`, and paid once. */
async function orangeRequestOf(table: 'payments' | 'topups' | 'payouts', id: string) {
  const { ref, token } = await operatorRefOf(h.server, table, id);
  expect(token).toMatch(/^(MP|CI)/);
  return h.orangeSim.paidByOrder().get(ref);
}

describe('live money through Orange Money (simulator over HTTP)', () => {
  it('a direct payment succeeds, credits once, and is one init and one pay at Orange', async () => {
    const before = await liveBalance(h.server);
    const payTokensBefore = h.orangeSim.tokens.size;
    const id = (await pay(sandbox.orange.succeeds, 6000)).body.data.transaction_id;
    expect(await orangeRequestOf('payments', id)).toMatchObject({
      api: 'mp',
      amount: '6000',
      subscriberMsisdn: '690000000',
      pays: 1,
    });
    expect(await settled(`/payments/${id}`)).toMatchObject({ status: 'success' });
    expect(await liveBalance(h.server)).toBe(before + 6000);
    // One init: one payToken, whatever the other tests of this file asked for before.
    expect(h.orangeSim.tokens.size).toBe(payTokensBefore + 1);
    await expectLedgerSound(h.server);
  });

  it('a payment Orange reports FAILED fails payer_declined; EXPIRED expires; nothing credited', async () => {
    const before = await liveBalance(h.server);
    const failed = (await pay(sandbox.orange.fails)).body.data.transaction_id;
    const expired = (await pay(sandbox.orange.expiresAtOperator)).body.data.transaction_id;
    expect(await settled(`/payments/${failed}`)).toMatchObject({
      status: 'failed',
      failure_code: 'payer_declined',
    });
    expect(await settled(`/payments/${expired}`)).toMatchObject({ status: 'expired' });
    expect(await liveBalance(h.server)).toBe(before);
  });

  it.each([
    ['payments', 'CANCELLED', 'failed', 'payer_declined'],
    ['payouts', 'CANCELLED', 'failed', 'recipient_rejected'],
    ['payouts', 'EXPIRED', 'failed', 'operator_timeout'],
  ] as const)('%s that Orange reports %s end %s (%s)', async (kind, outcome, status, code) => {
    const number = `690000${kind === 'payments' ? 1 : 2}${outcome === 'CANCELLED' ? 1 : 2}0`;
    h.orangeSim.setOutcome(number, outcome);
    const before = await liveBalance(h.server);
    const created =
      kind === 'payments'
        ? await pay(`237${number}`)
        : await live(h.server, 'POST', '/payouts', {
            amount: 100,
            recipient_msisdn: `237${number}`,
            payout_type: 'withdrawal',
          });
    expect(created.status).toBe(202);
    expect(await settled(`/${kind}/${created.body.data.transaction_id}`)).toMatchObject({
      status,
      failure_code: code,
    });
    expect(await liveBalance(h.server)).toBe(before);
    await expectLedgerSound(h.server);
  });

  it('a payment never approved expires at expires_at', async () => {
    const id = (await pay(sandbox.orange.neverSettles)).body.data.transaction_id;
    await h.server.settle(1000);
    expect(await statusOf(h.server, `/payments/${id}`)).toBe('initiated');
    await h.server.settle(400_000);
    expect(await statusOf(h.server, `/payments/${id}`)).toBe('expired');
  });

  it('a hosted payment paid with Orange settles through Orange', async () => {
    const created = await live(h.server, 'POST', '/payments/initiate', {
      amount: 800,
      currency: 'XAF',
      service_id: h.serviceId,
    });
    const paid = await fetch(`${created.body.data.checkout_url}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ msisdn: sandbox.orange.succeeds, payment_method: 'orange_money' }),
    });
    expect(paid.status).toBe(202);
    const id = created.body.data.transaction_id;
    expect((await orangeRequestOf('payments', id))?.pays).toBe(1);
    expect(await settled(`/payments/${id}`)).toMatchObject({ status: 'success' });
  });

  it('a top-up from an Orange number credits the balance once', async () => {
    const before = await liveBalance(h.server);
    const id = (
      await live(h.server, 'POST', '/topups', {
        amount: 50_000,
        currency: 'XAF',
        payer_msisdn: sandbox.orange.succeeds,
        payment_method: 'orange_money',
      })
    ).body.data.transaction_id;
    expect(await settled(`/topups/${id}`)).toMatchObject({ status: 'success' });
    expect(await liveBalance(h.server)).toBe(before + 50_000);
    await expectLedgerSound(h.server);
  });

  it('a payout to an Orange number is one cash-in, routed by prefix; a failed one is reversed', async () => {
    const before = await liveBalance(h.server);
    const ok = await live(h.server, 'POST', '/payouts', {
      amount: 1000,
      recipient_msisdn: sandbox.orange655,
      payout_type: 'withdrawal',
    });
    expect(ok.body.data.payment_method).toBe('orange_money');
    const failed = await live(h.server, 'POST', '/payouts', {
      amount: 2000,
      recipient_msisdn: sandbox.orange.fails,
      payout_type: 'withdrawal',
    });
    expect(await orangeRequestOf('payouts', ok.body.data.transaction_id)).toMatchObject({
      api: 'cashin',
      pays: 1,
    });
    expect(await settled(`/payouts/${ok.body.data.transaction_id}`)).toMatchObject({ status: 'success' });
    expect(await settled(`/payouts/${failed.body.data.transaction_id}`)).toMatchObject({
      status: 'failed',
      failure_code: 'recipient_rejected',
    });
    expect(await liveBalance(h.server)).toBe(before - 1000);
    await expectLedgerSound(h.server);
  });

  it('a payout Orange never settles fails operator_timeout and is reversed', async () => {
    await h.expectPayoutTimesOut({
      amount: 300,
      recipient_msisdn: sandbox.orange.neverSettles,
      payout_type: 'transfer',
    });
  });

  it('a refund of an Orange payment is one cash-in to the payer', async () => {
    const paymentId = (await pay(sandbox.orange.succeeds, 3000)).body.data.transaction_id;
    await settled(`/payments/${paymentId}`);
    const refund = await live(h.server, 'POST', '/refunds', { payment_id: paymentId });
    expect(refund.status).toBe(202);
    expect(refund.body.data.payment_method).toBe('orange_money');
    expect(await orangeRequestOf('payouts', refund.body.data.transaction_id)).toMatchObject({
      api: 'cashin',
      amount: '3000',
      pays: 1,
    });
    expect(await settled(`/payouts/${refund.body.data.transaction_id}`)).toMatchObject({ status: 'success' });
    await expectLedgerSound(h.server);
  });

  it('asks Orange for one OAuth token for the whole run', async () => {
    // Two payments of its own, whatever ran before: together they need at most one token.
    for (const amount of [300, 400]) {
      const id = (await pay(sandbox.orange.succeeds, amount)).body.data.transaction_id;
      expect(await settled(`/payments/${id}`)).toMatchObject({ status: 'success' });
    }
    expect(h.orangeSim.tokensIssued).toBe(1);
  });
});
