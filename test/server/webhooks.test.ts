import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookEndpointCreate } from '../../client/src/index.js';
import { ok } from '../support/api.js';
import { collect, createService, sandbox } from '../support/fixtures.js';
import { startServiceOn, startTestServer, type TestServer } from '../support/server.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

/** An independent verifier, written from the contract's description only. */
function verify(body: string, header: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

let server: TestServer;
let receiver: Receiver;
let serviceId: string;

// Every test has its own server (so its own outbox and clock) and its own receiver (so its own
// queue of answers): none depends on what an earlier one registered, queued or left pending.
beforeEach(async () => {
  server = await startTestServer({
    WEBHOOK_RETRY_BASE_MS: '1000',
    WEBHOOK_RETRY_MAX_MS: '1000',
    // The receiver is on 127.0.0.1: sandbox endpoints may be local only with this opt-in.
    WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
  });
  receiver = await startReceiver();
  serviceId = await createService(server);
});
afterEach(async () => {
  await server.close();
  await receiver.close();
});

async function register(body: Omit<WebhookEndpointCreate, 'url'> = {}) {
  const { data } = ok(await server.api.POST('/webhook-endpoints', { body: { url: receiver.url, ...body } }));
  return { id: data.id, secret: data.secret as string };
}

async function deliveriesOf(eventId: string) {
  return ok(await server.api.GET('/events/{id}/deliveries', { params: { path: { id: eventId } } })).data
    .items;
}

/** The id of the first event announcing the transaction `transactionId`. */
async function eventOf(transactionId: string) {
  const query = { transaction_id: transactionId };
  const [event] = ok(await server.api.GET('/events', { params: { query } })).data.items;
  if (!event) throw new Error(`no event announces ${transactionId}`);
  return event.id;
}

describe('webhook endpoints', () => {
  it('registering shows the signing secret once; reads never show it', async () => {
    const endpoint = await register({ events: ['payment.completed'] });
    expect(endpoint.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const read = await server.raw('GET', `/webhook-endpoints/${endpoint.id}`); // its text, not only its fields
    expect(read.body.data.secret).toBeUndefined();
    expect(read.text).not.toContain(endpoint.secret);
  });

  it('refuses URLs that are not http or https', async () => {
    const response = await server.raw('POST', '/webhook-endpoints', {
      body: { url: 'ftp://example.com/x' },
    });
    expect(response.status).toBe(400);
  });

  it('in live mode refuses loopback and private addresses', async () => {
    for (const url of [receiver.url, 'http://10.0.0.7/hook', 'http://169.254.169.254/latest']) {
      const response = await server.raw('POST', '/webhook-endpoints', { as: server.live, body: { url } });
      expect(response.status, url).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_field', param: 'url' });
    }
  });
});

describe('delivery', () => {
  it('sends each event signed with the endpoint secret, its id for de-duplication, and records success', async () => {
    const endpoint = await register();
    const paymentId = await collect(server, serviceId, 1000);
    await server.settle();
    expect(await server.deliverWebhooks()).toBeGreaterThanOrEqual(1);
    const delivery = receiver.received.find((r) => JSON.parse(r.body).data.transaction_id === paymentId);
    expect(delivery).toBeDefined();
    const event = JSON.parse(delivery?.body as string);
    expect(event).toMatchObject({ event: 'payment.completed', mode: 'test', data: { status: 'success' } });
    expect(delivery?.headers['x-webhook-id']).toBe(event.id);
    expect(
      verify(delivery?.body as string, delivery?.headers['x-webhook-signature'] as string, endpoint.secret),
    ).toBe(true);
    expect(
      verify(`${delivery?.body} `, delivery?.headers['x-webhook-signature'] as string, endpoint.secret),
    ).toBe(false);
    const t = Number(/t=(\d+)/.exec(delivery?.headers['x-webhook-signature'] as string)?.[1]);
    expect(t).toBe(Math.floor(server.clock.now() / 1000));
    const stored = ok(await server.api.GET('/events/{id}', { params: { path: { id: event.id } } })).data;
    expect(stored).toEqual(event);
    const [record] = await deliveriesOf(event.id);
    expect(record).toMatchObject({ status: 'succeeded', attempts: 1, last_response_status: 200 });
  });

  it('retries after a failure with backoff, and records every attempt', async () => {
    await register();
    receiver.answer(500, 503);
    const before = receiver.received.length;
    const paymentId = await collect(server, serviceId, 1100, sandbox.mtn.fails);
    await server.settle();
    await server.deliverWebhooks();
    const eventId = await eventOf(paymentId);
    let [record] = await deliveriesOf(eventId);
    expect(record).toMatchObject({ status: 'pending', attempts: 1, last_response_status: 500 });
    expect(Date.parse(String(record?.next_attempt_at))).toBeGreaterThanOrEqual(server.clock.now());
    // Not yet due: nothing is sent.
    await server.deliverWebhooks();
    server.clock.advance(1001);
    await server.deliverWebhooks();
    [record] = await deliveriesOf(eventId);
    expect(record).toMatchObject({ status: 'pending', attempts: 2, last_response_status: 503 });
    server.clock.advance(1001);
    await server.deliverWebhooks();
    [record] = await deliveriesOf(eventId);
    expect(record).toMatchObject({ status: 'succeeded', attempts: 3, last_response_status: 200 });
    const sent = receiver.received.slice(before).map((r) => JSON.parse(r.body).id);
    expect(sent).toEqual([eventId, eventId, eventId]);
  });

  it('only sends the events an endpoint subscribes to, and nothing to a disabled one', async () => {
    const only = await register({ events: ['payment.failed'] });
    const disabled = await register();
    const disable = { params: { path: { id: disabled.id } }, body: { status: 'disabled' } } as const;
    ok(await server.api.PUT('/webhook-endpoints/{id}', disable));
    const succeeded = await collect(server, serviceId, 1200);
    const failing = await collect(server, serviceId, 1300, sandbox.mtn.fails);
    await server.settle();
    expect(await deliveriesOf(await eventOf(succeeded))).toEqual([]);
    const failed = await deliveriesOf(await eventOf(failing));
    expect(failed.map((d) => d.endpoint_id)).toEqual([only.id]);
  });

  it('POST /events/{id}/resend queues a new delivery of the same event', async () => {
    const endpoint = await register();
    const paymentId = await collect(server, serviceId, 1400);
    await server.settle();
    await server.deliverWebhooks();
    const eventId = await eventOf(paymentId);
    const resend = { params: { path: { id: eventId } }, body: { endpoint_id: endpoint.id } };
    const resent = await server.api.POST('/events/{id}/resend', resend);
    expect(resent.response.status).toBe(202);
    expect(ok(resent).data.items).toHaveLength(1);
    await server.deliverWebhooks();
    const records = await deliveriesOf(eventId);
    expect(records.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    const ids = receiver.received.map((r) => JSON.parse(r.body).id).filter((id: string) => id === eventId);
    expect(ids.length).toBe(2);
  });

  it('gives up after the maximum age, marking the delivery failed', async () => {
    await register();
    receiver.answer(...Array(50).fill(500));
    const paymentId = await collect(server, serviceId, 1500);
    await server.settle();
    await server.deliverWebhooks();
    const eventId = await eventOf(paymentId);
    server.clock.advance(3 * 86_400_000 + 1);
    await server.deliverWebhooks();
    const [record] = await deliveriesOf(eventId);
    expect(record).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null });
    receiver.answer();
  });
});

describe('delivery survives restarts and crashes', () => {
  it('a delivery queued before a restart, or claimed by a worker that crashed mid-send, is sent after it', async () => {
    const local = await startTestServer({
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
    });
    const own = await startReceiver();
    try {
      const service = await createService(local);
      ok(await local.api.POST('/webhook-endpoints', { body: { url: own.url } }));
      const first = await collect(local, service, 1000);
      const second = await collect(local, service, 2000);
      await local.settle();
      // A worker claims one delivery and dies before sending (the lease is all that is left).
      await local.service.deps.store.transact(async (tx) => {
        const now = local.clock.now();
        const [endpoint] = await tx.deliveries.dueEndpoints({
          now,
          mode: 'test',
          busyEndpoints: [],
          busyAccounts: [],
        });
        const [due] = endpoint
          ? await tx.deliveries.dueOf({
              endpointId: endpoint.endpoint_id,
              now,
              limit: 1,
              busyDeliveries: [],
            })
          : [];
        expect(due && (await tx.deliveries.lock(due, now, now + 3000))).toBe(true);
      });
      await local.service.close();

      local.clock.advance(3001);
      const again = await startServiceOn(local, { WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
      try {
        expect(await again.webhooks.runOnce()).toBe(2);
        const sent = own.received.map((r) => JSON.parse(r.body).data.transaction_id).sort();
        expect(sent).toEqual([first, second].sort());
      } finally {
        await again.close();
      }
    } finally {
      await local.close();
      await own.close();
    }
  });
});
