/**
 * The dashboard attacked from outside over HTTP, on both engines: a developer or a viewer
 * reaching keys their role does not (docs/decisions/0030-key-roles.md), an owner discovering
 * which emails other accounts use, the commonest passwords, and amounts that `Number()` would
 * have read (docs/decisions/0031-dashboard-sign-in-and-passwords.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, httpSignIn, origin, password } from '../dashboard/support.js';
import { collect, createService } from '../support/fixtures.js';
import { decodeEntities } from '../support/html-form.js';
import { type Credentials, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** A signed-in user: GETs pages and POSTs forms with the session's CSRF token. */
async function userOf(email: string) {
  const { cookie } = await httpSignIn(server, email);
  expect(cookie).toContain('dash_session=');
  const request = (path: string, body?: Record<string, string>) =>
    fetch(`${origin(server)}${path}`, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(body ? { body: new URLSearchParams(body).toString() } : {}),
    });
  const open = async (path: string) => {
    const response = await request(path);
    return { status: response.status, html: await response.text() };
  };
  const csrf = async () =>
    /name="_csrf" value="([^"]+)"/.exec((await open('/dashboard/test')).html)?.[1] ?? '';
  const post = async (path: string, values: Record<string, string> = {}) => {
    const response = await request(path, { _csrf: await csrf(), ...values });
    return {
      status: response.status,
      html: await response.text(),
      location: response.headers.get('location'),
    };
  };
  return { open, post };
}

const secretShown = (html: string) =>
  decodeEntities(/<input id="new-secret-key" readonly value="([^"]*)"/.exec(html)?.[1] ?? '');

async function keysOf(as: Credentials) {
  return (await server.raw('GET', '/api-keys', { as })).body.data.items as Array<{
    id: string;
    role: string;
    last4: string;
  }>;
}

describe('dashboard roles over API keys', () => {
  it('a developer sees only restricted keys and creates one; its secret cannot pay out', async () => {
    const { account, test } = await server.newAccount('Developer keys');
    const developer = await userOf(await addUser(server, 'developer', account.accountId));
    const fullKey = (await keysOf(test))[0] as { id: string; last4: string };
    const created = await developer.post('/dashboard/test/keys', { role: 'collect' });
    expect(created.status).toBe(200);
    const secret = secretShown(created.html);
    expect(secret).toMatch(/^sk_test_/);
    const page = await developer.open('/dashboard/test/keys');
    expect(page.html).not.toContain(fullKey.id);
    expect(page.html).toContain(`…${secret.slice(-4)}`);
    expect(page.html).not.toContain('<option value="full">');
    const payout = await server.raw('POST', '/payouts', {
      as: { apiUser: test.apiUser, key: secret },
      body: { amount: 100, currency: 'XAF', recipient_msisdn: '237670000000', payout_type: 'withdrawal' },
    });
    expect(payout.status).toBe(403);
    expect(payout.body.error.details[0].permission).toBe('payouts:write');
  });

  it('a developer cannot create, rotate or revoke a full key: 403 permission_denied', async () => {
    const { account, test } = await server.newAccount('Developer refused');
    const developer = await userOf(await addUser(server, 'developer', account.accountId));
    const fullKey = (await keysOf(test))[0] as { id: string };
    expect((await developer.post('/dashboard/test/keys', { role: 'full' })).status).toBe(403);
    const rotate = await developer.post(`/dashboard/test/keys/${fullKey.id}/rotate`, {
      grace_period_seconds: '0',
    });
    expect(rotate.status).toBe(403);
    expect(secretShown(rotate.html)).toBe('');
    expect((await developer.post(`/dashboard/test/keys/${fullKey.id}/revoke`)).status).toBe(403);
    // The full key still works and is still the only full key.
    expect((await server.raw('GET', '/balance', { as: test })).status).toBe(200);
    expect((await keysOf(test)).filter((k) => k.role === 'full')).toHaveLength(1);
  });

  it('a viewer sees no key and creates none; an owner creates a full key', async () => {
    const { account, test } = await server.newAccount('Viewer keys');
    const viewer = await userOf(await addUser(server, 'viewer', account.accountId));
    expect((await viewer.open('/dashboard/test/keys')).status).toBe(403);
    expect((await viewer.post('/dashboard/test/keys', { role: 'read_only' })).status).toBe(403);
    const owner = await userOf(await addUser(server, 'owner', account.accountId));
    const created = await owner.post('/dashboard/test/keys', { role: 'full' });
    expect(secretShown(created.html)).toMatch(/^sk_test_/);
    expect((await keysOf(test)).filter((k) => k.role === 'full')).toHaveLength(2);
  });
});

