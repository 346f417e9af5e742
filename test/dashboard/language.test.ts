/**
 * The dashboard and the checkout page in French and English (decision 0036): the language from
 * `Accept-Language`, a switch on every page that is remembered, amounts and times for
 * Cameroon, and no English left on a French page. In Chromium, with axe-core on every French
 * page (pages.test.ts checks the English ones at desktop and phone widths).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../server/i18n/en.js';
import { fr } from '../../server/i18n/fr.js';
import { argumentNames } from '../../server/i18n/message-format.js';
import { ok } from '../support/api.js';
import { saveScreenshot } from '../support/browser.js';
import { createService, sandbox, sandboxBank } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import {
  desktop,
  type OpenedPage,
  openPage,
  origin,
  phone,
  seriousViolations,
  signInAnyLanguage,
  useSeededDashboard,
} from './support.js';

const seeded = useSeededDashboard();
const { ids } = seeded;
let server: TestServer;
let browser: Browser;
let owner: string;

beforeAll(async () => {
  ({ server, browser, owner } = seeded);
  ids.bankBatch = await batchOneBankPayout();
});

/** A bank payout, batched: the bank batches' pages have something to show. */
async function batchOneBankPayout() {
  const recipient_bank_account = { iban: sandboxBank.succeeds, holder_name: 'Awa Njoya' };
  const payout = {
    amount: 1000,
    currency: 'XAF',
    recipient_bank_account,
    payout_type: 'withdrawal',
  } as const;
  ok(await server.api.POST('/payouts', { body: payout }));
  return ok(await server.api.POST('/bank-batches', {})).data.batch_id;
}

const french = { ...desktop, locale: 'fr-CM' };

/**
 * What a reader sees of a page, and what a screen reader reads out: every text node and every
 * label, title and alternative text, except identifiers and data (`code`), which are no words.
 */
async function wordsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('code, script, style')) continue;
      const text = (node.textContent ?? '').trim();
      if (text) out.push(text);
    }
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]'))) {
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const value = el.getAttribute(name);
        if (value && !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/.test(value)) out.push(value);
      }
    }
    return out;
  });
}

/** English messages that French words differently (those equal in both, like "URL", are allowed). */
const englishOnly = new Set(
  (Object.keys(en) as Array<keyof typeof en>)
    .filter((key) => en[key] !== fr[key] && !en[key].includes('{'))
    .map((key) => en[key]),
);
const keys = new Set(Object.keys(en));
/** Words of English sentences that no French sentence has. */
const englishWords =
  /\b(the|and|of|your|with|is|are|this|that|to|yet|all|no|not|payment|payments|amount|status|created|refund|refunds|sign|key|keys|events?|balance|received|paid|overview|payouts?|top-ups?|users?|logs?|filter|clear|any|next|first)\b/i;

function englishIn(words: string[]): string[] {
  return words.filter(
    (word) => englishOnly.has(word) || keys.has(word) || (englishWords.test(word) && !word.includes('@')),
  );
}

describe('the catalogues', () => {
  it('have the same keys, and each French message the same arguments as the English one', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    const differing = (Object.keys(en) as Array<keyof typeof en>).filter(
      (key) => argumentNames(en[key]).join() !== argumentNames(fr[key]).join(),
    );
    expect(differing).toEqual([]);
  });
});

