/**
 * What the dashboard's tests share: users created in the server's database, a month of activity
 * to show, signing in through the page or over HTTP, and the axe-core accessibility check.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createDashboardUser } from '../../server/domain/dashboard-users.js';
import type { DashboardRole } from '../../server/storage/rows.js';
import { openIsolatedPage, releaseChromium, sharedChromium } from '../support/browser.js';
import { batchOneBankPayout, collect, createService, fund, sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

export const password = 'correct horse battery';

export const origin = (server: TestServer) => server.url.replace(/\/v1$/, '');

let userCount = 0;

/** A dashboard user of `accountId` (default: the server's first account) who can sign in at once. */
export async function addUser(
  server: TestServer,
  role: DashboardRole = 'owner',
  accountId = server.account.accountId,
) {
  userCount += 1;
  const email = `${role}${userCount}@shop.example`;
  await createDashboardUser(
    server.service.deps.store,
    { accountId, email, role, password },
    server.clock.now(),
  );
  return email;
}

/**
 * A month of activity on the server's first account, what the overview charts: three settled
 * payments 20, 9 and 3 days apart, a settled one and a failed one today, a top-up of 50,000 XAF,
 * a payout of 3,000 and a refund of 1,000, and a webhook endpoint at `endpointUrl` that has
 * been sent its events. Received 30,500 XAF, paid out 4,000. Returns the ids.
 */
export async function seedMonthOfActivity(server: TestServer, endpointUrl: string) {
  const endpoint = await server.raw('POST', '/webhook-endpoints', {
    body: { url: endpointUrl, description: 'Old backend' },
  });
  const topup = await fund(server, 50_000);
  const serviceId = await createService(server, server.test, 'Boutique Akwa');
  for (const [amount, days] of [
    [12_000, 20],
    [4_500, 9],
    [8_000, 3],
  ] as const) {
    server.clock.advance(days * 86_400_000);
    await collect(server, serviceId, amount);
    await server.settle(2000);
  }
  const payment = await collect(server, serviceId, 6_000);
  const failed = await collect(server, serviceId, 2_000, sandbox.mtn.fails);
  await server.settle(2000);
  const payout = await server.raw('POST', '/payouts', {
    body: {
      amount: 3_000,
      currency: 'XAF',
      recipient_msisdn: sandbox.mtn.succeeds,
      payout_type: 'withdrawal',
    },
  });
  const refund = await server.raw('POST', '/refunds', { body: { payment_id: payment, amount: 1_000 } });
  await server.settle(2000);
  await server.deliverWebhooks();
  await server.flushLogs();
  return {
    endpoint: endpoint.body.data.id as string,
    topup,
    payment,
    failed,
    payout: payout.body.data.transaction_id as string,
    refund: refund.body.data.transaction_id as string,
  };
}

export const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
export const phone: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};

/** A fresh browser context (its own cookies), cut off from every origin but the server's. */
export async function openPage(
  browser: Browser,
  server: TestServer,
  options: BrowserContextOptions = desktop,
) {
  const isolated = await openIsolatedPage(browser, origin(server), { ...options, acceptDownloads: true });
  // A missing element fails fast with a clear message instead of at the test's timeout.
  isolated.page.setDefaultTimeout(8000);
  const cspViolations: string[] = [];
  isolated.page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return { ...isolated, cspViolations };
}

/** A browser context of `openPage`: its tab, and what that tab sent elsewhere or had refused by the CSP. */
export type OpenedPage = Awaited<ReturnType<typeof openPage>>;

