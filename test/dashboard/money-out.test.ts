/**
 * Money out and insight in Chromium, as an owner does it (issue 46): a payout sent from its
 * confirmation page, sent once however often that page is submitted; bulk payouts from a CSV
 * file, refused whole for one bad line, sent once per line; the overview's success and failure
 * rates for a known mix of payments; and the new pages' accessibility in both languages.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../support/api.js';
import { saveScreenshot } from '../support/browser.js';
import { balanceOf, createService, sandbox } from '../support/fixtures.js';
import {
  addUser,
  desktop,
  httpSignIn,
  openPage,
  origin,
  seriousViolations,
  signIn,
  signInAnyLanguage,
  useSeededDashboard,
} from './support.js';

const seeded = useSeededDashboard();
let page: Page;

beforeAll(async () => {
  page = (await openPage(seeded.browser, seeded.server)).page;
  await signIn(page, seeded.server, seeded.owner);
});

const go = (path: string) => page.goto(`${origin(seeded.server)}/dashboard/test${path}`);
const xaf = (amount: number, locale = 'en-CM') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'XAF' }).format(amount);

/** The payouts whose reference is `reference` (the API's list has no reference filter). */
async function payoutsWith(reference: string) {
  const listed = ok(await seeded.server.api.GET('/payouts', { params: { query: { limit: 100 } } }));
  return listed.data.items.filter((p) => p.reference === reference);
}

/** Fills the payout form and reviews it: the confirmation page. */
async function review(target: Page, recipient: string, amount: number, reference: string) {
  await target.goto(`${origin(seeded.server)}/dashboard/test/payouts/new`);
  await target.locator('#payout-recipient').fill(recipient);
  await target.locator('#payout-amount').fill(String(amount));
  await target.locator('#payout-reference').fill(reference);
  await Promise.all([target.waitForURL(/\/payouts\/new$/), target.locator('#payout-review').click()]);
  await target.locator('#payout-summary').waitFor();
}

/** The fields of the page's form `selector`, as it would send them. */
const fieldsOf = (target: Page, selector: string) =>
  target.evaluate(
    (sel) =>
      Object.fromEntries(
        new FormData(document.querySelector(sel) as HTMLFormElement) as unknown as Iterable<[string, string]>,
      ) as Record<string, string>,
    selector,
  );

/** Posts `fields` to `path` from the page, as a reload or a second tab would: the page answered. */
const postFrom = (target: Page, path: string, fields: Record<string, string>) =>
  target.evaluate(
    async ([action, body]) => {
      const response = await fetch(action, { method: 'POST', body: new URLSearchParams(body) });
      return { status: response.status, text: await response.text() };
    },
    [`/dashboard/test${path}`, fields] as const,
  );

/** Uploads `csv` as a file on the bulk page and checks it. */
async function upload(csv: string) {
  await go('/payouts/bulk');
  await page.setInputFiles('#bulk-file', {
    name: 'payouts.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  const [response] = await Promise.all([
    page.waitForResponse(/\/payouts\/bulk$/),
    page.locator('#bulk-check').click(),
  ]);
  await page.waitForLoadState();
  return response.status();
}

describe('a payout from the dashboard', () => {
  it('shows the amount, the fee, the network and the balance after before anything is sent, then sends it', async () => {
    const before = await balanceOf(seeded.server);
    // A number as people write it: normalised, and routed to MTN by its prefix.
    await review(page, '+237 6 70 00 00 00', 1500, 'single-1');
    await expect(page.locator('#confirm-amount').textContent()).resolves.toBe(xaf(1500));
    await expect(page.locator('#confirm-recipient').textContent()).resolves.toBe(sandbox.mtn.succeeds);
    await expect(page.locator('#confirm-network').textContent()).resolves.toBe('MTN Mobile Money');
    await expect(page.locator('#confirm-fee').textContent()).resolves.toBe(`None (${xaf(0)})`);
    await expect(page.locator('#confirm-balance-after').textContent()).resolves.toBe(xaf(before - 1500));
    expect(await payoutsWith('single-1')).toEqual([]);
    await Promise.all([page.waitForURL(/\/payouts\/po_\w+$/), page.locator('#payout-send').click()]);
    await expect(page.locator('.flash').textContent()).resolves.toMatch(/^Payout po_\w+ of .+: pending\.$/);
    expect((await payoutsWith('single-1')).map((p) => p.recipient_msisdn)).toEqual([sandbox.mtn.succeeds]);
    expect(await balanceOf(seeded.server)).toBe(before - 1500);
  });

  it('sends one payout when its confirmation is submitted twice and then again', async () => {
    const before = await balanceOf(seeded.server);
    await review(page, sandbox.orange.succeeds, 700, 'double-1');
    await expect(page.locator('#confirm-network').textContent()).resolves.toBe('Orange Money');
    // Two clicks in a row, then the same form posted once more (a reload, a second tab).
    const fields = await fieldsOf(page, 'form[action$="/payouts/send"]');
    await page.locator('#payout-send').dblclick();
    // The second click's navigation replaces the first's: wait for where the page lands, not
    // for one navigation (which the browser may abort).
    await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(/\/payouts\/po_\w+$/);
    await page.waitForLoadState();
    const id = page.url().split('/').pop();
    const again = await postFrom(page, '/payouts/send', fields);
    expect(again.status).toBe(200);
    expect(again.text).toContain(`already sent (${id})`);
    expect((await payoutsWith('double-1')).map((p) => p.transaction_id)).toEqual([id]);
    expect(await balanceOf(seeded.server)).toBe(before - 700);
  });

  it("shows the domain's refusal when the balance cannot fund the payout, and sends nothing", async () => {
    const before = await balanceOf(seeded.server);
    await go('/payouts/new');
    await page.locator('#payout-recipient').fill(sandbox.mtn.succeeds);
    await page.locator('#payout-amount').fill(String(before + 1));
    await page.locator('#payout-review').click();
    await expect(page.locator('#form-error').textContent()).resolves.toMatch(/cannot fund this payout/);
    expect(await balanceOf(seeded.server)).toBe(before);
  });
});

