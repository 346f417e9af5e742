/**
 * What a merchant does in the dashboard, in Chromium against the real server: rotate a key and
 * use the new one, register a local endpoint and receive its test event, resend a delivery,
 * refund a payment, download the CSV report and the call logs, and find their actions, with
 * their name, in the call log.
 */
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseChromium, sharedChromium } from '../support/browser.js';
import { balanceOf, collect, createService } from '../support/fixtures.js';
import { reconcile, startTestServer, type TestServer } from '../support/server.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { addUser, openPage, origin, signIn } from './support.js';

let server: TestServer;
let browser: Browser;
const receivers: Receiver[] = [];
let page: Page;
let email: string;
let serviceId: string;

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
  browser = await sharedChromium();
  serviceId = await createService(server);
  email = await addUser(server, 'owner');
  page = (await openPage(browser, server)).page;
  page.setDefaultTimeout(8000);
  await signIn(page, server, email);
});
afterAll(async () => {
  await releaseChromium(browser);
  await Promise.all(receivers.map((r) => r.close()));
  await server?.close();
});

const go = (path: string) => page.goto(`${origin(server)}/dashboard/test${path}`);
const flash = () => page.locator('.flash').textContent();
/** A receiver of the test's own, so its deliveries are counted apart from every other test's. */
async function ownReceiver(): Promise<Receiver> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  return receiver;
}

/** A receiver with an endpoint registered for it over the API, for tests that start from one. */
async function ownEndpoint(): Promise<Receiver> {
  const receiver = await ownReceiver();
  const created = await server.raw('POST', '/webhook-endpoints', {
    body: { url: receiver.url, description: 'Shop backend' },
  });
  expect(created.status).toBe(201);
  return receiver;
}

/** What a receiver got about one movement (events of other tests' movements may arrive too). */
const about = (receiver: Receiver, transactionId: string) =>
  receiver.received.filter((d) => JSON.parse(d.body).data?.transaction_id === transactionId);

/** A refund made from a payment's page, as a user does it; returns the payment's id. */
async function refundFromDashboard(amount: number): Promise<string> {
  const paymentId = await collect(server, serviceId, 5000);
  await server.settle(2000);
  await go(`/payments/${paymentId}`);
  await page.getByLabel(/Amount to refund/).fill(String(amount));
  await submit(page.getByRole('button', { name: /^Refund/ }));
  const shown = new Intl.NumberFormat('en-CM', { style: 'currency', currency: 'XAF' }).format(amount);
  await expect(flash()).resolves.toMatch(new RegExp(`^Refund po_\\w+ of ${shown}`));
  return paymentId;
}

/** Clicks a form's button and waits for the page the server answers with. */
async function submit(button: ReturnType<Page['getByRole']>) {
  await Promise.all([page.waitForEvent('framenavigated'), button.click()]);
  await page.waitForLoadState();
}

