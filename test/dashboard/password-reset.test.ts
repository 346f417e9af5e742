/**
 * "Forgot password?" (issue 46, decision 0043): a one-time link, mailed through SMTP where it is
 * configured (a tiny SMTP server on 127.0.0.1 here) or printed by `npm run admin -- reset-link`
 * where it is not. The answer never tells whether the email is a user's; the link works once,
 * for 30 minutes, until a newer one or a password change, and using it ends every session.
 */
import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import {
  acceptLink,
  createDashboardUser,
  createResetLink,
  findLink,
  maxResetsPerEmail,
  resetLinkLifetimeMs,
  resetPassword,
} from '../../server/domain/dashboard-users.js';
import { runAdmin } from '../support/admin.js';
import { releaseChromium, sharedChromium } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { type SmtpServer, startSmtpServer } from '../support/smtp-server.js';
import { addUser, desktop, httpSignIn, openPage, origin, password, signInForm } from './support.js';

let smtp: SmtpServer;
/** A server that mails its links. */
let mailed: TestServer;
/** A server without mail: links come from the admin CLI. */
let plain: TestServer;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  mailed = await startTestServer({
    SMTP_URL: `smtp://mailer:mail%20secret@127.0.0.1:${smtp.port}`,
    SMTP_FROM: 'no-reply@shop.example',
  });
  plain = await startTestServer();
  browser = await sharedChromium();
});
afterAll(async () => {
  await releaseChromium(browser);
  await mailed?.close();
  await plain?.close();
  await smtp?.close();
});

const newPassword = 'a brand new passphrase';

/** Asks for a link over HTTP as a browser would; the answer's status and its words. */
async function askForLink(server: TestServer, email: string) {
  const { preCookie, token } = await signInForm(server);
  const response = await fetch(`${origin(server)}/dashboard/forgot-password`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: preCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token, email }).toString(),
  });
  const text = (await response.text()).replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/g, '');
  return { status: response.status, text };
}

const linkIn = (text: string) => /(http\S+\/dashboard\/reset\/[\w-]{43})/.exec(text)?.[1] ?? '';

describe('the reset link, mailed', () => {
  for (const [locale, words] of [
    [
      'en-GB',
      { sent: 'If a user of the dashboard has this email', subject: 'Reset your dashboard password' },
    ],
    ['fr-CM', { sent: 'Si un utilisateur du tableau de bord a cette adresse', subject: 'Réinitialisez' }],
  ] as const) {
    it(`sends a link that sets a new password and ends every session (${locale})`, async () => {
      const email = await addUser(mailed, 'owner');
      const elsewhere = await httpSignIn(mailed, email);
      const already = smtp.mails.length;
      const { page, context } = await openPage(browser, mailed, { ...desktop, locale });
      await page.goto(`${origin(mailed)}/dashboard/sign-in`);
      await page.locator('#forgot-password').click();
      await page.locator('#email').fill(email);
      await page.locator('form[action="/dashboard/forgot-password"] button').click();
      await expect(page.getByRole('status').textContent()).resolves.toContain(words.sent);
      const mail = (await smtp.received(already + 1))[already];
      expect(mail).toMatchObject({ to: email, from: 'no-reply@shop.example', auth: 'mailer' });
      expect(mail?.subject).toContain(words.subject);
      await page.goto(linkIn(mail?.text ?? ''));
      await page.locator('#new-password').fill(newPassword);
      await page.locator('form[action^="/dashboard/reset/"] button').click();
      await page.waitForURL(/\/dashboard\/sign-in\?reset=1$/);
      await page.getByRole('status').waitFor();
      const old = await fetch(`${origin(mailed)}/dashboard/test`, {
        headers: { cookie: elsewhere.cookie },
        redirect: 'manual',
      });
      expect(old.status).toBe(303);
      expect((await httpSignIn(mailed, email, password)).status).toBe(401);
      expect((await httpSignIn(mailed, email, newPassword)).status).toBe(303);
      await context.close();
    });
  }

  it('answers an unknown email exactly as a known one, and mails nothing for it', async () => {
    const email = await addUser(mailed, 'viewer');
    const before = smtp.mails.length;
    const known = await askForLink(mailed, email);
    const unknown = await askForLink(mailed, 'nobody-here@shop.example');
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    await smtp.received(before + 1);
    expect(smtp.mails.slice(before).map((m) => m.to)).toEqual([email]);
  });

  it(`refuses a ${maxResetsPerEmail + 1}th request for one email within the hour (429), known or not`, async () => {
    // A new hour: the requests other tests sent from this address before (the order is shuffled)
    // do not count towards its own limit, which these eight requests would pass otherwise.
    mailed.clock.advance(61 * 60_000);
    for (const email of [await addUser(mailed, 'viewer'), 'ghost@shop.example']) {
      for (let i = 0; i < maxResetsPerEmail; i++) expect((await askForLink(mailed, email)).status).toBe(200);
      const refused = await askForLink(mailed, email);
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('Too many requests for a link.');
    }
    // The hour passes: asking works again (and this address's count starts anew for the other tests).
    mailed.clock.advance(61 * 60_000);
    expect((await askForLink(mailed, 'ghost@shop.example')).status).toBe(200);
  });

  it('refuses an 11th request from one address within the hour (429), whatever the emails', async () => {
    // A window of its own: the other tests' requests came from this address too.
    mailed.clock.advance(61 * 60_000);
    for (let i = 0; i < 10; i++) {
      expect((await askForLink(mailed, `someone-${i}@shop.example`)).status).toBe(200);
    }
    expect((await askForLink(mailed, 'someone-else@shop.example')).status).toBe(429);
    mailed.clock.advance(61 * 60_000);
    expect((await askForLink(mailed, 'someone-else@shop.example')).status).toBe(200);
  });

  it('refuses a new password that is too short or common, as at user creation', async () => {
    const email = await addUser(mailed, 'developer');
    const link = await createResetLink(mailed.service.deps.store, email, mailed.clock.now());
    const deps = mailed.service.deps;
    expect(await resetPassword(deps, link?.token ?? '', 'short')).toMatchObject({ ok: false });
    expect(await resetPassword(deps, link?.token ?? '', 'password2024!')).toMatchObject({ ok: false });
    expect((await httpSignIn(mailed, email, password)).status).toBe(303);
  });
});

