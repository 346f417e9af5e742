/**
 * Secret rotation with an overlap: while it lasts both the new and the previous secret sign
 * each delivery (`t=...,v1=<new>,v1=<old>`), so a receiver still holding the old secret keeps
 * accepting deliveries; once it ends, and without one, the old secret verifies nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../../client/src/errors.js';
import { verifyWebhook } from '../../client/src/webhooks.js';
import { useTestServer } from '../support/server.js';
import { type ControlledReceiver, queueEvents, startControlledReceiver } from './webhooks-support.js';

const s = useTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
let r: ControlledReceiver;

beforeAll(async () => {
  r = await startControlledReceiver();
});
afterAll(() => r.close());

async function register() {
  const response = await s.raw('POST', '/webhook-endpoints', { body: { url: r.url } });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; secret: string };
}

async function rotate(id: string, body?: Record<string, unknown>) {
  return s.raw('POST', `/webhook-endpoints/${id}/rotate-secret`, body ? { body } : {});
}

/** Sends one event to the endpoint and returns what the receiver got. */
async function deliverOne(id: string) {
  const [eventId] = await queueEvents(s, id, 1);
  await s.deliverWebhooks();
  const hit = r.hits.find((h) => h.eventId === eventId);
  if (!hit) throw new Error(`event ${eventId} did not arrive`);
  return { body: hit.body, header: String(hit.headers['x-webhook-signature']) };
}

function accepts(delivery: { body: string; header: string }, secret: string): boolean {
  try {
    verifyWebhook(delivery.body, delivery.header, secret, { now: new Date(s.clock.now()) });
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError && error.reason === 'signature_mismatch') return false;
    throw error;
  }
}

const v1Count = (header: string) => header.split(',').filter((p) => p.startsWith('v1=')).length;

describe('rotation with an overlap', () => {
  it('signs with both secrets until the overlap ends, then with the new one only', async () => {
    const endpoint = await register();
    const rotated = await rotate(endpoint.id, { overlap_seconds: 3600 });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.body.data.previous_secret_expires_at)).toBe(s.clock.now() + 3_600_000);
    // The previous secret is never shown again.
    expect(rotated.text).not.toContain(endpoint.secret);
    const read = await s.raw('GET', `/webhook-endpoints/${endpoint.id}`);
    expect(read.text).not.toContain(endpoint.secret);
    expect(read.text).not.toContain(fresh);

    const during = await deliverOne(endpoint.id);
    expect(during.header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(accepts(during, fresh)).toBe(true);
    expect(accepts(during, endpoint.secret)).toBe(true);
    expect(accepts(during, 'whsec_someoneElsesSecret000000000000')).toBe(false);

    s.clock.advance(3_600_000);
    const after = await deliverOne(endpoint.id);
    expect(v1Count(after.header)).toBe(1);
    expect(accepts(after, fresh)).toBe(true);
    expect(accepts(after, endpoint.secret)).toBe(false);
  });

  it('without an overlap the previous secret stops at once', async () => {
    const endpoint = await register();
    const rotated = await rotate(endpoint.id);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.previous_secret_expires_at).toBeNull();
    const delivery = await deliverOne(endpoint.id);
    expect(v1Count(delivery.header)).toBe(1);
    expect(accepts(delivery, rotated.body.data.secret)).toBe(true);
    expect(accepts(delivery, endpoint.secret)).toBe(false);
  });

  it('a second rotation during an overlap never leaves more than two secrets valid', async () => {
    const endpoint = await register();
    const second = (await rotate(endpoint.id, { overlap_seconds: 3600 })).body.data.secret as string;
    const third = (await rotate(endpoint.id, { overlap_seconds: 3600 })).body.data.secret as string;
    const delivery = await deliverOne(endpoint.id);
    expect(v1Count(delivery.header)).toBe(2);
    expect(accepts(delivery, third)).toBe(true);
    expect(accepts(delivery, second)).toBe(true);
    expect(accepts(delivery, endpoint.secret)).toBe(false);
  });

  it('refuses an overlap longer than 7 days, negative, or not an integer', async () => {
    const endpoint = await register();
    for (const overlap_seconds of [604_801, -1, 1.5, '3600']) {
      const response = await rotate(endpoint.id, { overlap_seconds });
      expect(response.status, String(overlap_seconds)).toBe(400);
      expect(response.body.status).toBe('error');
    }
    // The refused rotations changed nothing: the original secret still signs alone.
    const delivery = await deliverOne(endpoint.id);
    expect(v1Count(delivery.header)).toBe(1);
    expect(accepts(delivery, endpoint.secret)).toBe(true);
  });
});
