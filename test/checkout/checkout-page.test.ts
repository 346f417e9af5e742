/**
 * The hosted checkout page, driven in Debian's Chromium against the real server: a customer
 * pays, fails, meets an expired link, double-submits, and uses a phone-sized screen.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIsolatedPage, releaseChromium, saveScreenshot, sharedChromium } from '../support/browser.js';
import { createService, sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { expectChargedOnce } from './support.js';

let server: TestServer;
let browser: Browser;
let serviceId: string;

beforeAll(async () => {
  server = await startTestServer();
  serviceId = await createService(server, server.test, 'Boutique Akwa');
  browser = await sharedChromium();
});
afterAll(async () => {
  await releaseChromium(browser);
  await server?.close();
});

async function hostedPayment(
  amount = 2500,
  expiresInSeconds = 1800,
  extra: { service_id?: string; reference?: string; return_url?: string } = {},
) {
  const response = await server.raw('POST', '/payments/initiate', {
    body: { amount, currency: 'XAF', service_id: serviceId, expires_in_seconds: expiresInSeconds, ...extra },
  });
  expect(response.status).toBe(202);
  return response.body.data as { transaction_id: string; checkout_url: string };
}

/** The page polls every second; the test settles the sandbox operator once it is waiting. */
async function settleWhenPending(page: import('playwright-core').Page) {
  await page.getByRole('status').filter({ hasText: 'Approve the payment on your phone' }).waitFor();
  await server.settle(2000);
}