const pages: Array<[name: string, path: () => string]> = [
  ['overview', () => '/dashboard/test'],
  ['payments', () => '/dashboard/test/payments'],
  ['payment', () => `/dashboard/test/payments/${ids.payment}`],
  ['failed-payment', () => `/dashboard/test/payments/${ids.failed}`],
  ['payouts', () => '/dashboard/test/payouts'],
  ['payout', () => `/dashboard/test/payouts/${ids.payout}`],
  ['refund', () => `/dashboard/test/payouts/${ids.refund}`],
  ['topups', () => '/dashboard/test/topups'],
  ['topup', () => `/dashboard/test/topups/${ids.topup}`],
  ['refunds', () => '/dashboard/test/refunds'],
  ['webhooks', () => '/dashboard/test/webhooks'],
  ['webhook', () => `/dashboard/test/webhooks/${ids.endpoint}`],
  ['keys', () => '/dashboard/test/keys'],
  ['logs', () => '/dashboard/test/logs'],
  ['users', () => '/dashboard/test/users'],
  ['live-overview', () => '/dashboard/live'],
  ['live-webhooks', () => '/dashboard/live/webhooks'],
  ['bank-batches', () => '/dashboard/test/bank-batches'],
  ['bank-batch', () => `/dashboard/test/bank-batches/${ids.bankBatch}`],
  ['search', () => `/dashboard/test/search?q=${sandbox.mtn.succeeds.slice(0, 7)}`],
  ['search-none', () => '/dashboard/test/search?q=zzz-0000'],
  ['not-found', () => '/dashboard/test/payments/pay_unknown'],
  ['payout-new', () => '/dashboard/test/payouts/new'],
  ['bulk-payouts', () => '/dashboard/test/payouts/bulk'],
];

