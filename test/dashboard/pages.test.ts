/**
 * Every dashboard page, at desktop and phone widths, in Chromium: no serious or critical
 * accessibility violation (axe-core), nothing wider than a phone, nothing loaded from another
 * origin, no CSP violation, a screenshot under build/artifacts/. Plus: it works without
 * JavaScript, and by keyboard with a visible focus. On SQLite only: what each page shows from
 * either engine is checked over HTTP in over-http.test.ts (decision 0020).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser.js';
import { collect, createService } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import {
  desktop,
  httpSignIn,
  type OpenedPage,
  openPage,
  origin,
  phone,
  seriousViolations,
  signIn,
  useSeededDashboard,
} from './support.js';

const seeded = useSeededDashboard();
const { ids } = seeded;
let server: TestServer;
let browser: Browser;
let owner: string;

beforeAll(() => {
  ({ server, browser, owner } = seeded);
});

const pages: Array<[name: string, path: () => string]> = [
  ['overview', () => '/dashboard/test'],
  ['payments', () => '/dashboard/test/payments'],
  ['payment', () => `/dashboard/test/payments/${ids.payment}`],
  ['payouts', () => '/dashboard/test/payouts'],
  ['payout', () => `/dashboard/test/payouts/${ids.payout}`],
  ['topups', () => '/dashboard/test/topups'],
  ['topup', () => `/dashboard/test/topups/${ids.topup}`],
  ['refunds', () => '/dashboard/test/refunds'],
  ['webhooks', () => '/dashboard/test/webhooks'],
  ['webhook', () => `/dashboard/test/webhooks/${ids.endpoint}`],
  ['keys', () => '/dashboard/test/keys'],
  ['logs', () => '/dashboard/test/logs'],
  ['users', () => '/dashboard/test/users'],
  ['live-overview', () => '/dashboard/live'],
  ['not-found', () => '/dashboard/test/payments/pay_unknown'],
  ['payout-new', () => '/dashboard/test/payouts/new'],
  ['bulk-payouts', () => '/dashboard/test/payouts/bulk'],
];

type Size = 'desktop' | 'phone';
const sizes = [
  ['desktop', desktop],
  ['phone', phone],
] as const;

/**
 * What every page must pass, once it is loaded at a size: axe-core finds no serious or critical
 * violation, nothing wider than a phone's screen, no request to another origin, no CSP violation.
 */
async function check(
  name: string,
  size: Size,
  page: Page,
  foreignRequests: string[],
  cspViolations: string[],
) {
  const violations = await seriousViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`)).toEqual(
    [],
  );
  await saveScreenshot(page, `dashboard-${name}-${size}`);
  if (size === 'phone') {
    // Readable on a phone: nothing wider than the screen but the tables' own scroll areas.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(phone.viewport?.width ?? 0);
  }
  expect(foreignRequests).toEqual([]);
  expect(cspViolations).toEqual([]);
}

describe('every dashboard page, at desktop and phone widths', () => {
  // The owner signs in once per size (sign-in.test.ts tests signing in), and that tab visits
  // every page in turn, as a merchant clicking through the dashboard would.
  const sessions = new Map<Size, OpenedPage>();
  beforeAll(async () => {
    for (const [size, options] of sizes) {
      const session = await openPage(browser, server, options);
      await signIn(session.page, server, owner);
      sessions.set(size, session);
    }
  });
  afterAll(async () => {
    for (const session of sessions.values()) await session.context.close();
  });

  it('the sign-in page', async () => {
    for (const [size, options] of sizes) {
      const { page, context, foreignRequests, cspViolations } = await openPage(browser, server, options);
      await page.goto(`${origin(server)}/dashboard/sign-in`);
      await check('sign-in', size, page, foreignRequests, cspViolations);
      await context.close();
    }
  });

  for (const [name, path] of pages) {
    it(`the ${name} page`, async () => {
      for (const [size] of sizes) {
        const { page, foreignRequests, cspViolations } = sessions.get(size) as OpenedPage;
        const [foreignBefore, cspBefore] = [foreignRequests.length, cspViolations.length];
        const response = await page.goto(`${origin(server)}${path()}`);
        expect(response?.status()).toBe(name === 'not-found' ? 404 : 200);
        await check(name, size, page, foreignRequests.slice(foreignBefore), cspViolations.slice(cspBefore));
      }
    });
  }

  it('charts the last 30 days of volume on the overview', async () => {
    const { cookie } = await httpSignIn(server, owner);
    const page = await (await fetch(`${origin(server)}/dashboard/test`, { headers: { cookie } })).text();
    expect(page).toContain('received FCFA\u00a030,500, paid out FCFA\u00a04,000');
    expect(page.match(/<rect [^>]*height="(?!0\.0")/g)?.length).toBeGreaterThanOrEqual(4);
    const failing = page.slice(page.indexOf('id="failing"'), page.indexOf('id="recent-payments"'));
    expect(failing).toContain('http://127.0.0.1:9/closed-port');
  });

  it('says which mode it shows on every page: a test banner and a different live banner', async () => {
    const { cookie } = await httpSignIn(server, owner);
    const test = await (
      await fetch(`${origin(server)}/dashboard/test/payments`, { headers: { cookie } })
    ).text();
    const live = await (
      await fetch(`${origin(server)}/dashboard/live/payments`, { headers: { cookie } })
    ).text();
    expect(test).toContain('TEST MODE');
    expect(test).toContain('<title>[TEST]');
    expect(live).toContain('LIVE MODE');
    expect(live).toContain('<title>[LIVE]');
    expect(live).not.toContain(ids.payment);
  });
});

describe('without JavaScript, and by keyboard', () => {
  it('signs in, filters payments and pages through them with JavaScript turned off', async () => {
    const { page, context } = await openPage(browser, server, { ...desktop, javaScriptEnabled: false });
    await signIn(page, server, owner);
    await page.goto(`${origin(server)}/dashboard/test/payments`);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=failed/);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('failed');
    await context.close();
  });

  it('pages through a list by cursor, keeping the filters', async () => {
    const { cookie } = await httpSignIn(server, owner);
    const serviceId = await createService(server);
    for (let i = 0; i < 21; i++) await collect(server, serviceId, 100 + i);
    const first = await (
      await fetch(`${origin(server)}/dashboard/test/payments?status=initiated`, { headers: { cookie } })
    ).text();
    const next = /href="([^"]+)" rel="next"/.exec(first)?.[1]?.replace(/&#38;/g, '&');
    expect(next).toMatch(/status=initiated&cursor=/);
    const second = await (await fetch(`${origin(server)}${next}`, { headers: { cookie } })).text();
    expect(second.match(/<tr><td><a href/g)).toHaveLength(1);
    expect(second).toContain('First page');
  });

  it('reaches the content by keyboard, with a visible focus ring', async () => {
    const { page, context } = await openPage(browser, server);
    await signIn(page, server, owner);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement as Element);
      return `${style.outlineStyle} ${style.outlineWidth}`;
    });
    expect(outline).toBe('solid 3px');
    await context.close();
  });
});
