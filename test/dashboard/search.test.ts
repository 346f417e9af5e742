/**
 * The search box of every dashboard page (issue 46): an id, the merchant's own reference or a
 * phone number (whole or its first digits) finds the movement, and one found opens it. In
 * Chromium, in French and in English, with axe-core on the results.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../support/api.js';
import { collect, createService, sandbox } from '../support/fixtures.js';
import { desktop, openPage, seriousViolations, signInAnyLanguage, useSeededDashboard } from './support.js';

const seeded = useSeededDashboard();
const { ids } = seeded;

beforeAll(async () => {
  // A payment with the merchant's own reference, and one from an Orange number.
  const serviceId = await createService(seeded.server);
  const referenced = await seeded.server.api.POST('/payments', {
    body: {
      amount: 1500,
      currency: 'XAF',
      customer_msisdn: sandbox.orange.succeeds,
      payment_method: 'orange_money',
      service_id: serviceId,
      reference: 'INV-2026-0042',
    },
  });
  ids.referenced = ok(referenced).data.transaction_id;
  ids.orange = await collect(seeded.server, serviceId, 700, sandbox.orange.fails);
});

async function signedIn(locale: 'fr-CM' | 'en-US') {
  const opened = await openPage(seeded.browser, seeded.server, { ...desktop, locale });
  await signInAnyLanguage(opened.page, seeded.server, seeded.owner);
  return opened;
}

async function search(page: Page, text: string) {
  await page.locator('#search-q').fill(text);
  await page.locator('#search-q').press('Enter');
  await page.waitForURL(/\/dashboard\/test\/(search|payments|payouts|topups)/);
}

for (const locale of ['fr-CM', 'en-US'] as const) {
  describe(`searching, in ${locale}`, () => {
    it('opens a payment, a payout, a refund and a top-up by its id', async () => {
      const { page, context } = await signedIn(locale);
      for (const [id, kind] of [
        [ids.payment, 'payments'],
        [ids.payout, 'payouts'],
        [ids.refund, 'payouts'],
        [ids.topup, 'topups'],
      ] as const) {
        await search(page, ` ${id} `);
        expect(new URL(page.url()).pathname).toBe(`/dashboard/test/${kind}/${id}`);
      }
      await context.close();
    });

    it("opens the one payment with the merchant's own reference", async () => {
      const { page, context } = await signedIn(locale);
      await search(page, 'INV-2026-0042');
      expect(new URL(page.url()).pathname).toBe(`/dashboard/test/payments/${ids.referenced}`);
      await context.close();
    });

    it('lists what a phone number matches, by its first digits or whole as typed, and opens one', async () => {
      const { page, context } = await signedIn(locale);
      const orange = sandbox.orange.succeeds;
      await search(page, orange.slice(0, 6));
      const found = page.locator('section:has(#found-payments) tbody tr');
      expect(await found.count()).toBe(2);
      expect(await seriousViolations(page)).toEqual([]);
      await search(page, `+${orange.slice(0, 3)} ${orange.slice(3, 6)} ${orange.slice(6)}`);
      expect(new URL(page.url()).pathname).toBe(`/dashboard/test/payments/${ids.referenced}`);
      await context.close();
    });

    it("says when nothing matches, and finds nothing of another account's", async () => {
      const { page, context } = await signedIn(locale);
      const other = (await seeded.server.newAccount('Other shop')).test;
      const theirs = await collect(
        seeded.server,
        await createService(seeded.server, other),
        900,
        sandbox.mtn.succeeds,
        other,
      );
      await search(page, theirs);
      await expect(page.locator('#search-none').textContent()).resolves.toContain(
        locale === 'fr-CM' ? 'Rien ne correspond' : 'Nothing matches',
      );
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });
  });
}