/** Signs in through the form as a person would, by its labels (the English page's). */
export async function signIn(page: Page, server: TestServer, email: string, secret = password) {
  await page.goto(`${origin(server)}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard\/test$/);
}

/** Signs in through the form by its fields, whatever language the page is in. */
export async function signInAnyLanguage(page: Page, server: TestServer, email: string, secret = password) {
  await page.goto(`${origin(server)}/dashboard`);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(secret);
  await page.locator('form[action="/dashboard/sign-in"] button[type=submit]').click();
  await page.waitForURL(/\/dashboard\/test$/);
}

/** A server and Chromium for a dashboard file: set before its own `beforeAll`s, closed after it. */
export interface DashboardRig {
  server: TestServer;
  browser: Browser;
}

export function useDashboardRig(): DashboardRig {
  const rig = {} as DashboardRig;
  beforeAll(async () => {
    rig.server = await startTestServer();
    rig.browser = await sharedChromium();
  });
  afterAll(async () => {
    if (rig.browser) await releaseChromium(rig.browser);
    await rig.server?.close();
  });
  return rig;
}

/** What `useSeededDashboard` starts: its fields are set before the file's own `beforeAll`s run. */
export interface SeededDashboard {
  server: TestServer;
  browser: Browser;
  /** The owner's email (password: `password`). */
  owner: string;
  /** The ids `seedMonthOfActivity` made. */
  ids: Record<string, string>;
}

/**
 * The set-up of the dashboard's browser tests: a server with a month of activity and an
 * endpoint whose deliveries fail (nothing listens on port 9), its owner, and Chromium; all
 * closed after the file. `withBankBatch`: a batched bank payout too (`ids.bankBatch`), for
 * the walks over every page.
 */
export function useSeededDashboard(options: { withBankBatch?: boolean } = {}): SeededDashboard {
  const seeded = { ids: {} } as SeededDashboard;
  beforeAll(async () => {
    seeded.server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
    seeded.browser = await sharedChromium();
    seeded.owner = await addUser(seeded.server, 'owner');
    Object.assign(seeded.ids, await seedMonthOfActivity(seeded.server, 'http://127.0.0.1:9/closed-port'));
    if (options.withBankBatch) seeded.ids.bankBatch = await batchOneBankPayout(seeded.server);
  });
  afterAll(async () => {
    if (seeded.browser) await releaseChromium(seeded.browser);
    await seeded.server?.close();
  });
  return seeded;
}

/**
 * Every page of the dashboard an owner can open, with the status it answers: both walks visit
 * them all (pages.test.ts in English at desktop and phone widths, language.test.ts in French).
 * `ids` are `useSeededDashboard`'s, with `bankBatch` from `batchOneBankPayout`.
 */
export function everyPage(
  ids: Record<string, string>,
): Array<[name: string, path: () => string, status: number]> {
  const test = (path: string) => `/dashboard/test${path}`;
  // The lists and forms, each at /dashboard/test/<name>.
  const sections =
    'payments payouts topups refunds webhooks keys logs users bank-batches services events settings two-step';
  const pages: Array<[string, () => string]> = [
    ['overview', () => test('')],
    ...sections.split(' ').map((name): [string, () => string] => [name, () => test(`/${name}`)]),
    ['payment', () => test(`/payments/${ids.payment}`)],
    ['failed-payment', () => test(`/payments/${ids.failed}`)],
    ['payout', () => test(`/payouts/${ids.payout}`)],
    ['refund', () => test(`/payouts/${ids.refund}`)],
    ['topup', () => test(`/topups/${ids.topup}`)],
    ['webhook', () => test(`/webhooks/${ids.endpoint}`)],
    ['bank-batch', () => test(`/bank-batches/${ids.bankBatch}`)],
    ['payout-new', () => test('/payouts/new')],
    ['bulk-payouts', () => test('/payouts/bulk')],
    ['search', () => test(`/search?q=${sandbox.mtn.succeeds.slice(0, 7)}`)],
    ['search-none', () => test('/search?q=zzz-0000')],
    ['live-overview', () => '/dashboard/live'],
    ['live-webhooks', () => '/dashboard/live/webhooks'],
    ['forgot-password', () => '/dashboard/forgot-password'],
  ];
  return [
    ...pages.map(([name, path]): [string, () => string, number] => [name, path, 200]),
    ['not-found', () => '/dashboard/test/payments/pay_unknown', 404],
  ];
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** Runs axe-core in the page (evaluated through the debugger, so the page's CSP stays strict). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected above, untyped in the page
    const result = await (globalThis as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The sign-in form's pre-session cookie and anti-forgery token, as a browser gets them, without signing in. */
export async function signInForm(server: TestServer) {
  const form = await fetch(`${origin(server)}/dashboard/sign-in`);
  const preCookie = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  return { preCookie, token };
}

/** Signs in without a browser (for tests of many requests); returns the Cookie header to send. */
export async function httpSignIn(server: TestServer | string, email: string, secret = password) {
  const base = typeof server === 'string' ? server : origin(server);
  const form = await fetch(`${base}/dashboard/sign-in`);
  const preCookie = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const response = await fetch(`${base}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: preCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token, email, password: secret }).toString(),
  });
  const session = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] as string)
    .find((c) => c.startsWith('dash_session=') && c.length > 'dash_session='.length);
  return { status: response.status, cookie: session ?? preCookie, preCookie, token };
}