describe('the hosted checkout page', () => {
  it('shows the amount and the merchant, takes a number and follows the payment to success', async () => {
    const payment = await hostedPayment(2500);
    const { page, context, foreignRequests } = await openIsolatedPage(browser, payment.checkout_url);
    await page.goto(payment.checkout_url);
    await expect(page.locator('#amount').textContent()).resolves.toBe('FCFA\u00a02,500');
    await expect(page.getByText('Boutique Akwa').isVisible()).resolves.toBe(true);
    await page.getByLabel('Mobile Money phone number').fill('+237 690 000 000');
    await page.getByLabel('Orange Money').check();
    await saveScreenshot(page, 'checkout-form');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await settleWhenPending(page);
    await page.getByRole('status').filter({ hasText: 'Payment received' }).waitFor({ timeout: 10_000 });
    await saveScreenshot(page, 'checkout-success');
    const read = await server.raw('GET', `/payments/${payment.transaction_id}`);
    expect(read.body.data).toMatchObject({
      status: 'success',
      customer_msisdn: sandbox.orange.succeeds,
      payment_method: 'orange_money',
    });
    expect(foreignRequests).toEqual([]);
    expect(await page.content()).not.toMatch(/sk_(test|live)_/);
    await context.close();
  });

  it('with a number ending in 1, follows the payment to failure and says no money was taken', async () => {
    const payment = await hostedPayment(1000);
    const { page, context } = await openIsolatedPage(browser, payment.checkout_url);
    await page.goto(payment.checkout_url);
    await page.getByLabel('Mobile Money phone number').fill(sandbox.mtn.fails);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await settleWhenPending(page);
    await page.getByRole('status').filter({ hasText: 'did not go through' }).waitFor({ timeout: 10_000 });
    await saveScreenshot(page, 'checkout-failed');
    expect((await server.raw('GET', `/payments/${payment.transaction_id}`)).body.data.status).toBe('failed');
    await context.close();
  });

  it('explains a bad phone number on the page, marks the field invalid and keeps the form', async () => {
    const payment = await hostedPayment();
    const { page, context } = await openIsolatedPage(browser, payment.checkout_url);
    await page.goto(payment.checkout_url);
    const field = page.getByLabel('Mobile Money phone number');
    await field.fill('6700');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.getByRole('alert').filter({ hasText: 'country code' }).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('msisdn');
    expect(
      (await server.raw('GET', `/payments/${payment.transaction_id}`)).body.data.customer_msisdn,
    ).toBeNull();
    await context.close();
  });

  it('an expired link shows a clear page and cannot be paid', async () => {
    const payment = await hostedPayment(500, 60);
    server.clock.advance(61_000);
    const { page, context } = await openIsolatedPage(browser, payment.checkout_url);
    const response = await page.goto(payment.checkout_url);
    expect(response?.status()).toBe(410);
    await page.getByText('This payment link has expired').waitFor();
    expect(await page.locator('form').count()).toBe(0);
    const pay = await fetch(`${payment.checkout_url}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ msisdn: sandbox.mtn.succeeds, payment_method: 'mtn_momo' }),
    });
    expect(pay.status).toBe(410);
    await saveScreenshot(page, 'checkout-expired');
    await context.close();
  });

  it('an unknown link shows a clear not-found page', async () => {
    const origin = new URL(server.url).origin;
    const { page, context } = await openIsolatedPage(browser, origin);
    const response = await page.goto(`${origin}/checkout/cs_${'x'.repeat(32)}`);
    expect(response?.status()).toBe(404);
    await page.getByText('Payment link not found').first().waitFor();
    await context.close();
  });

  it('a double submit pays once: the button locks, and a second tab sees the charge already sent', async () => {
    const payment = await hostedPayment(700);
    const { page, context } = await openIsolatedPage(browser, payment.checkout_url);
    await page.goto(payment.checkout_url);
    const second = await context.newPage();
    await second.goto(payment.checkout_url);
    await page.getByLabel('Mobile Money phone number').fill(sandbox.mtn.succeeds);
    const button = page.getByRole('button', { name: /^Pay/ });
    await button.dblclick();
    await settleWhenPending(page);
    await second.getByLabel('Mobile Money phone number').fill(sandbox.orange.succeeds);
    await second.getByLabel('Orange Money').check();
    await second.getByRole('button', { name: /^Pay/ }).click();
    await second.getByRole('status').waitFor();
    await page.getByRole('status').filter({ hasText: 'Payment received' }).waitFor({ timeout: 10_000 });
    const read = await server.raw('GET', `/payments/${payment.transaction_id}`);
    expect(read.body.data.customer_msisdn).toBe(sandbox.mtn.succeeds);
    await expectChargedOnce(server, payment.transaction_id);
    await context.close();
  });

  it('fits a phone screen and can be used with the keyboard alone', async () => {
    const payment = await hostedPayment(15_000);
    const { page, context } = await openIsolatedPage(browser, payment.checkout_url, {
      viewport: { width: 360, height: 640 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(payment.checkout_url);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await page.getByRole('button', { name: /^Pay/ }).boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(0.75 * 360);
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await saveScreenshot(page, 'checkout-phone');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('msisdn');
    await page.keyboard.type(sandbox.mtn.succeeds);
    await page.keyboard.press('Enter');
    await page.getByRole('status').waitFor();
    await context.close();
  });

  it('works without JavaScript: the form posts and the status page follows the payment by itself', async () => {
    const payment = await hostedPayment(300);
    const { page, context } = await openIsolatedPage(browser, payment.checkout_url, {
      javaScriptEnabled: false,
    });
    await page.goto(payment.checkout_url);
    await page.getByLabel('Mobile Money phone number').fill(sandbox.mtn.succeeds);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.getByRole('status').filter({ hasText: 'Approve the payment on your phone' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(new URL(payment.checkout_url).pathname);
    // The page reloads itself (no script runs): the customer sees the outcome without a tap.
    await server.settle(2000);
    await page.getByRole('status').filter({ hasText: 'Payment received' }).waitFor({ timeout: 10_000 });
    await context.close();
  });

  it('marks a sandbox page as test mode, and shows the reference and until when the link is valid', async () => {
    const payment = await hostedPayment(2500, 900, { reference: 'order-7731' });
    const { page, context } = await openIsolatedPage(browser, payment.checkout_url);
    await page.goto(payment.checkout_url);
    await expect(page.getByRole('note').textContent()).resolves.toContain('Test mode');
    await expect(page.locator('#reference').textContent()).resolves.toBe('order-7731');
    const until = new Date(server.clock.now() + 900_000).toISOString().slice(0, 16).replace('T', ' ');
    // Cameroon's time, in the page's language, with the UTC time on hover.
    const douala = new Intl.DateTimeFormat('en-CM', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Africa/Douala',
    }).format(server.clock.now() + 900_000);
    await expect(page.locator('#expires-at').textContent()).resolves.toBe(douala);
    await expect(page.locator('#expires-at time').getAttribute('title')).resolves.toBe(`${until} UTC`);
    await context.close();
  });

  it('after a refused number the button keeps its label, amount included', async () => {
    const payment = await hostedPayment(2500);
    const { page, context } = await openIsolatedPage(browser, payment.checkout_url);
    await page.goto(payment.checkout_url);
    const button = page.locator('#pay');
    const label = await button.textContent();
    expect(label).toBe('Pay FCFA\u00a02,500');
    await page.getByLabel('Mobile Money phone number').fill('12');
    await button.click();
    await page.getByRole('alert').filter({ hasText: 'country code' }).waitFor();
    await expect(button.isEnabled()).resolves.toBe(true);
    await expect(button.textContent()).resolves.toBe(label);
    await context.close();
  });

  for (const change of ['inactive', 'deleted'] as const) {
    it(`refuses to charge once its service is ${change}, on a page opened before or after`, async () => {
      const own = await createService(server, server.test, `Shop to be ${change}`);
      const payment = await hostedPayment(900, 1800, { service_id: own });
      const { page, context } = await openIsolatedPage(browser, payment.checkout_url);
      await page.goto(payment.checkout_url);
      const changed =
        change === 'inactive'
          ? await server.raw('PUT', `/services/${own}`, { body: { status: 'inactive' } })
          : await server.raw('DELETE', `/services/${own}`);
      expect(changed.status).toBeLessThan(300);

      // The page opened before: its submit is refused, and says so.
      await page.getByLabel('Mobile Money phone number').fill(sandbox.mtn.succeeds);
      await page.locator('#pay').click();
      await page.getByRole('status').filter({ hasText: 'no longer takes payments' }).waitFor();
      // Opened after: a closed page, no form.
      const again = await context.newPage();
      const response = await again.goto(payment.checkout_url);
      expect(response?.status()).toBe(410);
      await again.getByText('no longer takes payments').waitFor();
      expect(await again.locator('form').count()).toBe(0);
      // Posted directly: refused too.
      const pay = await fetch(`${payment.checkout_url}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ msisdn: sandbox.mtn.succeeds, payment_method: 'mtn_momo' }),
      });
      expect(pay.status).toBe(410);
      const read = await server.raw('GET', `/payments/${payment.transaction_id}`);
      expect(read.body.data).toMatchObject({ status: 'initiated', customer_msisdn: null });
      await server.settle(2000);
      expect((await server.raw('GET', `/payments/${payment.transaction_id}`)).body.data.status).toBe(
        'initiated',
      );
      await context.close();
    });
  }

  it('takes an optional return_url, and links back to it once the payment is final', async () => {
    const returnUrl = 'https://shop.example.com/orders/1042?paid=1';
    const payment = await hostedPayment(1800, 1800, { return_url: returnUrl });
    const { page, context, foreignRequests } = await openIsolatedPage(browser, payment.checkout_url);
    await page.goto(payment.checkout_url);
    const back = page.getByRole('link', { name: 'Back to Boutique Akwa' });
    await expect(back.isVisible()).resolves.toBe(false);
    await page.getByLabel('Mobile Money phone number').fill(sandbox.mtn.succeeds);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await settleWhenPending(page);
    await expect(back.isVisible()).resolves.toBe(false);
    await page.getByRole('status').filter({ hasText: 'Payment received' }).waitFor({ timeout: 10_000 });
    await back.waitFor({ state: 'visible' });
    await expect(back.getAttribute('href')).resolves.toBe(returnUrl);
    // Reloaded, the final page shows it too; the API shows it on the payment.
    await page.reload();
    await page.getByRole('link', { name: 'Back to Boutique Akwa' }).waitFor({ state: 'visible' });
    const read = await server.raw('GET', `/payments/${payment.transaction_id}`);
    expect(read.body.data.return_url).toBe(returnUrl);
    expect(foreignRequests).toEqual([]);
    await context.close();
  });
});
