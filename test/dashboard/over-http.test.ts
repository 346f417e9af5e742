/**
 * The dashboard's server-side flows over plain HTTP, on both engines.
 *
 * The browser files beside this one (pages, sign-in, access, actions) run in Chromium on SQLite
 * only: what a browser does with the pages (accessibility, layout, scripts, the CSP, the keyboard)
 * does not depend on the engine. This file runs on SQLite and on PostgreSQL and covers what the
 * engine stores: the same flows as a client without JavaScript drives them (a cookie, the form's
 * CSRF token, urlencoded POSTs, redirects read by hand), each checked by what a user would notice:
 * the status, the redirect, the next page, or the effect over the API.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxFailuresPerPair, sessionAbsoluteMs, sessionIdleMs } from '../../server/domain/dashboard-users.js';
import { runAdmin } from '../support/admin.js';
import { ok } from '../support/api.js';
import { queryRows } from '../support/database.js';
import { balanceOf, collect, createService, sandbox } from '../support/fixtures.js';
import { decodeEntities } from '../support/html-form.js';
import { type Credentials, reconcile, startTestServer, type TestServer } from '../support/server.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { DashboardClient, flashOf } from './http-client.js';
import { addUser, httpSignIn, origin, password, seedMonthOfActivity } from './support.js';

let server: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // Webhook endpoints here point at receivers of this file on 127.0.0.1: the opt-in allows them.
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
});
afterAll(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await server?.close();
});

/** A webhook receiver of the test's own on 127.0.0.1, closed with the server. */
async function ownReceiver(): Promise<Receiver> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  return receiver;
}

/** Another account on the same server, so a describe block's data is its own. */
async function ownAccount(name: string) {
  const { account, test } = await server.newAccount(name);
  // A copy: key rotations in a test change it, and nothing else holds it.
  const creds: Credentials = { ...test };
  return { accountId: account.accountId, creds, serviceId: await createService(server, creds) };
}

// ---- A client without JavaScript: a cookie jar, forms read from the page, redirects by hand ----

/** The value of a read-only field that shows a secret once (new key, signing secret, invitation link). */
const shownOnce = (page: string, id: string) =>
  decodeEntities(new RegExp(`<input id="${id}" readonly value="([^"]*)"`).exec(page)?.[1] ?? '');

/** Table rows of the page that contain `text`. */
const rowsWith = (page: string, text: string) =>
  (page.match(/<tr>[\s\S]*?<\/tr>/g) ?? []).filter((row) => row.includes(text));

/** A client of the file's server, unless a test has its own. */
class Client extends DashboardClient {
  constructor(cookie = '', at: () => TestServer = () => server) {
    super(cookie, at);
  }
}

/** A client signed in as `email` (sign-in itself is tested below). */
async function signedIn(email: string): Promise<Client> {
  const { status, cookie } = await httpSignIn(server, email);
  expect(status).toBe(303);
  return new Client(cookie);
}

// ---- pages.test.ts ----

