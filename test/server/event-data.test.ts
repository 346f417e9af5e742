/**
 * Event data carries what an integrator reconciles with: the payment's service_id and
 * reference, and for refunds the payment they return, announced as refund.completed or
 * refund.failed (besides the payout.* every payout has).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settlePayout } from '../../server/domain/settlement.js';
import { createService, fund, sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startReceiver } from '../support/webhook-receiver.js';

let server: TestServer;

beforeEach(async () => {
  // The receiver is on 127.0.0.1: sandbox endpoints may be local only with this opt-in.
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
});
afterEach(() => server.close());

async function eventsOf(transactionId: string) {
  const response = await server.raw('GET', '/events', { query: { transaction_id: transactionId } });
  expect(response.status).toBe(200);
  return response.body.data.items as Array<{ event: string; data: Record<string, unknown> }>;
}

async function paidPayment(reference: string) {
  const serviceId = await createService(server, server.test, 'Boutique Akwa');
  const created = await server.raw('POST', '/payments', {
    body: {
      amount: 4000,
      currency: 'XAF',
      customer_msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo',
      service_id: serviceId,
      reference,
    },
  });
  expect(created.status).toBe(202);
  await server.settle();
  return { serviceId, paymentId: created.body.data.transaction_id as string };
}

describe('event data', () => {
  it('a payment event names its service and carries the reference', async () => {
    const { serviceId, paymentId } = await paidPayment('order-5512');
    const [event] = await eventsOf(paymentId);
    expect(event).toMatchObject({
      event: 'payment.completed',
      data: { transaction_id: paymentId, service_id: serviceId, reference: 'order-5512', payment_id: null },
    });
  });

  it('a top-up or a payout has no service (null), not a missing field', async () => {
    const topupId = await fund(server, 10_000);
    const [event] = await eventsOf(topupId);
    expect(event?.data).toMatchObject({ service_id: null, payment_id: null });
  });

  it('a refund that reaches the customer is refund.completed, naming its payment and service', async () => {
    const { serviceId, paymentId } = await paidPayment('order-5513');
    const refund = await server.raw('POST', '/refunds', {
      body: { payment_id: paymentId, amount: 1500, reference: 'return-5513' },
    });
    expect(refund.status).toBe(202);
    const refundId = refund.body.data.transaction_id as string;
    await server.settle();
    const events = await eventsOf(refundId);
    expect(events.map((e) => e.event).sort()).toEqual(['payout.completed', 'refund.completed']);
    for (const event of events) {
      expect(event.data).toMatchObject({
        transaction_id: refundId,
        amount: 1500,
        status: 'success',
        reference: 'return-5513',
        payment_id: paymentId,
        service_id: serviceId,
      });
    }
  });

  it('a refund the operator refuses is refund.failed, and the payment can be refunded again', async () => {
    const { paymentId } = await paidPayment('order-5514');
    const refund = await server.raw('POST', '/refunds', { body: { payment_id: paymentId } });
    expect(refund.status).toBe(202);
    const refundId = refund.body.data.transaction_id as string;
    // The operator refuses it before the worker's next look.
    const { store } = server.service.deps;
    await store.transact(async (tx) => {
      const row = await tx.payouts.get(server.account.accountId, 'test', refundId);
      if (!row) throw new Error('the refund is not stored');
      await settlePayout(
        tx,
        row,
        { status: 'failed', failureCode: 'recipient_rejected' },
        server.clock.now(),
      );
    });
    const events = await eventsOf(refundId);
    expect(events.map((e) => e.event).sort()).toEqual(['payout.failed', 'refund.failed']);
    expect(events[0]?.data).toMatchObject({ payment_id: paymentId, failure_code: 'recipient_rejected' });
    const again = await server.raw('POST', '/refunds', { body: { payment_id: paymentId } });
    expect(again.status).toBe(202);
  });

  it('an endpoint subscribed to refund.completed alone receives the refund, not the payment', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await server.raw('POST', '/webhook-endpoints', {
        body: { url: receiver.url, events: ['refund.completed'] },
      });
      expect(endpoint.status).toBe(201);
      const { paymentId } = await paidPayment('order-5515');
      await server.raw('POST', '/refunds', { body: { payment_id: paymentId } });
      await server.settle();
      await server.deliverWebhooks();
      const received = receiver.received.map((r) => JSON.parse(r.body));
      expect(received.map((e) => [e.event, e.data.payment_id])).toEqual([['refund.completed', paymentId]]);
    } finally {
      await receiver.close();
    }
  });
});
