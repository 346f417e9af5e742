/**
 * Account safety, language and time (issue 46): signing in from a protected page comes back to
 * it, and only to a page of this dashboard; an owner sets the account's time zone, which every
 * time on its pages follows. In Chromium, in English and in French, and over HTTP for what a
 * forger would try.
 */
import { describe, expect, it } from 'vitest';
import {
  addUser,
  desktop,
  httpSignIn,
  openPage,
  origin,
  password,
  signInAnyLanguage,
  signInForm,
  useDashboardRig,
} from './support.js';

const rig = useDashboardRig();

/** Posts the sign-in form with a `next` field, as a forged link's page would. */
async function signInWithNext(email: string, next: string): Promise<Response> {
  const { preCookie, token } = await signInForm(rig.server);
  return fetch(`${origin(rig.server)}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: preCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token, email, password, next }).toString(),
  });
}

describe('the page asked for, after sign-in', () => {
  for (const locale of ['en-GB', 'fr-CM']) {
    it(`lands on the protected page that was asked for (${locale})`, async () => {
      const email = await addUser(rig.server, 'viewer');
      const { page, context } = await openPage(rig.browser, rig.server, { ...desktop, locale });
      await page.goto(`${origin(rig.server)}/dashboard/test/payouts?status=success`);
      expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
      await page.locator('#email').fill(email);
      await page.locator('#password').fill(password);
      await page.locator('form[action="/dashboard/sign-in"] button[type=submit]').click();
      await page.waitForURL(/\/dashboard\/test\/payouts\?status=success$/);
      await expect(page.locator('h1').textContent()).resolves.toBe(
        locale === 'en-GB' ? 'Payouts' : 'Décaissements',
      );
      await context.close();
    });
  }

  it('keeps the page asked for through a wrong password', async () => {
    const email = await addUser(rig.server, 'viewer');
    const { page, context } = await openPage(rig.browser, rig.server);
    await page.goto(`${origin(rig.server)}/dashboard/test/logs`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard\/test\/logs$/);
    await context.close();
  });

  it('never goes to another site nor outside the dashboard, whatever `next` says', async () => {
    const email = await addUser(rig.server, 'viewer');
    const attempts = [
      'https://evil.example/dashboard',
      '//evil.example/dashboard',
      '/\\evil.example',
      '/dashboard\\..\\..\\evil',
      'javascript:alert(1)',
      '/dashboard/../v1/balance',
      '/elsewhere',
      ' /dashboard/test',
      '/dashboard%2F%2Fevil.example',
    ];
    for (const next of attempts) {
      const response = await signInWithNext(email, next);
      expect(response.status, next).toBe(303);
      expect(response.headers.get('location'), next).toBe('/dashboard/test');
    }
    const allowed = await signInWithNext(email, '/dashboard/live/payments?status=failed');
    expect(allowed.headers.get('location')).toBe('/dashboard/live/payments?status=failed');
  });
});

/** A fresh account (its own time zone) and its owner's email. */
async function ownAccount() {
  const { account } = await rig.server.newAccount('Zoned shop');
  return { accountId: account.accountId, owner: await addUser(rig.server, 'owner', account.accountId) };
}

describe('the account time zone', () => {
  for (const [locale, saved] of [
    ['en-GB', 'Times are now shown in America/New_York.'],
    ['fr-CM', 'Les heures sont désormais affichées dans le fuseau America/New_York.'],
  ] as const) {
    it(`an owner sets it, and times on the pages follow it with UTC on hover (${locale})`, async () => {
      const { owner } = await ownAccount();
      const { page, context } = await openPage(rig.browser, rig.server, { ...desktop, locale });
      await signInAnyLanguage(page, rig.server, owner);
      await page.locator('nav a[href="/dashboard/test/settings"]').click();
      await expect(page.locator('#time-zone').inputValue()).resolves.toBe('Africa/Douala');
      await page.locator('#time-zone').selectOption('America/New_York');
      await page.locator('form[action$="/settings/time-zone"] button[type=submit]').click();
      await expect(page.getByRole('status').textContent()).resolves.toBe(saved);
      await expect(page.locator('#time-zone').inputValue()).resolves.toBe('America/New_York');
      await page.goto(`${origin(rig.server)}/dashboard/test/users`);
      const added = page.locator('td time').first();
      const iso = (await added.getAttribute('datetime')) ?? '';
      const inZone = new Intl.DateTimeFormat(locale === 'en-GB' ? 'en-CM' : 'fr-CM', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'America/New_York',
      }).format(Date.parse(iso));
      await expect(added.textContent()).resolves.toBe(inZone);
      expect(await added.getAttribute('title')).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`);
      await context.close();
    });
  }

  it('refuses a zone that is not in the list, and keeps the one set', async () => {
    const { accountId, owner } = await ownAccount();
    const { cookie } = await httpSignIn(rig.server, owner);
    const page = await fetch(`${origin(rig.server)}/dashboard/test/settings`, { headers: { cookie } });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    for (const zone of ['Mars/Olympus_Mons', 'UTC+1', '']) {
      const response = await fetch(`${origin(rig.server)}/dashboard/test/settings/time-zone`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, time_zone: zone }).toString(),
      });
      expect(response.status).toBe(303);
      const shown = await fetch(`${origin(rig.server)}/dashboard/test/settings`, { headers: { cookie } });
      expect(await shown.text()).toContain('Choose a time zone from the list.');
    }
    const account = await rig.server.service.deps.store.read((tx) => tx.accounts.account(accountId));
    expect(account?.time_zone).toBe('Africa/Douala');
  });

  it('is for owners only: a developer has no link to it and is refused the page (403)', async () => {
    const developer = await addUser(rig.server, 'developer');
    const { cookie } = await httpSignIn(rig.server, developer);
    const home = await fetch(`${origin(rig.server)}/dashboard/test`, { headers: { cookie } });
    expect(await home.text()).not.toContain('/dashboard/test/settings');
    const refused = await fetch(`${origin(rig.server)}/dashboard/test/settings`, { headers: { cookie } });
    expect(refused.status).toBe(403);
  });
});