describe('bulk payouts from a CSV file', () => {
  it('refuses the whole file for one bad line, naming the line and its reason, and sends nothing', async () => {
    const before = await balanceOf(seeded.server);
    const csv = `recipient,amount,currency,reference\n${sandbox.mtn.succeeds},1000,XAF,bad-file-1\n12345,1000,XAF,bad-file-2\n${sandbox.orange.succeeds},1000,XAF,bad-file-3\n`;
    expect(await upload(csv)).toBe(422);
    await expect(page.locator('#bulk-refused .flash').textContent()).resolves.toMatch(
      /^Nothing was sent: 1 line is wrong/,
    );
    const rows = await page.locator('#bulk-refused tbody tr').allTextContents();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^Line 3.*not a usable phone number/);
    expect(await page.locator('#bulk-send').count()).toBe(0);
    expect(await balanceOf(seeded.server)).toBe(before);
    expect(await payoutsWith('bad-file-1')).toEqual([]);
  });

  it('refuses a file whose total is more than the balance', async () => {
    const before = await balanceOf(seeded.server);
    const half = Math.ceil(before / 2) + 1;
    expect(
      await upload(`recipient,amount\n${sandbox.mtn.succeeds},${half}\n${sandbox.orange.succeeds},${half}\n`),
    ).toBe(422);
    await expect(page.locator('#bulk-refused').textContent()).resolves.toContain(
      `In total ${xaf(2 * half)}, more than your balance of ${xaf(before)}.`,
    );
  });

  it('confirms the count and total, then sends each line once, even when the confirmation is sent twice', async () => {
    const before = await balanceOf(seeded.server);
    const csv = [
      'recipient,amount,currency,reference',
      `"+237 6 70 00 00 02",1000,XAF,bulk-ok`,
      `${sandbox.orange.succeeds},2000,XAF,bulk-ok`,
      `690000002,3000,,bulk-ok`,
    ].join('\r\n');
    expect(await upload(csv)).toBe(200);
    await expect(page.locator('#bulk-summary-XAF').textContent()).resolves.toBe(
      `3 payouts of ${xaf(6000)} in total. Balance now ${xaf(before)}, after ${xaf(before - 6000)}.`,
    );
    expect(await payoutsWith('bulk-ok')).toEqual([]);
    const fields = await fieldsOf(page, 'form[action$="/payouts/bulk/send"]');
    await Promise.all([page.waitForURL(/\/payouts\/bulk\/send$/), page.locator('#bulk-send').click()]);
    await expect(page.locator('#bulk-result').textContent()).resolves.toBe('3 payouts sent, none refused.');
    const sent = (await payoutsWith('bulk-ok')).map((p) => p.transaction_id).sort();
    expect(sent).toHaveLength(3);
    // The same confirmation sent again: each line is answered by its payout, none is sent twice.
    const again = await postFrom(page, '/payouts/bulk/send', fields);
    expect(again.status).toBe(200);
    expect(again.text).toContain('3 payouts sent, none refused.');
    for (const id of sent) expect(again.text).toContain(id);
    expect((await payoutsWith('bulk-ok')).map((p) => p.transaction_id).sort()).toEqual(sent);
    expect(await balanceOf(seeded.server)).toBe(before - 6000);
  });
});

