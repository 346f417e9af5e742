/**
 * Everyday work in the dashboard (issue 46), in Chromium against the real server: services made,
 * renamed and deactivated from their page, and named (never by their `svc_` id) in the lists and
 * their filter; every list downloaded as CSV with its filters; a refund's steps in its payment's
 * timeline. In English and in French where the words matter.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, sandbox } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import {
  addUser,
  desktop,
  httpSignIn,
  type OpenedPage,
  openPage,
  origin,
  signInAnyLanguage,
  useSeededDashboard,
} from './support.js';

const seeded = useSeededDashboard();
const { ids } = seeded;
let server: TestServer;
let browser: Browser;
const sessions: Record<'en' | 'fr', OpenedPage | undefined> = { en: undefined, fr: undefined };

beforeAll(async () => {
  ({ server, browser } = seeded);
  for (const locale of ['en', 'fr'] as const) {
    const session = await openPage(browser, server, {
      ...desktop,
      locale: locale === 'fr' ? 'fr-CM' : 'en-GB',
    });
    await signInAnyLanguage(session.page, server, seeded.owner);
    sessions[locale] = session;
  }
});
afterAll(async () => {
  for (const session of Object.values(sessions)) await session?.context.close();
});

const tab = (locale: 'en' | 'fr') => (sessions[locale] as OpenedPage).page;
const go = (page: Page, path: string) => page.goto(`${origin(server)}/dashboard/test${path}`);
const flash = (page: Page) => page.locator('.flash').textContent();

/** Clicks a form's button and waits for the page the server answers with. */
async function submit(page: Page, button: ReturnType<Page['locator']>) {
  await Promise.all([page.waitForEvent('framenavigated'), button.click()]);
  await page.waitForLoadState();
}

/** Creates a service from the services page; returns its id, read from the confirmation. */
async function createFromPage(page: Page, name: string): Promise<string> {
  await go(page, '/services');
  await page.locator('#service-name').fill(name);
  await submit(page, page.locator('#create-service-button'));
  return /\((svc_\w+)\)/.exec((await flash(page)) ?? '')?.[1] as string;
}

async function apiService(id: string) {
  return (await server.raw('GET', `/services/${id}`)).body.data as { name: string; status: string };
}

describe('the services page', () => {
  it('creates a service, in English: it is listed and the API knows it', async () => {
    const page = tab('en');
    const id = await createFromPage(page, 'Marché Mokolo');
    await expect(flash(page)).resolves.toBe(`Service Marché Mokolo created (${id}).`);
    await expect(page.locator(`#service-${id}`).textContent()).resolves.toContain('Marché Mokolo');
    await expect(apiService(id)).resolves.toMatchObject({ name: 'Marché Mokolo', status: 'active' });
  });

  it('renames a service, in French, through the same rules as the API', async () => {
    const page = tab('fr');
    const id = await createFromPage(page, 'Kiosque Bonabéri');
    await page.getByLabel('Nouveau nom pour Kiosque Bonabéri').fill('Kiosque Bonabéri 2');
    await submit(page, page.locator(`#service-${id}`).getByRole('button', { name: 'Renommer' }));
    await expect(flash(page)).resolves.toBe('Service renommé en Kiosque Bonabéri 2.');
    await expect(apiService(id)).resolves.toMatchObject({ name: 'Kiosque Bonabéri 2' });
  });

  it('deactivates a service, in French: it takes no new payment until it is reactivated', async () => {
    const page = tab('fr');
    const id = await createFromPage(page, 'Boutique Deido');
    await submit(page, page.locator(`#service-${id}`).getByRole('button', { name: 'Désactiver' }));
    await expect(flash(page)).resolves.toBe(
      'Service Boutique Deido désactivé : il ne reçoit plus de nouveau paiement.',
    );
    const refused = await server.raw('POST', '/payments', {
      body: {
        amount: 500,
        currency: 'XAF',
        customer_msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
        service_id: id,
      },
    });
    expect(refused.body.error?.code).toBe('service_inactive');
    await submit(page, page.locator(`#service-${id}`).getByRole('button', { name: 'Réactiver' }));
    await expect(apiService(id)).resolves.toMatchObject({ status: 'active' });
  });

  it("shows each service's successful payments of the period: count and amount", async () => {
    const page = tab('en');
    await go(page, '/services');
    const row = page.locator('tr', { hasText: 'Boutique Akwa' });
    // Seeded: 12,000, 4,500 and, today, 8,000 and 6,000 settled; 2,000 failed.
    await expect(row.textContent()).resolves.toContain('4 payments, FCFA\u00a030,500');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Douala' }).format(server.clock.now());
    await go(page, `/services?from=${today}&to=${today}`);
    await expect(page.locator('tr', { hasText: 'Boutique Akwa' }).textContent()).resolves.toContain(
      '2 payments, FCFA\u00a014,000',
    );
  });
});

describe('who may change services', () => {
  it('shows a viewer no service form, and refuses their posted one with 403: nothing is created', async () => {
    const { cookie } = await httpSignIn(server, await addUser(server, 'viewer'));
    const page = await (
      await fetch(`${origin(server)}/dashboard/test/services`, { headers: { cookie } })
    ).text();
    expect(page).not.toContain('id="service-name"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const posted = await fetch(`${origin(server)}/dashboard/test/services`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, name: 'Not allowed' }).toString(),
    });
    expect(posted.status).toBe(403);
    const names = (await server.raw('GET', '/services')).body.data.items.map((s: { name: string }) => s.name);
    expect(names).not.toContain('Not allowed');
  });
});