describe('dashboard actions', () => {
  it('rotates the test key: the new key, shown once, works over the API and the old one stops at once', async () => {
    await go('/keys');
    await expect(page.locator('#api-user').inputValue()).resolves.toBe(server.test.apiUser);
    await page.getByLabel('Old key stops').selectOption('0');
    await submit(page.getByRole('button', { name: 'Rotate' }));
    const secret = await page.locator('#new-secret-key').inputValue();
    expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    const withNew = await server.raw('GET', '/balance', {
      as: { apiUser: server.test.apiUser, key: secret },
    });
    expect(withNew.status).toBe(200);
    expect((await server.raw('GET', '/balance')).status).toBe(401);
    await go('/keys');
    expect(await page.content()).not.toContain(secret);
    server.test.key = secret;
  });

  it('rotates with a grace period: both keys work until it ends; revoking one stops it at once', async () => {
    await go('/keys');
    await page.getByLabel('Old key stops').first().selectOption('3600');
    await submit(page.getByRole('button', { name: 'Rotate' }).first());
    const secret = await page.locator('#new-secret-key').inputValue();
    const fresh = { apiUser: server.test.apiUser, key: secret };
    expect((await server.raw('GET', '/balance')).status).toBe(200);
    expect((await server.raw('GET', '/balance', { as: fresh })).status).toBe(200);
    // Revoke the older (expiring) key from its row.
    const row = page.locator('tr', { has: page.getByText('expiring') });
    await submit(row.getByRole('button', { name: 'Revoke now' }));
    await expect(flash()).resolves.toMatch(/is revoked/);
    expect((await server.raw('GET', '/balance')).status).toBe(401);
    expect((await server.raw('GET', '/balance', { as: fresh })).status).toBe(200);
    server.test.key = secret;
  });

  it('registers a local endpoint and delivers it a signed test event', async () => {
    const receiver = await ownReceiver();
    await go('/webhooks');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('Shop backend');
    await submit(page.getByRole('button', { name: 'Add endpoint' }));
    const secret = await page.locator('#endpoint-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await submit(page.getByRole('button', { name: 'Send test event' }));
    await expect(flash()).resolves.toMatch(/delivered: the endpoint answered HTTP 200/);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    const body = delivery?.body ?? '';
    const header = String(delivery?.headers['x-webhook-signature']);
    const t = /t=(\d+)/.exec(header)?.[1];
    expect(header).toContain(`v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`);
    expect(JSON.parse(body)).toMatchObject({ event: 'payment.completed', mode: 'test' });
  });

  it('shows real deliveries with their responses and resends one', async () => {
    const receiver = await ownEndpoint();
    const paymentId = await collect(server, serviceId, 1500);
    await server.settle(2000);
    await server.deliverWebhooks();
    expect(about(receiver, paymentId)).toHaveLength(1);
    await go('/webhooks');
    await page.getByRole('link', { name: receiver.url }).click();
    const row = page.locator('tr', { hasText: paymentId });
    await expect(row.textContent()).resolves.toMatch(/HTTP 200/);
    await submit(row.getByRole('button', { name: 'Resend' }));
    await expect(flash()).resolves.toMatch(/Resend queued/);
    await server.deliverWebhooks();
    expect(about(receiver, paymentId)).toHaveLength(2);
  });

  it('disables the endpoint: no event is sent to it any more', async () => {
    const receiver = await ownEndpoint();
    const before = await collect(server, serviceId, 600);
    await server.settle(2000);
    await server.deliverWebhooks();
    expect(about(receiver, before)).toHaveLength(1);
    await go('/webhooks');
    await page.getByRole('link', { name: receiver.url }).click();
    await submit(page.getByRole('button', { name: 'Disable' }));
    await expect(flash()).resolves.toMatch(/disabled/);
    const received = receiver.received.length;
    const after = await collect(server, serviceId, 700);
    await server.settle(2000);
    await server.deliverWebhooks();
    expect(about(receiver, after)).toHaveLength(0);
    expect(receiver.received).toHaveLength(received);
  });

  it('edits the endpoint and rotates its signing secret: test events are signed with the new one', async () => {
    const receiver = await ownEndpoint();
    await go('/webhooks');
    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByLabel('Description (optional)').fill('Shop backend, failures only');
    await page.getByLabel('payment.failed').check();
    await submit(page.getByRole('button', { name: 'Save changes' }));
    await expect(flash()).resolves.toBe('Endpoint saved.');
    const id = new URL(page.url()).pathname.split('/').pop() as string;
    const read = await server.raw('GET', `/webhook-endpoints/${id}`);
    expect(read.body.data).toMatchObject({
      events: ['payment.failed'],
      description: 'Shop backend, failures only',
    });

    await submit(page.getByRole('button', { name: 'Rotate signing secret' }));
    const secret = await page.locator('#endpoint-secret').inputValue();
    await submit(page.getByRole('button', { name: 'Send test event' }));
    const last = receiver.received[receiver.received.length - 1];
    const header = String(last?.headers['x-webhook-signature']);
    const t = /t=(\d+)/.exec(header)?.[1];
    const expected = createHmac('sha256', secret).update(`${t}.${last?.body}`).digest('hex');
    expect(header).toContain(`v1=${expected}`);
  });

  it('refunds part of a payment through the same rules and ledger as the API', async () => {
    const paymentId = await collect(server, serviceId, 5000);
    await server.settle(2000);
    const before = await balanceOf(server);
    await go(`/payments/${paymentId}`);
    await page.getByLabel(/Amount to refund/).fill('1200');
    await submit(page.getByRole('button', { name: /^Refund/ }));
    await expect(flash()).resolves.toMatch(/^Refund po_\w+ of FCFA\u00a01,200/);
    const refunds = await server.raw('GET', '/payouts', { query: { payment_id: paymentId } });
    expect(refunds.body.data.items).toMatchObject([{ amount: 1200, payout_type: 'refund' }]);
    expect(await balanceOf(server)).toBe(before - 1200);
    // More than what remains (as a page opened before the first refund would send: the form's
    // own limit is lifted) is refused with the API's message, and nothing moves.
    await page.getByLabel(/Amount to refund/).evaluate((input) => input.removeAttribute('max'));
    await page.getByLabel(/Amount to refund/).fill('4000');
    await submit(page.getByRole('button', { name: /^Refund/ }));
    await expect(flash()).resolves.toBe('At most 3800 XAF of this payment remains to refund.');
    expect(await balanceOf(server)).toBe(before - 1200);
    // The timeline shows the credit and the refund's debit... the debit is the payout's own.
    await expect(page.locator('.timeline').textContent()).resolves.toMatch(/Ledger: payment/);
    await reconcile(server);
  });

  it('downloads the balance report as CSV from the overview', async () => {
    await refundFromDashboard(1200);
    await go('');
    // A day of the account's time zone (Africa/Douala unless it chose another).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Douala' }).format(server.clock.now());
    await page.getByLabel('From', { exact: true }).fill(day);
    await page.getByLabel('To (included)').fill(day);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('id,created_at,type,amount,currency,balance_after,source_id,description');
    expect(lines.some((l) => l.includes(',payout,-1200,XAF,'))).toBe(true);
  });

  it('records dashboard actions in the call log with the user, and downloads the logs as CSV', async () => {
    await refundFromDashboard(300);
    await server.flushLogs();
    await go('/logs?method=POST');
    const row = page.locator('tr', { hasText: '/refund' }).first();
    await expect(row.textContent()).resolves.toContain(`${email} (dashboard)`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download these logs as CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.split('\n')[0]).toBe(
      'created_at,request_id,method,path,status,duration_ms,error_code,key_id,user,created_local',
    );
    expect(csv).toMatch(new RegExp(`POST,/dashboard/test/payments/pay_\\w+/refund,303,[\\d.]+,,,${email},`));
    // The API's own log listing shows the same action.
    const logs = await server.raw('GET', '/logs', { query: { method: 'POST', limit: 100 } });
    expect(logs.status).toBe(200);
    expect(logs.body.data.items.some((l: { path: string }) => l.path.endsWith('/refund'))).toBe(true);
  });
});
