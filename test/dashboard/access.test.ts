/**
 * Who may do what in the dashboard: roles (a viewer cannot act, a developer cannot refund),
 * another account's ids answer 404, invitations by link, and the admin CLI's one-time link.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../support/admin.js';
import { releaseChromium, sharedChromium } from '../support/browser.js';
import { balanceOf, collect, createService } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { addUser, httpSignIn, openPage, origin, signIn } from './support.js';

let server: TestServer;
let browser: Browser;
let paymentId: string;

beforeAll(async () => {
  // Endpoints here point at 127.0.0.1 (port 9, nothing answers): the opt-in allows local URLs.
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
  browser = await sharedChromium();
  paymentId = await collect(server, await createService(server), 3000);
  await server.settle(2000);
});
afterAll(async () => {
  await releaseChromium(browser);
  await server?.close();
});

/** Posts a form as the signed-in client would, token included. */
async function post(cookie: string, path: string, fields: Record<string, string>) {
  const page = await fetch(`${origin(server)}/dashboard/test`, { headers: { cookie } });
  const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  return fetch(`${origin(server)}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token, ...fields }).toString(),
  });
}

describe('dashboard roles', () => {
  it('shows a viewer no action, and refuses their posted refund or key rotation with 403', async () => {
    const email = await addUser(server, 'viewer');
    const { page, context } = await openPage(browser, server);
    await signIn(page, server, email);
    await page.goto(`${origin(server)}/dashboard/test/payments/${paymentId}`);
    await expect(page.getByText('Only an owner can refund a payment.').isVisible()).resolves.toBe(true);
    await page.goto(`${origin(server)}/dashboard/test/keys`);
    expect(await page.getByRole('button', { name: 'Rotate' }).count()).toBe(0);
    await page.goto(`${origin(server)}/dashboard/test/webhooks`);
    expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);

    const { cookie } = await httpSignIn(server, email);
    const before = await balanceOf(server);
    const refund = await post(cookie, `/dashboard/test/payments/${paymentId}/refund`, { amount: '100' });
    expect(refund.status).toBe(403);
    expect(await refund.text()).toContain('Your role (viewer) does not allow this.');
    expect(await balanceOf(server)).toBe(before);
    const keys = await server.raw('GET', '/api-keys');
    const keyId = keys.body.data.items[0].id as string;
    expect(
      (await post(cookie, `/dashboard/test/keys/${keyId}/rotate`, { grace_period_seconds: '0' })).status,
    ).toBe(403);
    expect((await server.raw('GET', '/balance')).status).toBe(200);
    expect((await fetch(`${origin(server)}/dashboard/test/users`, { headers: { cookie } })).status).toBe(403);
    await context.close();
  });

  it('lets a developer manage webhooks but not refund', async () => {
    const email = await addUser(server, 'developer');
    const { cookie } = await httpSignIn(server, email);
    const refund = await post(cookie, `/dashboard/test/payments/${paymentId}/refund`, { amount: '100' });
    expect(refund.status).toBe(403);
    const created = await post(cookie, '/dashboard/test/webhooks', { url: 'http://127.0.0.1:9/hooks' });
    expect(created.status).toBe(200);
    expect(await created.text()).toMatch(/whsec_/);
  });
});

describe('invitations', () => {
  it('an owner invites a viewer by link; the link sets their password once and signs them in', async () => {
    const owner = await addUser(server, 'owner');
    const { page, context } = await openPage(browser, server);
    await signIn(page, server, owner);
    await page.goto(`${origin(server)}/dashboard/test/users`);
    await page.getByLabel('Email').fill('new.viewer@shop.example');
    await page.getByRole('radio', { name: /Viewer/ }).check();
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await page.locator('#invite-link').inputValue();
    expect(link).toMatch(/\/dashboard\/welcome\/[A-Za-z0-9_-]{43}$/);

    const invited = await openPage(browser, server);
    await invited.page.goto(link);
    await invited.page.getByLabel(/New password/).fill('short');
    await invited.page.getByLabel(/New password/).evaluate((input) => input.removeAttribute('minlength'));
    await invited.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(invited.page.getByRole('alert').textContent()).resolves.toBe('Use at least 10 characters.');
    await invited.page.getByLabel(/New password/).fill('a long enough password');
    await invited.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await invited.page.waitForURL(/\/dashboard\/test$/);
    await expect(invited.page.getByText('new.viewer@shop.example (viewer)').isVisible()).resolves.toBe(true);
    // Used once: the link no longer works.
    const again = await fetch(link);
    expect(again.status).toBe(404);
    expect((await httpSignIn(server, 'new.viewer@shop.example', 'a long enough password')).status).toBe(303);
    await invited.context.close();
    await context.close();
  });

  it('the admin CLI creates a user and prints a one-time link that works in the browser', async () => {
    const { code, out: stdout } = await runAdmin(
      ['create-user', '--account', server.test.apiUser, '--email', 'ops@shop.example', '--role', 'developer'],
      { ...server.databaseEnv, PUBLIC_URL: origin(server), NODE_ENV: 'test' },
    );
    expect(code, stdout).toBe(0);
    const link = /(http\S+\/dashboard\/welcome\/\S+)/.exec(stdout)?.[1];
    expect(link).toBeDefined();
    const { page, context } = await openPage(browser, server);
    await page.goto(link as string);
    await page.getByLabel(/New password/).fill('ops password 2026');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(/\/dashboard\/test$/);
    await expect(page.getByText('ops@shop.example (developer)').isVisible()).resolves.toBe(true);
    await context.close();
  });
});