describe('services by name in the lists', () => {
  it('names the service of each payment, and filters by a choice of the services by name', async () => {
    const page = tab('en');
    const id = await createFromPage(page, 'Cave Bali');
    await collect(server, id, 777);
    await go(page, '/payments');
    expect(await page.content()).not.toMatch(/<td[^>]*>svc_/);
    await expect(page.locator('tbody tr').first().textContent()).resolves.toContain('Cave Bali');
    await page.getByLabel('Service', { exact: true }).selectOption({ label: 'Cave Bali' });
    await submit(page, page.getByRole('button', { name: 'Filter' }));
    expect(page.url()).toContain(`service_id=${id}`);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('FCFA\u00a0777');
  });

  it("names the service on a payment's page, not its id", async () => {
    const page = tab('fr');
    await go(page, `/payments/${ids.payment}`);
    const facts = (await page.locator('dl.facts').textContent()) ?? '';
    expect(facts).toContain('Boutique Akwa');
    expect(facts).not.toMatch(/svc_/);
  });
});

describe('CSV exports', () => {
  for (const [locale, words] of [
    ['en', { status: 'Status', filter: 'Filter', download: 'Download as CSV (filters applied)' }],
    ['fr', { status: 'État', filter: 'Filtrer', download: 'Télécharger en CSV (filtres appliqués)' }],
  ] as const) {
    it(`downloads the filtered payments (${locale}): the same rows as the list on screen, every time in UTC and local`, async () => {
      const page = tab(locale);
      await go(page, '/payments');
      await page.getByLabel(words.status).selectOption('failed');
      await submit(page, page.getByRole('button', { name: words.filter }));
      const shown = await page.locator('tbody tr td:first-child code').allTextContents();
      expect(shown.length).toBeGreaterThan(0);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: words.download }).click(),
      ]);
      // The columns are the API's names in either language: a file for programs as much as people.
      const [head, ...lines] = (await readFile(await download.path(), 'utf8')).trim().split('\n');
      expect(head?.split(',').slice(0, 3)).toEqual(['id', 'created_at', 'status']);
      expect(head?.endsWith(',created_local')).toBe(true);
      expect(lines.map((l) => l.split(',')[0])).toEqual(shown);
      for (const line of lines) {
        expect(line.split(',')[2]).toBe('failed');
        expect(line).toMatch(/,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00$/);
      }
    });
  }

  it('downloads every list with its filters: refunds of one payment, top-ups, payouts, logs, bank batches', async () => {
    const { cookie } = await httpSignIn(server, seeded.owner);
    const csv = async (path: string) =>
      (await (await fetch(`${origin(server)}/dashboard/test${path}`, { headers: { cookie } })).text())
        .trim()
        .split('\n');
    const refunds = await csv(`/refunds.csv?payment_id=${ids.payment}`);
    expect(refunds.slice(1).map((l) => l.split(',')[0])).toEqual([ids.refund]);
    expect(
      (await csv(`/payouts.csv?payout_type=withdrawal`)).slice(1).every((l) => l.includes(',withdrawal,')),
    ).toBe(true);
    expect((await csv('/topups.csv')).slice(1).map((l) => l.split(',')[0])).toContain(ids.topup);
    expect((await csv('/logs.csv?method=POST')).slice(1).every((l) => l.split(',')[2] === 'POST')).toBe(true);
    expect((await csv('/bank-batches.csv'))[0]).toMatch(/^id,created_at,currency,payout_count/);
  });
});

describe('a refund on its payment', () => {
  it('says what it refunds on its button: the amount, the payment and the customer', async () => {
    const en = tab('en');
    await go(en, `/payments/${ids.payment}`);
    await expect(en.locator('#refund-button').textContent()).resolves.toBe(
      `Refund FCFA\u00a05,000 of payment ${ids.payment} to ${sandbox.mtn.succeeds}`,
    );
    await en.locator('#refund-amount').fill('1500');
    await expect(en.locator('#refund-button').textContent()).resolves.toContain('Refund FCFA\u00a01,500 of');
    const fr = tab('fr');
    await go(fr, `/payments/${ids.payment}`);
    await expect(fr.locator('#refund-button').textContent()).resolves.toBe(
      `Rembourser 5\u202f000\u00a0FCFA du paiement ${ids.payment} au ${sandbox.mtn.succeeds}`,
    );
  });

  it("shows the refund's steps, ledger entry and events in the payment's timeline", async () => {
    const page = tab('en');
    await go(page, `/payments/${ids.payment}`);
    const steps = await page.locator('.timeline > li').allTextContents();
    const ofRefund = steps.filter((s) => s.includes(`Refund ${ids.refund}:`));
    expect(ofRefund.some((s) => s.includes('Refund of FCFA\u00a01,000 created'))).toBe(true);
    expect(ofRefund.some((s) => /Ledger: .*-FCFA\u00a01,000/.test(s))).toBe(true);
    expect(ofRefund.some((s) => s.includes('Event refund.completed'))).toBe(true);
    const fr = tab('fr');
    await go(fr, `/payments/${ids.payment}`);
    const frenchSteps = (await fr.locator('.timeline > li').allTextContents()).filter((s) =>
      s.includes(`Remboursement ${ids.refund}`),
    );
    expect(frenchSteps.some((s) => s.includes('Remboursement de 1\u202f000\u00a0FCFA créé'))).toBe(true);
    expect(frenchSteps.some((s) => s.includes('Événement refund.completed'))).toBe(true);
  });
});