describe('the reset token', () => {
  const store = () => mailed.service.deps.store;
  const deps = () => mailed.service.deps;

  it('is stored only as its SHA-256', async () => {
    const email = await addUser(mailed, 'viewer');
    const link = await createResetLink(store(), email, mailed.clock.now());
    const token = link?.token ?? '';
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const row = await store().read((tx) => tx.dashboard.link(createHash('sha256').update(token).digest()));
    expect(row).toMatchObject({ purpose: 'reset', user_id: link?.user.id });
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it(`expires ${resetLinkLifetimeMs / 60_000} minutes after it was made`, async () => {
    const email = await addUser(mailed, 'viewer');
    const link = await createResetLink(store(), email, mailed.clock.now());
    mailed.clock.advance(resetLinkLifetimeMs - 1000);
    expect(await findLink(deps(), link?.token ?? '', 'reset')).toBeDefined();
    mailed.clock.advance(2000);
    expect(await findLink(deps(), link?.token ?? '', 'reset')).toBeUndefined();
    expect(await resetPassword(deps(), link?.token ?? '', newPassword)).toMatchObject({ ok: false });
  });

  it('works once', async () => {
    const email = await addUser(mailed, 'viewer');
    const link = await createResetLink(store(), email, mailed.clock.now());
    expect(await resetPassword(deps(), link?.token ?? '', newPassword)).toMatchObject({ ok: true });
    expect(await resetPassword(deps(), link?.token ?? '', 'yet another passphrase')).toMatchObject({
      ok: false,
    });
    expect((await httpSignIn(mailed, email, newPassword)).status).toBe(303);
  });

  it('stops working when a newer link is made', async () => {
    const email = await addUser(mailed, 'viewer');
    const older = await createResetLink(store(), email, mailed.clock.now());
    const newer = await createResetLink(store(), email, mailed.clock.now());
    expect(await findLink(deps(), older?.token ?? '', 'reset')).toBeUndefined();
    expect(await findLink(deps(), newer?.token ?? '', 'reset')).toBeDefined();
  });

  it("stops working when the password changes otherwise, and a reset ends the user's other links", async () => {
    const { linkToken } = await createDashboardUser(
      store(),
      { accountId: mailed.account.accountId, email: 'invited-reset@shop.example', role: 'viewer' },
      mailed.clock.now(),
    );
    const first = await createResetLink(store(), 'invited-reset@shop.example', mailed.clock.now());
    expect(await acceptLink(deps(), linkToken ?? '', newPassword)).toMatchObject({ ok: true });
    expect(await findLink(deps(), first?.token ?? '', 'reset')).toBeUndefined();
    const second = await createResetLink(store(), 'invited-reset@shop.example', mailed.clock.now());
    expect(await findLink(deps(), second?.token ?? '', 'reset')).toBeDefined();
  });

  it('is not an invitation: the welcome page refuses it, and the reset page an invitation', async () => {
    const email = await addUser(mailed, 'viewer');
    const link = await createResetLink(store(), email, mailed.clock.now());
    const welcome = await fetch(`${origin(mailed)}/dashboard/welcome/${link?.token}`);
    expect(welcome.status).toBe(404);
    const reset = await fetch(`${origin(mailed)}/dashboard/reset/${link?.token}`);
    expect(reset.status).toBe(200);
  });
});

describe('without mail', () => {
  for (const [locale, words] of [
    ['en-GB', 'ask your administrator'],
    ['fr-CM', 'demandez à votre administrateur'],
  ] as const) {
    it(`the page says to ask an administrator, with no form (${locale})`, async () => {
      const { page, context } = await openPage(browser, plain, { ...desktop, locale });
      await page.goto(`${origin(plain)}/dashboard/sign-in`);
      await page.locator('#forgot-password').click();
      await expect(page.locator('main').textContent()).resolves.toContain(words);
      await expect(page.locator('code').textContent()).resolves.toBe('npm run admin -- reset-link <email>');
      expect(await page.locator('form[action="/dashboard/forgot-password"]').count()).toBe(0);
      await context.close();
    });
  }

  it('npm run admin -- reset-link prints a link that sets a new password', async () => {
    const email = await addUser(plain, 'owner');
    const env = { ...plain.databaseEnv, PUBLIC_URL: origin(plain), NODE_ENV: 'test' };
    const { code, out } = await runAdmin(['reset-link', email], env);
    expect(code, out).toBe(0);
    const token = new URL(linkIn(out)).pathname.split('/').pop() ?? '';
    expect(await resetPassword(plain.service.deps, token, newPassword)).toMatchObject({ ok: true });
    expect((await httpSignIn(plain, email, newPassword)).status).toBe(303);
    const unknown = await runAdmin(['reset-link', 'nobody@shop.example'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain('No dashboard user has the email nobody@shop.example.');
  });
});

describe('the mail settings', () => {
  it('stop the start when half set or not SMTP, naming what is wrong', () => {
    for (const [env, problem] of [
      [{ SMTP_URL: 'smtps://mail.example.com' }, 'SMTP_URL and SMTP_FROM go together'],
      [{ SMTP_FROM: 'no-reply@example.com' }, 'SMTP_URL and SMTP_FROM go together'],
      [{ SMTP_URL: 'https://mail.example.com', SMTP_FROM: 'a@example.com' }, 'must start with smtp://'],
      [{ SMTP_URL: 'smtps://mail.example.com', SMTP_FROM: 'Shop <a@example.com>' }, 'SMTP_FROM must be'],
    ] as const) {
      expect(() => loadConfig(env), problem).toThrow(problem);
    }
  });

  it('read smtps:// as TLS on 465 and smtp:// as STARTTLS on 587, with the credentials decoded', () => {
    const tls = loadConfig({ SMTP_URL: 'smtps://u%40x:p%20w@mail.example.com', SMTP_FROM: 'a@example.com' });
    expect(tls.mail).toMatchObject({
      host: 'mail.example.com',
      port: 465,
      implicitTls: true,
      username: 'u@x',
      password: 'p w',
    });
    const starttls = loadConfig({ SMTP_URL: 'smtp://mail.example.com', SMTP_FROM: 'a@example.com' });
    expect(starttls.mail).toMatchObject({ port: 587, implicitTls: false });
    expect(loadConfig({}).mail).toBeNull();
  });
});
