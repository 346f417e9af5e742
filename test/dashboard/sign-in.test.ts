/**
 * Signing in to the dashboard: right and wrong passwords, the rate limit on failures, sessions
 * that end (idle, absolute, sign-out everywhere), and forms that cannot be forged.
 */
import { describe, expect, it } from 'vitest';
import { maxFailuresPerPair, sessionAbsoluteMs, sessionIdleMs } from '../../server/domain/dashboard-users.js';
import { addUser, httpSignIn, openPage, origin, password, signIn, useDashboardRig } from './support.js';

const rig = useDashboardRig();

describe('dashboard sign-in', () => {
  it('signs in with the right password into a session cookie scripts cannot read nor other sites send', async () => {
    const email = await addUser(rig.server, 'owner');
    const { page, context, foreignRequests, cspViolations } = await openPage(rig.browser, rig.server);
    await signIn(page, rig.server, email);
    await expect(page.locator('#mode-banner').textContent()).resolves.toContain('TEST MODE');
    await expect(page.getByText(email).isVisible()).resolves.toBe(true);
    const cookie = (await context.cookies()).find((c) => c.name === 'dash_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(foreignRequests).toEqual([]);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('refuses a wrong password and an unknown email with the same message, and stays signed out', async () => {
    const email = await addUser(rig.server, 'owner');
    const { page, context } = await openPage(rig.browser, rig.server);
    for (const [who, secret] of [
      [email, 'not the password'],
      ['nobody@shop.example', password],
    ] as const) {
      await page.goto(`${origin(rig.server)}/dashboard/sign-in`);
      await page.getByLabel('Email').fill(who);
      await page.getByLabel('Password').fill(secret);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      expect(response.status()).toBe(401);
      await expect(page.getByRole('alert').textContent()).resolves.toBe(
        'The email or the password is wrong.',
      );
    }
    await page.goto(`${origin(rig.server)}/dashboard/test/payments`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await context.close();
  });

  it(`after ${maxFailuresPerPair} failures for one email from one address, refuses even the right password (429), and the refused attempt does not extend the lock`, async () => {
    const email = await addUser(rig.server, 'owner');
    for (let i = 0; i < maxFailuresPerPair; i++) {
      expect((await httpSignIn(rig.server, email, `wrong ${i}`)).status).toBe(401);
    }
    const locked = await httpSignIn(rig.server, email, password);
    expect(locked.status).toBe(429);
    const failures = await rig.server.service.deps.store.read(async (tx) =>
      tx.dashboard.recentFailures(email, '127.0.0.1', rig.server.clock.now() - 60_000),
    );
    expect(failures.pair).toBe(maxFailuresPerPair);
    // The window passes: the right password works again.
    rig.server.clock.advance(16 * 60_000);
    expect((await httpSignIn(rig.server, email, password)).status).toBe(303);
  });

  it('ends a session left idle for 30 minutes, and says so on the sign-in page', async () => {
    const email = await addUser(rig.server, 'viewer');
    const { page, context } = await openPage(rig.browser, rig.server);
    await signIn(page, rig.server, email);
    rig.server.clock.advance(sessionIdleMs - 60_000);
    await page.goto(`${origin(rig.server)}/dashboard/test/payments`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/test/payments');
    rig.server.clock.advance(sessionIdleMs + 1000);
    await page.goto(`${origin(rig.server)}/dashboard/test/payments`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await expect(page.getByText('Your session has ended. Sign in again.').isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('ends a session 12 hours after sign-in however active it is', async () => {
    const email = await addUser(rig.server, 'viewer');
    const { cookie } = await httpSignIn(rig.server, email);
    const get = () =>
      fetch(`${origin(rig.server)}/dashboard/test/payments`, { headers: { cookie }, redirect: 'manual' });
    const step = sessionIdleMs / 2;
    for (let elapsed = step; elapsed < sessionAbsoluteMs; elapsed += step) {
      rig.server.clock.advance(step);
      expect((await get()).status).toBe(200);
    }
    rig.server.clock.advance(step);
    const ended = await get();
    expect(ended.status).toBe(303);
    expect(ended.headers.get('location')).toBe(
      '/dashboard/sign-in?ended=1&next=%2Fdashboard%2Ftest%2Fpayments',
    );
  });

  it('signs out on every device at once', async () => {
    const email = await addUser(rig.server, 'developer');
    const laptop = await openPage(rig.browser, rig.server);
    const other = await httpSignIn(rig.server, email);
    await signIn(laptop.page, rig.server, email);
    await laptop.page.getByRole('button', { name: 'Sign out on every device' }).click();
    await laptop.page.waitForURL(/\/dashboard\/sign-in$/);
    const response = await fetch(`${origin(rig.server)}/dashboard/test`, {
      headers: { cookie: other.cookie },
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    await laptop.context.close();
  });

  it('refuses a form with a forged CSRF token (403) and changes nothing', async () => {
    const email = await addUser(rig.server, 'owner');
    const { page, context } = await openPage(rig.browser, rig.server);
    await signIn(page, rig.server, email);
    await page.goto(`${origin(rig.server)}/dashboard/test/keys`);
    await page.locator('form[action$="/revoke"] input[name="_csrf"]').evaluate((input: HTMLInputElement) => {
      input.value = 'forged-token-forged-token-forged-token-forg';
    });
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Revoke now' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await expect(page.locator('h1').textContent()).resolves.toBe('Not allowed');
    // The key still works.
    expect((await rig.server.raw('GET', '/balance')).status).toBe(200);
    // Without any token at all, and from a signed-out client on the sign-in form, the same.
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const bare = await fetch(`${origin(rig.server)}/dashboard/test/keys/${'key_x'}/revoke`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(bare.status).toBe(403);
    const signInWithoutToken = await fetch(`${origin(rig.server)}/dashboard/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }).toString(),
      redirect: 'manual',
    });
    expect(signInWithoutToken.status).toBe(403);
    await context.close();
  });
});
