/**
 * `npm run admin -- trigger <event-type>` (as `stripe trigger`): a signed test event of any type
 * the contract declares, sent at once to the account's endpoints that listen for it, signed as
 * the delivery worker signs; an unknown type is refused with the list of valid ones.
 */
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../client/src/index.js';
import { eventNameValues } from '../../generated/openapi.js';
import { useWebhookRig } from '../security/webhooks-support.js';
import { runAdmin } from '../support/admin.js';
import type { TestServer } from '../support/server.js';

const { server, receiver } = useWebhookRig({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });

const trigger = (s: TestServer, args: string[]) =>
  runAdmin(['trigger', ...args], { ...s.databaseEnv, WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });

async function endpoint(s: TestServer, url: string, events?: string[]) {
  const created = await s.raw('POST', '/webhook-endpoints', { body: { url, ...(events ? { events } : {}) } });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; secret: string };
}

describe('npm run admin -- trigger', () => {
  it('sends a signed event of the type asked for to the endpoints that listen for it', async () => {
    const s = await server();
    const listening = await receiver();
    const other = await receiver();
    const { secret } = await endpoint(s, `${listening.url}`, ['payout.failed']);
    await endpoint(s, other.url, ['payment.completed']);
    const { code, out } = await trigger(s, ['payout.failed', '--account', s.test.apiUser]);
    expect(code, out).toBe(0);
    expect(out).toMatch(/payout\.failed evt_test_\w+ -> http:\/\/127\.0\.0\.1:\d+.*: HTTP 200/);
    expect(listening.hits).toHaveLength(1);
    expect(other.hits).toEqual([]);
    const [hit] = listening.hits;
    const event = verifyWebhook(hit?.body ?? '', String(hit?.headers['x-webhook-signature']), secret);
    expect(event).toMatchObject({
      event: 'payout.failed',
      mode: 'test',
      data: { status: 'failed', failure_code: 'recipient_rejected', currency: 'XAF' },
    });
    expect(event.data.transaction_id).toMatch(/^po_[0-9A-Za-z]{24}$/);
    expect(hit?.headers['x-webhook-id']).toBe(event.id);
    // A test event moved no money: the API's event list stays empty.
    expect((await s.raw('GET', '/events')).body.data.items).toEqual([]);
  });

  it('refuses a type the contract does not declare, listing the valid ones, and sends nothing', async () => {
    const s = await server();
    const r = await receiver();
    await endpoint(s, r.url);
    const { code, out } = await trigger(s, ['payment.exploded']);
    expect(code).toBe(1);
    expect(out).toContain('Unknown event type payment.exploded');
    for (const name of eventNameValues) expect(out).toContain(name);
    expect(r.hits).toEqual([]);
  });

  it('says so when no endpoint of the account listens for the type', async () => {
    const s = await server();
    const r = await receiver();
    await endpoint(s, r.url, ['payment.completed']);
    const { code, out } = await trigger(s, ['topup.expired', '--account', s.test.apiUser]);
    expect(code).toBe(1);
    expect(out).toMatch(/No enabled test-mode webhook endpoint of .* listens for topup\.expired/);
    expect(r.hits).toEqual([]);
  });
});