describe('insight on the overview', () => {
  beforeAll(async () => {
    // Beside the seeded month (four MTN payments settled and one failed, on Boutique Akwa), an
    // Orange payment that succeeds and one that fails on a second service, today.
    const { server } = seeded;
    const kiosk = await createService(server, server.test, 'Kiosque Bonanjo');
    for (const msisdn of [sandbox.orange.succeeds, sandbox.orange.fails]) {
      ok(
        await server.api.POST('/payments', {
          body: {
            amount: 1000,
            currency: 'XAF',
            customer_msisdn: msisdn,
            payment_method: 'orange_money',
            service_id: kiosk,
          },
        }),
      );
    }
    await server.settle(2000);
  });

  const rows = async (id: string) =>
    (await page
      .locator(`#${id} tbody tr`)
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.children).map((cell) => (cell.textContent ?? '').trim())),
      )) as string[][];

  it('shows the success and failure rates by operator, by service and by day', async () => {
    await go('');
    expect(await rows('rates-operator')).toEqual([
      ['MTN Mobile Money', '4', '1', '80%', '20%'],
      ['Orange Money', '1', '1', '50%', '50%'],
    ]);
    const services = await rows('rates-service');
    expect(services.map((r) => [r[0]?.replace(/ svc_\w+$/, ''), ...r.slice(1)])).toEqual([
      ['Boutique Akwa', '4', '1', '80%', '20%'],
      ['Kiosque Bonanjo', '1', '1', '50%', '50%'],
    ]);
    // Two earlier days of one settled payment each, and today: three settled, two failed.
    expect((await rows('rates-day')).map((r) => r.slice(1))).toEqual([
      ['1', '0', '100%', '0%'],
      ['1', '0', '100%', '0%'],
      ['3', '2', '60%', '40%'],
    ]);
  });

  it('writes the rates as French writes them', async () => {
    const { page: french, context } = await openPage(seeded.browser, seeded.server, {
      ...desktop,
      locale: 'fr-CM',
    });
    await signInAnyLanguage(french, seeded.server, seeded.owner);
    const operator = await french.locator('#rates-operator tbody tr').first().textContent();
    expect(operator?.replace(/\s/g, ' ')).toContain('80 %');
    await context.close();
  });
});

describe('the new pages', () => {
  for (const locale of ['en-CM', 'fr-CM']) {
    it(`have no serious accessibility violation in ${locale}: form, confirmation, bulk check and result`, async () => {
      const { page: tab, context } = await openPage(seeded.browser, seeded.server, { ...desktop, locale });
      await signInAnyLanguage(tab, seeded.server, seeded.owner);
      const check = async (name: string) => {
        expect((await seriousViolations(tab)).map((v) => `${name} ${v.id}: ${v.help}`)).toEqual([]);
        await saveScreenshot(tab, `dashboard-${locale}-${name}`);
      };
      await review(tab, sandbox.mtn.succeeds, 100, `axe-${locale}`);
      await check('payout-confirm');
      await tab.goto(`${origin(seeded.server)}/dashboard/test/payouts/bulk`);
      await tab.locator('#bulk-csv').fill(`recipient,amount\n${sandbox.mtn.succeeds},100\n123,100\n`);
      await tab.locator('#bulk-check').click();
      await tab.locator('#bulk-refused').waitFor();
      await check('bulk-refused');
      await tab.locator('#bulk-csv').fill(`recipient,amount\n${sandbox.mtn.succeeds},100\n`);
      await tab.locator('#bulk-check').click();
      await tab.locator('#bulk-send').waitFor();
      await check('bulk-confirm');
      await tab.locator('#bulk-send').click();
      await tab.locator('#bulk-result').waitFor();
      await check('bulk-sent');
      await context.close();
    });
  }
});

describe('who may send money', () => {
  it('refuses payouts to a developer and a viewer, in test and live mode, with permission_denied', async () => {
    for (const role of ['developer', 'viewer'] as const) {
      const { cookie } = await httpSignIn(seeded.server, await addUser(seeded.server, role));
      for (const mode of ['test', 'live']) {
        const base = `${origin(seeded.server)}/dashboard/${mode}`;
        expect((await fetch(`${base}/payouts/new`, { headers: { cookie } })).status).toBe(403);
        const page = await (await fetch(`${base}/payouts`, { headers: { cookie } })).text();
        expect(page).not.toContain('id="new-payout"');
      }
      const sessionPage = await (
        await fetch(`${origin(seeded.server)}/dashboard/test`, { headers: { cookie } })
      ).text();
      const csrf = /name="_csrf" value="([^"]+)"/.exec(sessionPage)?.[1] ?? '';
      const sent = await fetch(`${origin(seeded.server)}/dashboard/test/payouts/send`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: csrf,
          recipient: sandbox.mtn.succeeds,
          amount: '100',
          currency: 'XAF',
          type: 'withdrawal',
          reference: `role-${role}`,
          idempotency_key: '6f9619ff-8b86-d011-b42d-00c04fc964ff',
        }),
      });
      expect(sent.status).toBe(403);
      expect(await payoutsWith(`role-${role}`)).toEqual([]);
    }
  });
});
