import { beforeAll, describe, expect, it } from 'vitest';
import { settlePayout } from '../../server/domain/settlement.js';
import { balanceOf, collect, createService, fund, sandbox } from '../support/fixtures.js';
import { reconcile, useTestServer } from '../support/server.js';

const server = useTestServer();

async function ledger(as = server.test) {
  const response = await server.raw('GET', '/balance/transactions', { as, query: { limit: 100 } });
  return response.body.data.items as Array<{
    type: string;
    amount: number;
    source_id: string;
    balance_after: number;
  }>;
}

describe('POST /payouts', () => {
  it('the specification, rule 1 > when the Main Balance is short, answers 403 insufficient_balance and moves nothing', async () => {
    const fresh = await server.newAccount('Short');
    await fund(server, 1000, fresh.test);
    const before = await ledger(fresh.test);
    const response = await server.raw('POST', '/payouts', {
      as: fresh.test,
      body: { amount: 1001, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('insufficient_balance');
    expect(await balanceOf(server, fresh.test)).toBe(1000);
    expect(await ledger(fresh.test)).toEqual(before);
    const payouts = await server.raw('GET', '/payouts', { as: fresh.test });
    expect(payouts.body.data.items).toEqual([]);
  });

  it('debits when accepted (pending), and stays debited when the operator pays', async () => {
    await fund(server, 10_000);
    const before = await balanceOf(server);
    const response = await server.raw('POST', '/payouts', {
      body: {
        amount: 4000,
        recipient_msisdn: sandbox.mtn.succeeds,
        payout_type: 'withdrawal',
        reference: 'p-1',
      },
    });
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({
      status: 'pending',
      currency: 'XAF',
      payout_type: 'withdrawal',
    });
    expect(await balanceOf(server)).toBe(before - 4000);
    await server.settle();
    const payout = await server.raw('GET', `/payouts/${response.body.data.transaction_id}`);
    expect(payout.body.data.status).toBe('success');
    expect(await balanceOf(server)).toBe(before - 4000);
  });

  it('when the operator refuses (number ending in 1) > ends failed and the amount comes back', async () => {
    await fund(server, 5000);
    const before = await balanceOf(server);
    const response = await server.raw('POST', '/payouts', {
      body: { amount: 2500, recipient_msisdn: sandbox.mtn.fails, payout_type: 'transfer' },
    });
    const id = response.body.data.transaction_id;
    expect(await balanceOf(server)).toBe(before - 2500);
    await server.settle();
    const payout = await server.raw('GET', `/payouts/${id}`);
    expect(payout.body.data).toMatchObject({ status: 'failed', failure_code: 'recipient_rejected' });
    expect(await balanceOf(server)).toBe(before);
    const entries = (await ledger()).filter((e) => e.source_id === id).map((e) => [e.type, e.amount]);
    expect(entries).toEqual([
      ['payout_reversal', 2500],
      ['payout', -2500],
    ]);
    const events = await server.raw('GET', '/events', { query: { transaction_id: id } });
    expect(events.body.data.items.map((e: { event: string }) => e.event)).toEqual(['payout.failed']);
  });

  it('when the operator never answers (number ending in 4) > fails with operator_timeout and is reversed', async () => {
    await fund(server, 3000);
    const before = await balanceOf(server);
    const response = await server.raw('POST', '/payouts', {
      body: { amount: 3000, recipient_msisdn: sandbox.mtn.neverSettles, payout_type: 'withdrawal' },
    });
    await server.settle(10_000);
    expect((await server.raw('GET', `/payouts/${response.body.data.transaction_id}`)).body.data.status).toBe(
      'pending',
    );
    await server.settle(300_000);
    const payout = await server.raw('GET', `/payouts/${response.body.data.transaction_id}`);
    expect(payout.body.data).toMatchObject({ status: 'failed', failure_code: 'operator_timeout' });
    expect(await balanceOf(server)).toBe(before);
  });

  it('the specification, rule 5 > neither or both recipients is 400 invalid_recipient, naming recipient_msisdn as the contract does', async () => {
    for (const body of [
      { amount: 100, payout_type: 'transfer' },
      {
        amount: 100,
        payout_type: 'transfer',
        recipient_msisdn: sandbox.mtn.succeeds,
        recipient_wallet_id: 'wal_000000000000000000000000',
      },
    ]) {
      const response = await server.raw('POST', '/payouts', { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_recipient', param: 'recipient_msisdn' });
    }
  });

  it('a withdrawal to a wallet is 400 invalid_recipient: withdrawals go to a Mobile Money number', async () => {
    const other = await server.newAccount('Other');
    const wallet = (await server.raw('GET', '/balance', { as: other.test })).body.data.wallet_id;
    const response = await server.raw('POST', '/payouts', {
      body: { amount: 100, payout_type: 'withdrawal', recipient_wallet_id: wallet },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_recipient', param: 'recipient_wallet_id' });
  });

  it('a transfer to another user wallet completes at once and credits them', async () => {
    const other = await server.newAccount('Recipient');
    const wallet = (await server.raw('GET', '/balance', { as: other.test })).body.data.wallet_id;
    await fund(server, 2000);
    const before = await balanceOf(server);
    const response = await server.raw('POST', '/payouts', {
      body: { amount: 1500, payout_type: 'transfer', recipient_wallet_id: wallet },
    });
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({
      status: 'success',
      recipient_wallet_id: wallet,
      recipient_msisdn: null,
    });
    expect(await balanceOf(server)).toBe(before - 1500);
    expect(await balanceOf(server, other.test)).toBe(1500);
    const incoming = await ledger(other.test);
    expect(incoming).toEqual([
      expect.objectContaining({ type: 'transfer_in', amount: 1500, balance_after: 1500 }),
    ]);
  });

  it('a transfer to your own wallet is 422 self_transfer; to an unknown one 422 wallet_not_found', async () => {
    const own = (await server.raw('GET', '/balance')).body.data.wallet_id;
    const self = await server.raw('POST', '/payouts', {
      body: { amount: 1, payout_type: 'transfer', recipient_wallet_id: own },
    });
    expect(self.status).toBe(422);
    expect(self.body.error.code).toBe('self_transfer');
    const unknown = await server.raw('POST', '/payouts', {
      body: { amount: 1, payout_type: 'transfer', recipient_wallet_id: 'wal_000000000000000000000000' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('wallet_not_found');
  });

  it('the currency defaults to the account default currency (XAF)', async () => {
    await fund(server, 100);
    const response = await server.raw('POST', '/payouts', {
      body: { amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
    });
    expect(response.body.data.currency).toBe('XAF');
  });
});

describe('POST /payouts/bulk', () => {
  it('creates every payout of the batch, tagged with its bulk_id, debiting the total', async () => {
    const fresh = await server.newAccount('Bulk');
    await fund(server, 10_000, fresh.test);
    const response = await server.raw('POST', '/payouts/bulk', {
      as: fresh.test,
      body: {
        currency: 'XAF',
        items: [
          { amount: 1000, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
          { amount: 2000, recipient_msisdn: sandbox.mtn.fails, payout_type: 'transfer', reference: 'r2' },
        ],
      },
    });
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ count: 2, total_amount: 3000, currency: 'XAF' });
    expect(await balanceOf(server, fresh.test)).toBe(7000);
    const listed = await server.raw('GET', '/payouts', {
      as: fresh.test,
      query: { bulk_id: response.body.data.bulk_id },
    });
    expect(listed.body.data.items).toHaveLength(2);
    await server.settle();
    expect(await balanceOf(server, fresh.test)).toBe(9000);
  });

  it('is all or nothing: a total the balance cannot fund is 403 and creates no payout', async () => {
    const fresh = await server.newAccount('Bulk short');
    await fund(server, 2500, fresh.test);
    const response = await server.raw('POST', '/payouts/bulk', {
      as: fresh.test,
      body: {
        items: [
          { amount: 2000, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
          { amount: 1000, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
        ],
      },
    });
    expect(response.status).toBe(403);
    expect(await balanceOf(server, fresh.test)).toBe(2500);
    expect((await server.raw('GET', '/payouts', { as: fresh.test })).body.data.items).toEqual([]);
  });

  it('one bad item refuses the whole batch, naming the item', async () => {
    const fresh = await server.newAccount('Bulk bad');
    await fund(server, 5000, fresh.test);
    const response = await server.raw('POST', '/payouts/bulk', {
      as: fresh.test,
      body: {
        items: [
          { amount: 1000, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
          { amount: 1000, recipient_wallet_id: 'wal_000000000000000000000000', payout_type: 'transfer' },
        ],
      },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: 'wallet_not_found',
      param: 'items[1].recipient_wallet_id',
    });
    expect(await balanceOf(server, fresh.test)).toBe(5000);
  });

  it('more than 100 items is 400 too_many_items', async () => {
    const items = Array.from({ length: 101 }, () => ({
      amount: 1,
      recipient_msisdn: sandbox.mtn.succeeds,
      payout_type: 'withdrawal',
    }));
    const response = await server.raw('POST', '/payouts/bulk', { body: { items } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('too_many_items');
  });
});

describe('POST /refunds', () => {
  let serviceId: string;
  beforeAll(async () => {
    serviceId = await createService(server);
  });

  it('refunds part of a successful payment to its payer, then the rest, never more', async () => {
    const paymentId = await collect(server, serviceId, 5000);
    await server.settle();
    const first = await server.raw('POST', '/refunds', { body: { payment_id: paymentId, amount: 2000 } });
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({
      payout_type: 'refund',
      payment_id: paymentId,
      recipient_msisdn: sandbox.mtn.succeeds,
      amount: 2000,
      status: 'pending',
    });
    const rest = await server.raw('POST', '/refunds', { body: { payment_id: paymentId } });
    expect(rest.status).toBe(202);
    expect(rest.body.data.amount).toBe(3000);
    const more = await server.raw('POST', '/refunds', { body: { payment_id: paymentId, amount: 1 } });
    expect(more.status).toBe(422);
    expect(more.body.error.code).toBe('refund_exceeds_payment');
    const payment = await server.raw('GET', `/payments/${paymentId}`);
    expect(payment.body.data.refunded_amount).toBe(5000);
  });

  it('a failed refund gives back its amount to the balance and to the payment', async () => {
    // The sandbox cannot make a refund fail (it goes to a payer whose payment succeeded), so the
    // operator's refusal is applied directly through the settlement domain function.
    const paymentId = await collect(server, serviceId, 4000, sandbox.mtn.succeeds);
    await server.settle();
    const before = await balanceOf(server);
    const refund = await server.raw('POST', '/refunds', {
      body: { payment_id: paymentId, amount: 1000 },
    });
    expect(refund.status).toBe(202);
    expect(await balanceOf(server)).toBe(before - 1000);
    const { store } = server.service.deps;
    const applied = await store.transact(async (tx) => {
      const row = await tx.payouts.get(server.account.accountId, 'test', refund.body.data.transaction_id);
      if (!row) throw new Error('refund row missing');
      return settlePayout(tx, row, { status: 'failed', failureCode: 'operator_error' }, server.clock.now());
    });
    expect(applied).toBe(true);
    expect(await balanceOf(server)).toBe(before);
    expect((await server.raw('GET', `/payments/${paymentId}`)).body.data.refunded_amount).toBe(0);
    const again = await server.raw('POST', '/refunds', { body: { payment_id: paymentId } });
    expect(again.body.data.amount).toBe(4000);
  });

  it('a payment that did not succeed is 409 payment_not_refundable', async () => {
    const paymentId = await collect(server, serviceId, 4000, sandbox.mtn.fails);
    await server.settle();
    const response = await server.raw('POST', '/refunds', { body: { payment_id: paymentId } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('payment_not_refundable');
  });

  it('an unknown payment is 404', async () => {
    const response = await server.raw('POST', '/refunds', {
      body: { payment_id: 'pay_000000000000000000000000' },
    });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('resource_not_found');
  });
});

describe('the ledger', () => {
  it('every balance equals the sum of its ledger after payouts that succeed, fail and time out', async () => {
    await fund(server, 9000);
    for (const recipient of [sandbox.mtn.succeeds, sandbox.mtn.fails, sandbox.mtn.neverSettles]) {
      const sent = await server.raw('POST', '/payouts', {
        body: { amount: 1000, recipient_msisdn: recipient, payout_type: 'withdrawal' },
      });
      expect(sent.status).toBe(202);
    }
    await server.settle(600_000);
    const rows = await reconcile(server);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.available).toBe(row.ledger_sum);
  });
});
