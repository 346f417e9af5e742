/**
 * Two-step sign-in in Chromium (issue 46, decision 0045), as a person does it: from the link at
 * the foot of every page, with the key the page shows, then signing in with the code; and an
 * owner of an account that requires it, setting it up at sign-in on a phone, in French. What
 * the server stores and refuses is two-step-over-http.test.ts, on both engines.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { base32Decode, totpCode, totpStep } from '../../server/domain/totp.js';
import { DashboardClient } from './http-client.js';
import {
  addUser,
  httpSignIn,
  openPage,
  origin,
  password,
  phone,
  seriousViolations,
  signIn,
  useDashboardRig,
} from './support.js';

const rig = useDashboardRig();

/** The code an authenticator app shows now for the key the page shows, by the server's clock. */
async function codeFor(page: Page): Promise<string> {
  const key = ((await page.locator('#two-step-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  return totpCode(base32Decode(key) ?? Buffer.alloc(0), totpStep(rig.server.clock.now()));
}

describe('two-step sign-in, in English on a desktop', () => {
  it('is turned on from the link at the foot of a page, then asked for after the password', async () => {
    const email = await addUser(rig.server, 'viewer');
    const { page, context } = await openPage(rig.browser, rig.server);
    await signIn(page, rig.server, email);
    await page.getByRole('link', { name: 'Two-step sign-in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Two-step sign-in' }).waitFor();
    await expect(
      page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).count(),
    ).resolves.toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Six-digit code').fill(await codeFor(page));
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await expect(page.locator('#recovery-codes li').count()).resolves.toBe(10);
    await expect(page.locator('#two-step-status').textContent()).resolves.toContain('10 recovery codes left');
    expect(await seriousViolations(page)).toEqual([]);
    const recovery = (await page.locator('#recovery-codes li').first().textContent()) ?? '';

    // The next sign-in asks for a code after the password; a recovery code does instead of the phone.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.goto(`${origin(rig.server)}/dashboard/test/payments`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Two-step sign-in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Six-digit code or recovery code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('That code is not right');
    await page.getByLabel('Six-digit code or recovery code').fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/dashboard\/test\/payments$/);
    await context.close();
  });
});

describe('an account that requires it of owners, in French on a phone', () => {
  it('has an owner set it up at sign-in, go on to the page asked for, then give a code at the next sign-in', async () => {
    const { account } = await rig.server.newAccount('Boutique exigeante');
    // The first owner turns it on and requires it, over HTTP (two-step-over-http.test.ts covers those pages).
    const first = await addUser(rig.server, 'owner', account.accountId);
    const firstClient = new DashboardClient((await httpSignIn(rig.server, first)).cookie, () => rig.server);
    const own = await firstClient.open('/dashboard/test/two-step');
    const key = /id="two-step-secret">([A-Z2-7 ]+)</.exec(own.html)?.[1]?.replace(/ /g, '') ?? '';
    const code = totpCode(base32Decode(key) ?? Buffer.alloc(0), totpStep(rig.server.clock.now()));
    expect((await firstClient.submit(own.html, '/dashboard/test/two-step/enable', { code })).status).toBe(
      200,
    );
    const settings = await firstClient.open('/dashboard/test/settings');
    await firstClient.submit(settings.html, '/dashboard/test/settings/two-step', {
      owners_need_two_step: 'on',
    });

    const second = await addUser(rig.server, 'owner', account.accountId);
    const { page, context } = await openPage(rig.browser, rig.server, { ...phone, locale: 'fr-CM' });
    await page.goto(`${origin(rig.server)}/dashboard/test/settings`);
    await page.locator('#email').fill(second);
    await page.locator('#password').fill(password);
    await page.locator('form[action="/dashboard/sign-in"] button[type=submit]').click();
    await page.getByRole('heading', { level: 1, name: 'Configurer la connexion en deux étapes' }).waitFor();
    await expect(
      page.getByRole('img', { name: 'Code QR à scanner avec votre application d’authentification' }).count(),
    ).resolves.toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    // The QR code fits the phone's screen.
    const box = await page.locator('svg.qr').boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);

    const enrolled = ((await page.locator('#two-step-secret').textContent()) ?? '').replace(/\s/g, '');
    await page.getByLabel('Code à six chiffres').fill(await codeFor(page));
    await page.getByRole('button', { name: 'Activer la connexion en deux étapes' }).click();
    await page.getByRole('heading', { name: 'Vos codes de secours' }).waitFor();
    await expect(page.locator('#recovery-codes li').count()).resolves.toBe(10);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Continuer vers le tableau de bord' }).click();
    await page.waitForURL(/\/dashboard\/test\/settings$/);
    await expect(page.locator('#owners-need-two-step').isChecked()).resolves.toBe(true);

    // Their next sign-in asks for the code, in French.
    await page.locator('form[action="/dashboard/sign-out"] button').click();
    await page.locator('#email').fill(second);
    await page.locator('#password').fill(password);
    await page.locator('form[action="/dashboard/sign-in"] button[type=submit]').click();
    await page.getByRole('heading', { level: 1, name: 'Connexion en deux étapes' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    rig.server.clock.advance(30_000);
    await page
      .getByLabel('Code à six chiffres ou code de secours')
      .fill(totpCode(base32Decode(enrolled) ?? Buffer.alloc(0), totpStep(rig.server.clock.now())));
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await page.waitForURL(/\/dashboard\/test$/);
    await context.close();
  });
});