describe('every dashboard page in French', () => {
  let session: OpenedPage;
  // The owner signs in once, in French, and that tab visits every page in turn.
  beforeAll(async () => {
    session = await openPage(browser, server, french);
    await signInAnyLanguage(session.page, server, owner);
  });
  afterAll(() => session.context.close());

  it('the sign-in page: French from Accept-Language, no English, no serious accessibility violation', async () => {
    const { page, context } = await openPage(browser, server, french);
    await page.goto(`${origin(server)}/dashboard/sign-in`);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await expect(page.title()).resolves.toBe('Connexion au tableau de bord · Tableau de bord');
    expect(englishIn(await wordsOf(page))).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, 'dashboard-fr-sign-in-desktop');
    await context.close();
  });

  for (const [name, path] of pages) {
    it(`the ${name} page: no English, no missing message, no serious accessibility violation`, async () => {
      const { page } = session;
      const response = await page.goto(`${origin(server)}${path()}`);
      expect(response?.status()).toBe(name === 'not-found' ? 404 : 200);
      expect(await page.getAttribute('html', 'lang')).toBe('fr');
      expect(englishIn(await wordsOf(page))).toEqual([]);
      const violations = await seriousViolations(page);
      expect(
        violations.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`),
      ).toEqual([]);
      await saveScreenshot(page, `dashboard-fr-${name}-desktop`);
    });
  }
});

describe('a French page on a phone', () => {
  it("a payment's page fits the screen and has no serious accessibility violation", async () => {
    const { page, context } = await openPage(browser, server, { ...phone, locale: 'fr-CM' });
    await signInAnyLanguage(page, server, owner);
    await page.goto(`${origin(server)}/dashboard/test/payments/${ids.payment}`);
    expect(englishIn(await wordsOf(page))).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, 'dashboard-fr-payment-phone');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(phone.viewport?.width ?? 0);
    await context.close();
  });
});

describe('choosing the language', () => {
  it('shows amounts and times for Cameroon: 6 000 FCFA, Douala time, UTC on hover', async () => {
    const { page, context } = await openPage(browser, server, french);
    await signInAnyLanguage(page, server, owner);
    await page.goto(`${origin(server)}/dashboard/test/payments/${ids.payment}`);
    await expect(page.locator('dl.facts dd').first().textContent()).resolves.toBe('6\u202f000\u00a0FCFA');
    const created = page.locator('dl.facts time').first();
    const utc = (await created.getAttribute('title')) ?? '';
    expect(utc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    const ms = Date.parse(`${utc.slice(0, 16).replace(' ', 'T')}:00Z`);
    const douala = new Intl.DateTimeFormat('fr-CM', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Africa/Douala',
    }).format(ms);
    await expect(created.textContent()).resolves.toBe(douala);
    await context.close();
  });

  it('switches to English from any page, comes back to the same page, and remembers it', async () => {
    const { page, context } = await openPage(browser, server, french);
    await signInAnyLanguage(page, server, owner);
    await page.goto(`${origin(server)}/dashboard/test/payouts?status=success`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Décaissements');
    await page.locator('#language-en').click();
    await page.waitForURL(/\/dashboard\/test\/payouts\?status=success$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Payouts');
    await page.goto(`${origin(server)}/dashboard/test/refunds`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Refunds');
    await page.locator('#language-fr').click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Remboursements');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await context.close();
  });

  it('speaks English to a browser that asks for it, and French once chosen on the sign-in page', async () => {
    const { page, context } = await openPage(browser, server, { ...desktop, locale: 'en-GB' });
    await page.goto(`${origin(server)}/dashboard/sign-in`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Sign in to the dashboard');
    await page.locator('#language-fr').click();
    await page.waitForURL(/\/dashboard\/sign-in$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Connexion au tableau de bord');
    await signInAnyLanguage(page, server, owner);
    await expect(page.locator('h1').textContent()).resolves.toBe('Vue d’ensemble');
    await context.close();
  });

  it('goes back only to a page of the dashboard, never to another site', async () => {
    for (const back of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', '/elsewhere']) {
      const response = await fetch(
        `${origin(server)}/dashboard/language/fr?back=${encodeURIComponent(back)}`,
        { redirect: 'manual' },
      );
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/dashboard');
    }
  });

  it('says a refused action in French: a refund above what remains', async () => {
    const { page, context } = await openPage(browser, server, french);
    await signInAnyLanguage(page, server, owner);
    await page.goto(`${origin(server)}/dashboard/test/payments/${ids.payment}`);
    await page.locator('#refund-amount').evaluate((input) => input.removeAttribute('max'));
    await page.locator('#refund-amount').fill('999999');
    await page.locator('#refund-button').click();
    await expect(page.locator('.flash-error').textContent()).resolves.toBe(
      'Le remboursement dépasse ce qui reste du paiement.',
    );
    await context.close();
  });
});

describe('the checkout page in French, on a phone', () => {
  async function hostedLink(): Promise<string> {
    const created = await server.raw('POST', '/payments/initiate', {
      body: { amount: 2500, currency: 'XAF', service_id: await createService(server) },
    });
    return created.body.data.checkout_url as string;
  }

  it('reads in French, explains a wrong number in French, and has no serious accessibility violation', async () => {
    const url = await hostedLink();
    const { page, context } = await openPage(browser, server, { ...phone, locale: 'fr-CM' });
    await page.goto(url);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await expect(page.locator('h1').textContent()).resolves.toBe('Payer par Mobile Money');
    await expect(page.locator('#pay').textContent()).resolves.toBe('Payer 2\u202f500\u00a0FCFA');
    expect(englishIn(await wordsOf(page))).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('#msisdn').fill('12');
    await page.locator('#pay').click();
    await page.locator('#msisdn-error', { hasText: 'l’indicatif du pays' }).waitFor();
    await expect(page.locator('#pay').textContent()).resolves.toBe('Payer 2\u202f500\u00a0FCFA');
    await saveScreenshot(page, 'checkout-fr-phone');
    await context.close();
  });

  it('follows the payment in French until it is received, after switching from English', async () => {
    const url = await hostedLink();
    const { page, context } = await openPage(browser, server, { ...phone, locale: 'en-US' });
    await page.goto(url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Pay with Mobile Money');
    await page.locator('#language-fr').click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Payer par Mobile Money');
    await page.locator('#msisdn').fill(sandbox.mtn.succeeds);
    await page.locator('#pay').click();
    await page.getByRole('status').filter({ hasText: 'Validez le paiement' }).waitFor();
    await server.settle(2000);
    await page.getByRole('status').filter({ hasText: 'Paiement reçu. Merci !' }).waitFor({ timeout: 10_000 });
    expect(englishIn(await wordsOf(page))).toEqual([]);
    await context.close();
  });
});