describe('invitations reveal no other account', () => {
  it("inviting another account's email answers as a fresh email does, and its link ends as a used one", async () => {
    const other = await server.newAccount('Other account');
    const taken = await addUser(server, 'owner', other.account.accountId);
    const { account } = await server.newAccount('Curious owner');
    const owner = await userOf(await addUser(server, 'owner', account.accountId));
    const fresh = `fresh${Date.now()}@shop.example`;
    const shape = (html: string, email: string) =>
      html
        .replaceAll(email, 'EMAIL')
        .replace(/welcome\/[A-Za-z0-9_-]{43}/g, 'welcome/LINK')
        .replace(/value="[A-Za-z0-9_-]{43}"/g, 'value="TOKEN"')
        .replace(/nonce="[^"]*"/g, 'nonce="NONCE"')
        .replace(/<tr><td>[^<]*@shop\.example<\/td>[\s\S]*?<\/tr>/g, '');
    const toFresh = await owner.post('/dashboard/test/users/invite', { email: fresh, role: 'viewer' });
    const toTaken = await owner.post('/dashboard/test/users/invite', { email: taken, role: 'viewer' });
    expect(toTaken.status).toBe(toFresh.status);
    expect(shape(toTaken.html, taken)).toBe(shape(toFresh.html, fresh));
    const users = (await owner.open('/dashboard/test/users')).html;
    expect(users).toContain(`<td>${taken}</td><td>viewer</td><td>invited</td>`);
    // The link opens the same page; choosing a password ends as a link used in another tab.
    const link = /welcome\/([A-Za-z0-9_-]{43})/.exec(toTaken.html)?.[1] as string;
    const welcome = await fetch(`${origin(server)}/dashboard/welcome/${link}`);
    expect(welcome.status).toBe(200);
    const cookie = (welcome.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const token = /name="_csrf" value="([^"]+)"/.exec(await welcome.text())?.[1] ?? '';
    const accepted = await fetch(`${origin(server)}/dashboard/welcome/${link}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: token, password: 'a long new password' }).toString(),
    });
    expect(accepted.status).toBe(404);
    // The other account's user is untouched.
    expect((await httpSignIn(server, taken, password)).status).toBe(303);
  });
});

describe('passwords and amounts', () => {
  it('refuses the commonest passwords, also with digits or symbols added, when a link sets one', async () => {
    const { account } = await server.newAccount('Common passwords');
    const owner = await userOf(await addUser(server, 'owner', account.accountId));
    const invited = await owner.post('/dashboard/test/users/invite', {
      email: `new${Date.now()}@shop.example`,
      role: 'viewer',
    });
    const link = /welcome\/([A-Za-z0-9_-]{43})/.exec(invited.html)?.[1] as string;
    const choose = async (secret: string) => {
      const page = await fetch(`${origin(server)}/dashboard/welcome/${link}`);
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
      const reply = await fetch(`${origin(server)}/dashboard/welcome/${link}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: token, password: secret }).toString(),
      });
      return { status: reply.status, html: decodeEntities(await reply.text()) };
    };
    for (const common of ['qwertyuiop', '1234567890', 'Password2024!', 'sunshine123456']) {
      const refused = await choose(common);
      expect(refused.status, common).toBe(400);
      expect(refused.html).toContain('one of the most common');
    }
    expect((await choose('mango harbour lantern')).status).toBe(303);
  });

  it('a refund amount is digits only: 1e3, 0x10, spaced, signed or fractional amounts refund nothing', async () => {
    const { account, test } = await server.newAccount('Strict amounts');
    const serviceId = await createService(server, test);
    const payment = await collect(server, serviceId, 5000, undefined, test);
    await server.settle();
    const owner = await userOf(await addUser(server, 'owner', account.accountId));
    for (const amount of ['1e3', '0x10', ' 12 ', '12.0', '+12', '1_000', '0']) {
      const refused = await owner.post(`/dashboard/test/payments/${payment}/refund`, { amount });
      expect(refused.status, amount).toBe(303);
      const flash = decodeEntities((await owner.open(refused.location ?? '')).html);
      expect(flash, amount).toContain('whole number greater than 0, in digits only');
    }
    const refunds = await server.raw('GET', `/payouts?payment_id=${payment}`, { as: test });
    expect(refunds.body.data.items).toHaveLength(0);
    const accepted = await owner.post(`/dashboard/test/payments/${payment}/refund`, { amount: '1000' });
    expect(decodeEntities((await owner.open(accepted.location ?? '')).html)).toContain('Refund');
    const after = await server.raw('GET', `/payouts?payment_id=${payment}`, { as: test });
    expect(after.body.data.items[0].amount).toBe(1000);
  });
});
