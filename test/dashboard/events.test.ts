/**
 * The events page (issue 46): the account's events with their webhook deliveries, and a resend
 * that goes through the outbox to a loopback receiver, once per form however often it is sent.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlledReceiver, useWebhookRig } from '../security/webhooks-support.js';
import { releaseChromium, sharedChromium } from '../support/browser.js';
import { collect, createService } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { addUser, httpSignIn, openPage, origin, signInAnyLanguage } from './support.js';

const rig = useWebhookRig({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
let browser: Browser;
beforeAll(async () => {
  browser = await sharedChromium();
});
afterAll(() => releaseChromium(browser));

/** A server whose endpoint, a loopback receiver, was delivered one payment's event. */
async function oneDelivered(): Promise<{
  server: TestServer;
  receiver: ControlledReceiver;
  eventId: string;
}> {
  const server = await rig.server();
  const receiver = await rig.receiver(200);
  const endpoint = await server.raw('POST', '/webhook-endpoints', { body: { url: receiver.url } });
  expect(endpoint.status).toBe(201);
  await collect(server, await createService(server), 2500);
  await server.settle(2000);
  await server.deliverWebhooks();
  expect(receiver.hits).toHaveLength(1);
  return { server, receiver, eventId: receiver.hits[0]?.eventId as string };
}

describe('the events page', () => {
  for (const [locale, words] of [
    [
      'en-GB',
      {
        delivered: /succeeded, 1 attempt, last answer: HTTP 200/,
        resend: 'Resend',
        queued: 'Resend queued (1 delivery).',
      },
    ],
    [
      'fr-CM',
      {
        delivered: /livré, 1 tentative, dernière réponse : HTTP 200/s,
        resend: 'Renvoyer',
        queued: 'Renvoi programmé (1 livraison).',
      },
    ],
  ] as const) {
    it(`lists an event with its delivery, and Resend delivers it again to the receiver (${locale})`, async () => {
      const { server, receiver, eventId } = await oneDelivered();
      const { page, context } = await openPage(browser, server, { locale });
      await signInAnyLanguage(page, server, await addUser(server, 'owner'));
      await page.goto(`${origin(server)}/dashboard/test/events`);
      const row = page.locator(`#event-${eventId}`);
      await expect(row.textContent()).resolves.toMatch(words.delivered);
      await Promise.all([
        page.waitForEvent('framenavigated'),
        row.getByRole('button', { name: words.resend }).click(),
      ]);
      await expect(page.locator('.flash').textContent()).resolves.toBe(words.queued);
      await server.deliverWebhooks();
      expect(receiver.hits.map((h) => h.eventId)).toEqual([eventId, eventId]);
      await page.goto(`${origin(server)}/dashboard/test/events`);
      await expect(page.locator(`#event-${eventId}`).textContent()).resolves.toMatch(/HTTP 200.*HTTP 200/s);
      await context.close();
    });
  }

  it('queues one delivery when the same Resend form is sent twice (a double click)', async () => {
    const { server, receiver, eventId } = await oneDelivered();
    const { cookie } = await httpSignIn(server, await addUser(server, 'owner'));
    const events = await (
      await fetch(`${origin(server)}/dashboard/test/events`, { headers: { cookie } })
    ).text();
    const form =
      new RegExp(`action="/dashboard/test/events/${eventId}/resend">(.*?)</form>`, 's').exec(events)?.[1] ??
      '';
    const fields = Object.fromEntries(
      [...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]?.replace(/&#38;/g, '&')]),
    );
    expect(fields._once).toMatch(/^[\w-]{32}$/);
    const post = () =>
      fetch(`${origin(server)}/dashboard/test/events/${eventId}/resend`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields as Record<string, string>).toString(),
      });
    expect((await Promise.all([post(), post()])).map((r) => r.status)).toEqual([303, 303]);
    await server.deliverWebhooks();
    expect(receiver.hits.map((h) => h.eventId)).toEqual([eventId, eventId]);
  });
});