describe('every dashboard page answers with its data (pages.test.ts)', () => {
  const ids: Record<string, string> = {};
  let failing: Receiver;
  let owner: string;
  let client: Client;

  beforeAll(async () => {
    owner = await addUser(server, 'owner');
    // A month of activity, as in pages.test.ts, and an endpoint whose deliveries fail (a local
    // receiver answering 500).
    failing = await ownReceiver();
    failing.answer(...Array.from({ length: 30 }, () => 500));
    Object.assign(ids, await seedMonthOfActivity(server, failing.url));
    // No test of this block moves the clock: one session serves them all.
    client = await signedIn(owner);
  });

  const pages: Array<[name: string, path: () => string, shows: () => string[]]> = [
    ['overview', () => '/dashboard/test', () => [ids.payment as string, ids.payout as string, failing.url]],
    ['payments', () => '/dashboard/test/payments', () => [ids.payment as string, ids.failed as string]],
    [
      'payment',
      () => `/dashboard/test/payments/${ids.payment}`,
      () => [
        'FCFA\u00a06,000',
        '<dt>Refunded</dt><dd>FCFA\u00a01,000</dd>',
        ids.refund as string,
        'Ledger: payment',
      ],
    ],
    ['payouts', () => '/dashboard/test/payouts', () => [ids.payout as string, ids.refund as string]],
    [
      'payout',
      () => `/dashboard/test/payouts/${ids.payout}`,
      () => ['FCFA\u00a03,000', 'withdrawal', sandbox.mtn.succeeds, 'Ledger: payout'],
    ],
    ['topups', () => '/dashboard/test/topups', () => [ids.topup as string, 'FCFA\u00a050,000']],
    ['topup', () => `/dashboard/test/topups/${ids.topup}`, () => ['FCFA\u00a050,000', 'Ledger: top-up']],
    ['refunds', () => '/dashboard/test/refunds', () => [ids.refund as string, 'FCFA\u00a01,000']],
    ['webhooks', () => '/dashboard/test/webhooks', () => [failing.url, 'Old backend']],
    [
      'webhook',
      () => `/dashboard/test/webhooks/${ids.endpoint}`,
      () => [failing.url, 'HTTP 500', ids.payment as string],
    ],
    [
      'keys',
      () => '/dashboard/test/keys',
      () => [server.test.apiUser, `sk_test_…${server.test.key.slice(-4)}`],
    ],
    ['logs', () => '/dashboard/test/logs', () => ['<code>/v1/payments</code>', '<code>/v1/refunds</code>']],
    ['users', () => '/dashboard/test/users', () => [owner]],
    ['live-overview', () => '/dashboard/live', () => ['LIVE MODE', 'No payment yet.']],
    ['not-found', () => '/dashboard/test/payments/pay_unknown', () => ['<h1>Not found</h1>']],
    ['services', () => '/dashboard/test/services', () => ['Boutique Akwa', '4 payments, FCFA\u00a030,500']],
    ['events', () => '/dashboard/test/events', () => [ids.payment as string, 'refund.completed', 'HTTP 500']],
  ];

  for (const [name, path, shows] of pages) {
    it(`the ${name} page`, async () => {
      const { status, html } = await client.open(path());
      expect(status).toBe(name === 'not-found' ? 404 : 200);
      for (const text of shows()) expect(html).toContain(text);
    });
  }

  it('charts the last 30 days of volume and lists the failing endpoint on the overview', async () => {
    const { html } = await client.open('/dashboard/test');
    expect(html).toContain('received FCFA\u00a030,500, paid out FCFA\u00a04,000');
    expect(html.match(/<rect [^>]*height="(?!0\.0")/g)?.length).toBeGreaterThanOrEqual(4);
    const failingSection = html.slice(html.indexOf('id="failing"'), html.indexOf('id="recent-payments"'));
    expect(failingSection).toContain(failing.url);
  });

  it('says which mode it shows: a test banner, a different live banner, and no test data in live', async () => {
    const test = (await client.open('/dashboard/test/payments')).html;
    const live = (await client.open('/dashboard/live/payments')).html;
    expect(test).toContain('TEST MODE');
    expect(test).toContain('<title>[TEST]');
    expect(live).toContain('LIVE MODE');
    expect(live).toContain('<title>[LIVE]');
    expect(live).not.toContain(ids.payment);
    expect(live).toContain('No payment matches.');
  });

  it('filters payments with the filter form, as without JavaScript, and keeps the filter on the page', async () => {
    const list = await client.open('/dashboard/test/payments');
    const response = await client.submit(list.html, '/dashboard/test/payments', { status: 'failed' });
    expect(response.status).toBe(200);
    // Every field of the form is in the URL, the empty ones too, as a browser sends them.
    expect(new URL(response.url).search).toBe('?status=failed&flow=&service_id=&from=&to=');
    const html = await response.text();
    const rows = rowsWith(html, '/dashboard/test/payments/pay_');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(ids.failed);
    expect(rows[0]).toContain('badge-failed');
    expect(html).toContain('<option value="failed" selected>failed</option>');
  });

  it('searches from the search box: an id opens its movement, a phone prefix lists its payments', async () => {
    const page = await client.open('/dashboard/test/payments');
    const byId = await client.request(`/dashboard/test/search?q=${ids.refund}`);
    expect(byId.status).toBe(303);
    expect(byId.headers.get('location')).toBe(`/dashboard/test/payouts/${ids.refund}`);
    const byNumber = await client.submit(page.html, '/dashboard/test/search', {
      q: sandbox.mtn.succeeds.slice(0, 7),
    });
    expect(byNumber.status).toBe(200);
    expect(rowsWith(await byNumber.text(), '/dashboard/test/payments/pay_').length).toBeGreaterThanOrEqual(4);
    const none = await client.open('/dashboard/test/search?q=nothing-like-this');
    expect(none.html).toContain('id="search-none"');
  });

  it('pages through a list by cursor, keeping the filters', async () => {
    // An account of its own: 21 payments still initiated, 2 settled.
    const shop = await ownAccount('Cursor shop');
    const initiated = new Set<string>();
    for (const amount of [900, 950])
      await collect(server, shop.serviceId, amount, sandbox.mtn.succeeds, shop.creds);
    await server.settle(2000);
    for (let i = 0; i < 21; i++) {
      initiated.add(await collect(server, shop.serviceId, 100 + i, sandbox.mtn.succeeds, shop.creds));
    }
    const cursorClient = await signedIn(await addUser(server, 'viewer', shop.accountId));
    const list = await cursorClient.open('/dashboard/test/payments');
    const first = await cursorClient.submit(list.html, '/dashboard/test/payments', { status: 'initiated' });
    const firstPage = await first.text();
    const next = decodeEntities(/href="([^"]+)" rel="next"/.exec(firstPage)?.[1] ?? '');
    expect(next).toMatch(/status=initiated&cursor=/);
    const second = await cursorClient.open(next);
    expect(second.status).toBe(200);
    const seen = [firstPage, second.html].flatMap((page) =>
      rowsWith(page, '/dashboard/test/payments/pay_').map((row) => {
        expect(row).toContain('badge-initiated');
        return /payments\/(pay_\w+)/.exec(row)?.[1];
      }),
    );
    expect(rowsWith(second.html, '/dashboard/test/payments/pay_')).toHaveLength(1);
    expect(new Set(seen)).toEqual(initiated);
    expect(second.html).toContain('<a href="/dashboard/test/payments?status=initiated">First page</a>');
    expect(second.html).not.toContain('rel="next"');
  });
});

// ---- sign-in.test.ts ----

describe('dashboard sign-in (sign-in.test.ts)', () => {
  // One user for the block (each password hash costs ~0.1 s of CPU); each test signs in anew,
  // since some move the clock by hours and end every session.
  let email: string;
  beforeAll(async () => {
    email = await addUser(server, 'owner');
  });

  it('signs in with the right password into an HttpOnly, SameSite session cookie; signing out ends it', async () => {
    const client = new Client();
    const form = await client.open('/dashboard/sign-in');
    expect(client.cookie).toMatch(/^dash_csrf=[\w-]{43}$/);
    const response = await client.submit(form.html, '/dashboard/sign-in', { email, password });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/test');
    const session = response.headers.getSetCookie().find((c) => /^dash_session=[\w-]{43};/.test(c));
    expect(session).toMatch(/; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    // The pre-session cookie is gone: the jar holds the session only.
    expect(client.cookie).toMatch(/^dash_session=[\w-]{43}$/);
    const home = await client.follow(response);
    expect(home.status).toBe(200);
    expect(home.html).toContain('TEST MODE');
    expect(home.html).toContain(`${email} (owner)`);
    // Signing out ends the session on the server, not only in this client.
    const cookie = client.cookie;
    const signedOut = await client.submit(home.html, '/dashboard/sign-out');
    expect(signedOut.headers.get('location')).toBe('/dashboard/sign-in');
    expect(client.cookie).toBe('');
    const replayed = await new Client(cookie).request('/dashboard/test');
    expect(replayed.headers.get('location')).toBe('/dashboard/sign-in?ended=1&next=%2Fdashboard%2Ftest');
  });

  it('refuses a wrong password and an unknown email with the same message, and stays signed out', async () => {
    const client = new Client();
    for (const [who, secret] of [
      [email, 'not the password'],
      ['nobody@shop.example', password],
    ] as const) {
      const form = await client.open('/dashboard/sign-in');
      const response = await client.submit(form.html, '/dashboard/sign-in', { email: who, password: secret });
      expect(response.status).toBe(401);
      expect(flashOf(await response.text())).toBe('The email or the password is wrong.');
    }
    expect(client.cookie).not.toContain('dash_session');
    const page = await client.request('/dashboard/test/payments');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Ftest%2Fpayments');
  });

  it(`after ${maxFailuresPerPair} failures for one email from one address, refuses even the right password (429), and the refused attempt does not extend the lock`, async () => {
    // A user of its own: the lock would refuse the block's user too.
    const locked = await addUser(server, 'owner');
    for (let i = 0; i < maxFailuresPerPair; i++) {
      expect((await httpSignIn(server, locked, `wrong ${i}`)).status).toBe(401);
    }
    const client = new Client();
    const form = await client.open('/dashboard/sign-in');
    const refused = await client.submit(form.html, '/dashboard/sign-in', { email: locked, password });
    expect(refused.status).toBe(429);
    expect(flashOf(await refused.text())).toBe(
      'Too many failed attempts. Wait 15 minutes before trying again.',
    );
    expect(client.cookie).not.toContain('dash_session');
    const failures = await server.service.deps.store.read(async (tx) =>
      tx.dashboard.recentFailures(locked, '127.0.0.1', server.clock.now() - 60_000),
    );
    expect(failures.pair).toBe(maxFailuresPerPair);
    // The window passes: the right password works again.
    server.clock.advance(16 * 60_000);
    expect((await httpSignIn(server, locked, password)).status).toBe(303);
  });

  it('ends a session left idle for 30 minutes, and says so on the sign-in page', async () => {
    const client = await signedIn(email);
    server.clock.advance(sessionIdleMs - 60_000);
    expect((await client.request('/dashboard/test/payments')).status).toBe(200);
    server.clock.advance(sessionIdleMs - 60_000);
    expect((await client.request('/dashboard/test/payments')).status).toBe(200);
    server.clock.advance(sessionIdleMs + 1000);
    const ended = await client.request('/dashboard/test/payments');
    expect(ended.headers.get('location')).toBe(
      '/dashboard/sign-in?ended=1&next=%2Fdashboard%2Ftest%2Fpayments',
    );
    const signInPage = await client.follow(ended);
    expect(signInPage.status).toBe(200);
    expect(signInPage.html).toContain('Your session has ended. Sign in again.');
  });

  it('ends a session 12 hours after sign-in however active it is', async () => {
    const client = await signedIn(email);
    const step = sessionIdleMs / 2;
    for (let elapsed = step; elapsed < sessionAbsoluteMs; elapsed += step) {
      server.clock.advance(step);
      expect((await client.request('/dashboard/test/payments')).status).toBe(200);
    }
    server.clock.advance(step);
    const ended = await client.request('/dashboard/test/payments');
    expect(ended.status).toBe(303);
    expect(ended.headers.get('location')).toBe(
      '/dashboard/sign-in?ended=1&next=%2Fdashboard%2Ftest%2Fpayments',
    );
  });

  it('signs out on every device at once', async () => {
    const [laptop, phone] = [await signedIn(email), await signedIn(email)];
    const laptopCookie = laptop.cookie;
    const page = await laptop.open('/dashboard/test');
    const everywhere = await laptop.submit(page.html, '/dashboard/sign-out-everywhere');
    expect(everywhere.status).toBe(303);
    expect(everywhere.headers.get('location')).toBe('/dashboard/sign-in');
    expect(laptop.cookie).toBe('');
    // Ended on the server: the laptop's cookie, kept, no longer works, nor does the phone's.
    expect((await new Client(laptopCookie).request('/dashboard/test')).status).toBe(303);
    const other = await phone.request('/dashboard/test');
    expect(other.status).toBe(303);
    expect(other.headers.get('location')).toBe('/dashboard/sign-in?ended=1&next=%2Fdashboard%2Ftest');
  });

  it('refuses a form with a forged CSRF token (403) and changes nothing', async () => {
    const client = await signedIn(email);
    const keys = await client.open('/dashboard/test/keys');
    const keyId = /action="\/dashboard\/test\/keys\/(key_\w+)\/revoke"/.exec(keys.html)?.[1] ?? '';
    const revoke = `/dashboard/test/keys/${keyId}/revoke`;
    const forged = await client.submit(keys.html, revoke, {
      _csrf: 'forged-token-forged-token-forged-token-forg',
    });
    expect(forged.status).toBe(403);
    const refusal = await forged.text();
    expect(refusal).toContain('<h1>Not allowed</h1>');
    expect(refusal).toContain('This form has expired or did not come from this dashboard.');
    // The key still works, and the page still offers to revoke it.
    expect((await server.raw('GET', '/balance')).status).toBe(200);
    expect((await client.open('/dashboard/test/keys')).html).toContain(`action="${revoke}"`);
    // Without any token at all, and from a signed-out client on the sign-in form, the same.
    const bare = await client.request(revoke, { method: 'POST', body: new URLSearchParams() });
    expect(bare.status).toBe(403);
    const stranger = new Client();
    const signIn = await stranger.open('/dashboard/sign-in');
    for (const token of [undefined, 'forged-token-forged-token-forged-token-forg']) {
      const fields = { email, password, ...(token ? { _csrf: token } : {}) };
      const response = token
        ? await stranger.submit(signIn.html, '/dashboard/sign-in', fields)
        : await stranger.request('/dashboard/sign-in', { method: 'POST', body: new URLSearchParams(fields) });
      expect(response.status).toBe(403);
      expect(stranger.cookie).not.toContain('dash_session');
    }
    expect((await server.raw('GET', '/balance')).status).toBe(200);
  });
});

// ---- access.test.ts ----

describe('who may do what (access.test.ts)', () => {
  let shop: Awaited<ReturnType<typeof ownAccount>>;
  let sink: Receiver;
  let paymentId: string;
  let viewer: Client;
  let developer: Client;
  let owner: Client;

  beforeAll(async () => {
    shop = await ownAccount('Access shop');
    sink = await ownReceiver();
    paymentId = await collect(server, shop.serviceId, 3000, sandbox.mtn.succeeds, shop.creds);
    await server.settle(2000);
    // No test of this block moves the clock: one session per role serves them all.
    viewer = await signedIn(await addUser(server, 'viewer', shop.accountId));
    developer = await signedIn(await addUser(server, 'developer', shop.accountId));
    owner = await signedIn(await addUser(server, 'owner', shop.accountId));
  });

  it('shows a viewer no action, and refuses their posted refund or key rotation with 403', async () => {
    const payment = await viewer.open(`/dashboard/test/payments/${paymentId}`);
    expect(payment.html).toContain('Only an owner can refund a payment.');
    expect(payment.html).not.toContain('/refund"');
    // A viewer reaches no key (decision 0030): no link to the page, and the page is refused.
    expect(payment.html).not.toContain('/dashboard/test/keys"');
    const keysPage = await viewer.open('/dashboard/test/keys');
    expect(keysPage.status).toBe(403);
    expect(keysPage.html).not.toContain('/rotate"');
    const webhooksPage = await viewer.open('/dashboard/test/webhooks');
    expect(webhooksPage.html).not.toContain('Add endpoint');

    const before = await balanceOf(server, shop.creds);
    const refund = await viewer.post(`/dashboard/test/payments/${paymentId}/refund`, { amount: '100' });
    expect(refund.status).toBe(403);
    expect(await refund.text()).toContain('Your role (viewer) does not allow this.');
    expect(await balanceOf(server, shop.creds)).toBe(before);
    const keys = await server.raw('GET', '/api-keys', { as: shop.creds });
    const keyId = keys.body.data.items[0].id as string;
    const rotate = await viewer.post(`/dashboard/test/keys/${keyId}/rotate`, { grace_period_seconds: '0' });
    expect(rotate.status).toBe(403);
    expect((await server.raw('GET', '/balance', { as: shop.creds })).status).toBe(200);
    expect((await viewer.request('/dashboard/test/users')).status).toBe(403);
  });

  it('lets a developer manage webhooks but not refund', async () => {
    const before = await balanceOf(server, shop.creds);
    const refund = await developer.post(`/dashboard/test/payments/${paymentId}/refund`, { amount: '100' });
    expect(refund.status).toBe(403);
    expect(await balanceOf(server, shop.creds)).toBe(before);
    const list = await developer.open('/dashboard/test/webhooks');
    const url = `${sink.url}?from=developer`;
    const created = await developer.submit(list.html, '/dashboard/test/webhooks', { url });
    expect(created.status).toBe(200);
    expect(shownOnce(await created.text(), 'endpoint-secret')).toMatch(/^whsec_/);
    const endpoints = await server.raw('GET', '/webhook-endpoints', { as: shop.creds });
    expect(endpoints.body.data.items.map((e: { url: string }) => e.url)).toContain(url);
  });

  it("answers 404 for another account's payment, endpoint and key, on pages and actions", async () => {
    const other = await server.newAccount('Other shop');
    const otherPayment = await collect(
      server,
      await createService(server, other.test),
      800,
      sandbox.mtn.succeeds,
      other.test,
    );
    const endpoint = await server.raw('POST', '/webhook-endpoints', {
      as: other.test,
      body: { url: `${sink.url}?from=other` },
    });
    const endpointId = endpoint.body.data.id as string;
    const otherKeys = await server.raw('GET', '/api-keys', { as: other.test });
    const otherKey = otherKeys.body.data.items[0].id as string;

    const get = async (path: string) => (await owner.request(`/dashboard/test${path}`)).status;
    expect(await get(`/payments/${otherPayment}`)).toBe(404);
    expect(await get(`/webhooks/${endpointId}`)).toBe(404);
    expect(await get('/payments/pay_doesnotexist')).toBe(404);
    expect((await owner.post(`/dashboard/test/keys/${otherKey}/revoke`)).status).toBe(404);
    expect(
      (await owner.post(`/dashboard/test/keys/${otherKey}/rotate`, { grace_period_seconds: '0' })).status,
    ).toBe(404);
    expect((await owner.post(`/dashboard/test/payments/${otherPayment}/refund`)).status).toBe(404);
    expect(
      (await owner.post(`/dashboard/test/webhooks/${endpointId}/status`, { status: 'disabled' })).status,
    ).toBe(404);
    // Nothing of the other account changed.
    expect((await server.raw('GET', '/balance', { as: other.test })).status).toBe(200);
    const stillEnabled = await server.raw('GET', `/webhook-endpoints/${endpointId}`, { as: other.test });
    expect(stillEnabled.body.data.status).toBe('enabled');
    const otherRefunds = await server.raw('GET', '/payouts', {
      as: other.test,
      query: { payment_id: otherPayment },
    });
    expect(otherRefunds.body.data.items).toEqual([]);
    // Test ids are not found in live mode either: the modes never mix.
    expect(await get(`/payments/${paymentId}`)).toBe(200);
    expect((await owner.request(`/dashboard/live/payments/${paymentId}`)).status).toBe(404);
  });

  it('an owner invites a viewer by link; the link sets their password once and signs them in', async () => {
    const usersPage = await owner.open('/dashboard/test/users');
    const invited = await owner.submit(usersPage.html, '/dashboard/test/users/invite', {
      email: 'new.viewer@shop.example',
      role: 'viewer',
    });
    expect(invited.status).toBe(200);
    const invitedPage = await invited.text();
    const link = shownOnce(invitedPage, 'invite-link');
    expect(link).toMatch(new RegExp(`^${origin(server)}/dashboard/welcome/[A-Za-z0-9_-]{43}$`));
    expect(rowsWith(invitedPage, 'new.viewer@shop.example')[0]).toContain('<td>invited</td>');
    const path = new URL(link).pathname;

    const newcomer = new Client();
    const welcome = await newcomer.open(path);
    const preSession = newcomer.cookie;
    expect(welcome.status).toBe(200);
    expect(welcome.html).toContain('Signing in as <strong>new.viewer@shop.example</strong> (viewer)');
    const tooShort = await newcomer.submit(welcome.html, path, { password: 'short' });
    expect(tooShort.status).toBe(400);
    expect(flashOf(await tooShort.text())).toBe('Use at least 10 characters.');
    const accepted = await newcomer.submit(welcome.html, path, { password: 'a long enough password' });
    expect(accepted.headers.get('location')).toBe('/dashboard/test');
    const home = await newcomer.follow(accepted);
    expect(home.status).toBe(200);
    expect(home.html).toContain('new.viewer@shop.example (viewer)');
    // Used once: the link no longer works, not even from the form already open in a second tab.
    expect((await new Client().open(path)).status).toBe(404);
    const secondTab = new Client(preSession);
    const replay = await secondTab.submit(welcome.html, path, { password: 'another long password' });
    expect(replay.status).toBe(404);
    expect((await httpSignIn(server, 'new.viewer@shop.example', 'a long enough password')).status).toBe(303);
    expect((await httpSignIn(server, 'new.viewer@shop.example', 'another long password')).status).toBe(401);
    expect(
      rowsWith((await owner.open('/dashboard/test/users')).html, 'new.viewer@shop.example')[0],
    ).toContain('<td>active</td>');
  });
});

describe("the admin CLI's one-time link (access.test.ts)", () => {
  // A server of its own: the CLI dates the link by the real clock, and this file's server runs on
  // a test clock other blocks move weeks ahead, past the link's expiry.
  let own: TestServer;
  beforeAll(async () => {
    own = await startTestServer();
  });
  afterAll(async () => {
    await own?.close();
  });

  it('the admin CLI creates a user and prints a one-time link that sets the password and signs in', async () => {
    const { code, out } = await runAdmin(
      ['create-user', '--account', own.test.apiUser, '--email', 'ops@shop.example', '--role', 'developer'],
      { ...own.databaseEnv, PUBLIC_URL: origin(own), NODE_ENV: 'test' },
    );
    expect(code, out).toBe(0);
    const link = /(http\S+\/dashboard\/welcome\/\S+)/.exec(out)?.[1] ?? '';
    expect(link.startsWith(`${origin(own)}/dashboard/welcome/`)).toBe(true);
    const path = new URL(link).pathname;
    const newcomer = new Client('', () => own);
    const welcome = await newcomer.open(path);
    expect(welcome.html).toContain('Signing in as <strong>ops@shop.example</strong> (developer)');
    const accepted = await newcomer.submit(welcome.html, path, { password: 'ops password 2026' });
    expect(accepted.headers.get('location')).toBe('/dashboard/test');
    expect((await newcomer.follow(accepted)).html).toContain('ops@shop.example (developer)');
    expect((await new Client('', () => own).open(path)).status).toBe(404);
  });
});

// ---- actions.test.ts ----

describe('what a merchant does (actions.test.ts)', () => {
  let shop: Awaited<ReturnType<typeof ownAccount>>;
  let email: string;
  let client: Client;

  beforeAll(async () => {
    shop = await ownAccount('Actions shop');
    email = await addUser(server, 'owner', shop.accountId);
    // The tests of this block move the clock by seconds only: one session serves them all.
    client = await signedIn(email);
  });

  const balance = (creds: Credentials = shop.creds) => server.raw('GET', '/balance', { as: creds });

  /** The id of the account's test key in use (the one `shop.creds` holds). */
  async function currentKeyId(): Promise<string> {
    const keys = await server.raw('GET', '/api-keys', { as: shop.creds });
    const key = keys.body.data.items.find(
      (k: { last4: string; status: string }) => k.status === 'active' && k.last4 === shop.creds.key.slice(-4),
    );
    return key.id;
  }

  /** A receiver with an endpoint registered for it over the API, for tests that start from one. */
  async function ownEndpoint(): Promise<{ receiver: Receiver; id: string }> {
    const receiver = await ownReceiver();
    const created = await server.raw('POST', '/webhook-endpoints', {
      as: shop.creds,
      body: { url: receiver.url, description: 'Shop backend' },
    });
    expect(created.status).toBe(201);
    return { receiver, id: created.body.data.id };
  }

  /** What a receiver got about one movement (events of other tests' movements may arrive too). */
  const about = (receiver: Receiver, transactionId: string) =>
    receiver.received.filter((d) => JSON.parse(d.body).data?.transaction_id === transactionId);

  /** Checks the last delivery's X-Webhook-Signature against `secret`. */
  function expectSignedWith(receiver: Receiver, secret: string) {
    const last = receiver.received[receiver.received.length - 1];
    const header = String(last?.headers['x-webhook-signature']);
    const t = /t=(\d+)/.exec(header)?.[1];
    expect(header).toContain(`v1=${createHmac('sha256', secret).update(`${t}.${last?.body}`).digest('hex')}`);
  }

  /** A refund of `amount` made from a payment's page, as a user does it; returns the payment's page after it. */
  async function refundFromDashboard(amount: number) {
    const paymentId = await collect(server, shop.serviceId, 5000, sandbox.mtn.succeeds, shop.creds);
    await server.settle(2000);
    const page = await client.open(`/dashboard/test/payments/${paymentId}`);
    const done = await client.submit(page.html, `/dashboard/test/payments/${paymentId}/refund`, {
      amount: String(amount),
    });
    expect(done.headers.get('location')).toBe(`/dashboard/test/payments/${paymentId}`);
    const after = await client.follow(done);
    const shown = new Intl.NumberFormat('en-CM', { style: 'currency', currency: 'XAF' }).format(amount);
    expect(flashOf(after.html)).toMatch(new RegExp(`^Refund po_\\w+ of ${shown} is \\w+\\.$`));
    return { paymentId, before: page.html, after: after.html };
  }

  it('rotates the test key: the new key, shown once, works over the API and the old one stops at once', async () => {
    const keyId = await currentKeyId();
    const keys = await client.open('/dashboard/test/keys');
    expect(shownOnce(keys.html, 'api-user')).toBe(shop.creds.apiUser);
    const rotated = await client.submit(keys.html, `/dashboard/test/keys/${keyId}/rotate`, {
      grace_period_seconds: '0',
    });
    expect(rotated.status).toBe(200);
    const secret = shownOnce(await rotated.text(), 'new-secret-key');
    expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    const fresh = { apiUser: shop.creds.apiUser, key: secret };
    expect((await balance(fresh)).status).toBe(200);
    expect((await balance()).status).toBe(401);
    shop.creds.key = secret;
    expect((await client.open('/dashboard/test/keys')).html).not.toContain(secret);
  });

  it('rotates with a grace period: both keys work until it ends; revoking one stops it at once', async () => {
    const keyId = await currentKeyId();
    const keys = await client.open('/dashboard/test/keys');
    const rotated = await client.submit(keys.html, `/dashboard/test/keys/${keyId}/rotate`, {
      grace_period_seconds: '3600',
    });
    const page = await rotated.text();
    const fresh = { apiUser: shop.creds.apiUser, key: shownOnce(page, 'new-secret-key') };
    expect((await balance()).status).toBe(200);
    expect((await balance(fresh)).status).toBe(200);
    // Revoke the older (expiring) key from its row.
    const [row] = rowsWith(page, keyId);
    expect(row).toContain('badge-expiring');
    const revoked = await client.submit(row ?? '', `/dashboard/test/keys/${keyId}/revoke`);
    expect(flashOf((await client.follow(revoked)).html)).toMatch(
      /^Key …\w{4} is revoked: calls with it now fail\.$/,
    );
    expect((await balance()).status).toBe(401);
    expect((await balance(fresh)).status).toBe(200);
    shop.creds.key = fresh.key;
  });

  it('registers a local endpoint and delivers it a signed test event', async () => {
    const receiver = await ownReceiver();
    const list = await client.open('/dashboard/test/webhooks');
    const created = await client.submit(list.html, '/dashboard/test/webhooks', {
      url: receiver.url,
      description: 'Shop backend',
    });
    expect(created.status).toBe(200);
    const page = await created.text();
    const secret = shownOnce(page, 'endpoint-secret');
    expect(secret).toMatch(/^whsec_/);
    const id = /action="\/dashboard\/test\/webhooks\/(\w+)\/test"/.exec(page)?.[1] as string;
    const read = await server.raw('GET', `/webhook-endpoints/${id}`, { as: shop.creds });
    expect(read.body.data).toMatchObject({
      url: receiver.url,
      description: 'Shop backend',
      status: 'enabled',
    });

    const sent = await client.submit(page, `/dashboard/test/webhooks/${id}/test`);
    expect(flashOf((await client.follow(sent)).html)).toMatch(/delivered: the endpoint answered HTTP 200/);
    expect(receiver.received).toHaveLength(1);
    expectSignedWith(receiver, secret);
    expect(JSON.parse(receiver.received[0]?.body ?? '')).toMatchObject({
      event: 'payment.completed',
      mode: 'test',
    });
  });

  it('shows real deliveries with their responses and resends one', async () => {
    const { receiver, id } = await ownEndpoint();
    const paymentId = await collect(server, shop.serviceId, 1500, sandbox.mtn.succeeds, shop.creds);
    await server.settle(2000);
    await server.deliverWebhooks();
    expect(about(receiver, paymentId)).toHaveLength(1);
    const list = await client.open('/dashboard/test/webhooks');
    expect(list.html).toContain(`<a href="/dashboard/test/webhooks/${id}">${receiver.url}</a>`);
    const endpointPage = await client.open(`/dashboard/test/webhooks/${id}`);
    const [row = ''] = rowsWith(endpointPage.html, paymentId);
    expect(row).toMatch(/HTTP 200/);
    const resend = /action="(\/dashboard\/test\/events\/\w+\/resend)"/.exec(row)?.[1] as string;
    const queued = await client.submit(row, resend);
    expect(queued.headers.get('location')).toBe(`/dashboard/test/webhooks/${id}`);
    expect(flashOf((await client.follow(queued)).html)).toMatch(/^Resend queued/);
    await server.deliverWebhooks();
    expect(about(receiver, paymentId)).toHaveLength(2);
    // The resend is a delivery of its own, with its own response.
    const after = rowsWith((await client.open(`/dashboard/test/webhooks/${id}`)).html, paymentId);
    expect(after).toHaveLength(2);
    for (const delivery of after) expect(delivery).toMatch(/HTTP 200/);
  });

  it('disables the endpoint: no event is sent to it any more', async () => {
    const { receiver, id } = await ownEndpoint();
    const before = await collect(server, shop.serviceId, 600, sandbox.mtn.succeeds, shop.creds);
    await server.settle(2000);
    await server.deliverWebhooks();
    expect(about(receiver, before)).toHaveLength(1);
    const page = await client.open(`/dashboard/test/webhooks/${id}`);
    const disabled = await client.submit(page.html, `/dashboard/test/webhooks/${id}/status`);
    const next = await client.follow(disabled);
    expect(flashOf(next.html)).toBe('Endpoint disabled: no event is sent to it.');
    expect(next.html).toContain('<dt>Status</dt><dd><span class="badge badge-disabled">disabled</span></dd>');
    expect((await server.raw('GET', `/webhook-endpoints/${id}`, { as: shop.creds })).body.data.status).toBe(
      'disabled',
    );
    const received = receiver.received.length;
    const after = await collect(server, shop.serviceId, 700, sandbox.mtn.succeeds, shop.creds);
    await server.settle(2000);
    await server.deliverWebhooks();
    expect(about(receiver, after)).toHaveLength(0);
    expect(receiver.received).toHaveLength(received);
  });

  it('edits the endpoint and rotates its signing secret: test events are signed with the new one', async () => {
    const { receiver, id } = await ownEndpoint();
    const path = `/dashboard/test/webhooks/${id}`;
    const page = await client.open(path);
    const saved = await client.submit(page.html, path, {
      description: 'Shop backend, failures only',
      events: ['payment.failed'],
    });
    expect(flashOf((await client.follow(saved)).html)).toBe('Endpoint saved.');
    const read = await server.raw('GET', `/webhook-endpoints/${id}`, { as: shop.creds });
    expect(read.body.data).toMatchObject({
      url: receiver.url,
      events: ['payment.failed'],
      description: 'Shop backend, failures only',
    });

    const rotated = await client.submit((await client.open(path)).html, `${path}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const rotatedPage = await rotated.text();
    const secret = shownOnce(rotatedPage, 'endpoint-secret');
    expect(secret).toMatch(/^whsec_/);
    const sent = await client.submit(rotatedPage, `${path}/test`);
    expect(flashOf((await client.follow(sent)).html)).toMatch(/delivered: the endpoint answered HTTP 200/);
    expectSignedWith(receiver, secret);
  });

  it('refunds once when the same refund form is sent again (a reload, a second click)', async () => {
    const paymentId = await collect(server, shop.serviceId, 5000, sandbox.mtn.succeeds, shop.creds);
    await server.settle(2000);
    const before = await balanceOf(server, shop.creds);
    const path = `/dashboard/test/payments/${paymentId}`;
    const opened = await client.open(path);
    // The form sent, then sent again as it was (a reload that posts again, a second click).
    const first = await client.submit(opened.html, `${path}/refund`, { amount: '700' });
    expect(flashOf((await client.follow(first)).html)).toMatch(/^Refund po_\w+ of FCFA\u00a0700/);
    const again = await client.submit(opened.html, `${path}/refund`, { amount: '700' });
    expect(flashOf((await client.follow(again)).html)).toBe(
      'This refund form was already sent: the refund was made once.',
    );
    const refunds = ok(
      await server.apiAs(shop.creds).GET('/payouts', { params: { query: { payment_id: paymentId } } }),
    ).data;
    expect(refunds.items.map((r) => r.amount)).toEqual([700]);
    expect(await balanceOf(server, shop.creds)).toBe(before - 700);
  });

  it('refunds part of a payment through the same rules and ledger as the API', async () => {
    const paymentId = await collect(server, shop.serviceId, 5000, sandbox.mtn.succeeds, shop.creds);
    await server.settle(2000);
    const before = await balanceOf(server, shop.creds);
    const path = `/dashboard/test/payments/${paymentId}`;
    const opened = await client.open(path);
    const refunded = await client.submit(opened.html, `${path}/refund`, { amount: '1200' });
    const after = await client.follow(refunded);
    expect(flashOf(after.html)).toMatch(/^Refund po_\w+ of FCFA\u00a01,200/);
    expect(after.html).toContain('<dt>Refunded</dt><dd>FCFA\u00a01,200</dd>');
    const refunds = await server.raw('GET', '/payouts', {
      as: shop.creds,
      query: { payment_id: paymentId },
    });
    expect(refunds.body.data.items).toMatchObject([{ amount: 1200, payout_type: 'refund' }]);
    expect(await balanceOf(server, shop.creds)).toBe(before - 1200);
    // More than what remains: refused with the API's message, and nothing moves.
    const reopened = await client.open(path);
    const tooMuch = await client.submit(reopened.html, `${path}/refund`, { amount: '4000' });
    const refused = await client.follow(tooMuch);
    expect(flashOf(refused.html)).toBe('At most 3800 XAF of this payment remains to refund.');
    expect(refused.html).toContain('class="flash flash-error"');
    expect(await balanceOf(server, shop.creds)).toBe(before - 1200);
    expect(refused.html).toMatch(/Ledger: payment/);
    await reconcile(server);
  });

  it("records a refused form's error code in the call log, as the API's refusals are", async () => {
    const paymentId = await collect(server, shop.serviceId, 5000, sandbox.mtn.succeeds, shop.creds);
    await server.settle(2000);
    const path = `/dashboard/test/payments/${paymentId}`;
    const opened = await client.open(path);
    // Refused by the dashboard's own check, before the API's rules are asked.
    const zero = await client.follow(await client.submit(opened.html, `${path}/refund`, { amount: '0' }));
    expect(flashOf(zero.html)).toBe('The amount must be a whole number greater than 0, in digits only.');
    // Refused by the API's rules.
    const tooMuch = await client.follow(
      await client.submit(opened.html, `${path}/refund`, { amount: '6000' }),
    );
    expect(flashOf(tooMuch.html)).toBe('At most 5000 XAF of this payment remains to refund.');
    await server.flushLogs();
    const logged = await queryRows<{ status: number; error_code: string | null }>(
      server,
      'SELECT status, error_code FROM call_logs WHERE path = ? ORDER BY seq',
      `${path}/refund`,
    );
    expect(logged).toEqual([
      { status: 303, error_code: 'invalid_amount' },
      { status: 303, error_code: 'refund_exceeds_payment' },
    ]);
  });

  it('downloads the balance report as CSV from the overview', async () => {
    await refundFromDashboard(1300);
    const overview = await client.open('/dashboard/test');
    // A day of the account's time zone (Africa/Douala unless it chose another).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Douala' }).format(server.clock.now());
    const report = await client.submit(overview.html, '/dashboard/test/reports/balance-transactions.csv', {
      from: day,
      to: day,
    });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(report.headers.get('content-disposition')).toBe(
      'attachment; filename="balance-transactions-test.csv"',
    );
    const lines = (await report.text()).trim().split('\n');
    expect(lines[0]).toBe('id,created_at,type,amount,currency,balance_after,source_id,description');
    expect(lines.some((l) => l.includes(',payout,-1300,XAF,'))).toBe(true);
    expect(lines.some((l) => l.includes(',payment,5000,XAF,'))).toBe(true);
  });

  it('records dashboard actions in the call log with the user, and downloads the logs as CSV', async () => {
    const { paymentId } = await refundFromDashboard(300);
    await server.flushLogs();
    const logsPage = await client.open('/dashboard/test/logs');
    const filtered = await client.submit(logsPage.html, '/dashboard/test/logs', { method: 'POST' });
    const logs = await filtered.text();
    const [row] = rowsWith(logs, `/dashboard/test/payments/${paymentId}/refund`);
    expect(row).toContain(`${email} (dashboard)`);
    const csvLink = decodeEntities(/id="download-logs" href="([^"]+)"/.exec(logs)?.[1] ?? '');
    expect(csvLink).toMatch(/^\/dashboard\/test\/logs\.csv\?method=POST$/);
    const download = await client.request(csvLink);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="call-logs-test.csv"');
    const csv = await download.text();
    expect(csv.split('\n')[0]).toBe(
      'created_at,request_id,method,path,status,duration_ms,error_code,key_id,user,created_local',
    );
    expect(csv).toMatch(
      new RegExp(`POST,/dashboard/test/payments/${paymentId}/refund,303,[\\d.]+,,,${email},[^,]+\\n`),
    );
    expect(csv).not.toMatch(/^[^,]+,[^,]+,GET,/m);
    // The API's own log listing shows the same action.
    const api = await server.raw('GET', '/logs', {
      as: shop.creds,
      query: { method: 'POST', limit: 100 },
    });
    expect(api.status).toBe(200);
    expect(api.body.data.items.map((l: { path: string }) => l.path)).toContain(
      `/dashboard/test/payments/${paymentId}/refund`,
    );
  });
});
