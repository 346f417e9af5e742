/**
 * Two-step sign-in (issue 46, decision 0045) over plain HTTP, on both engines: turning it on and
 * off, the sign-in's second step, codes taken once, recovery codes, the limits on wrong codes,
 * an account that requires it of its owners, and the administrator's reset. What Chromium shows
 * of the same pages, in English and French, is two-step.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totpCode, totpStep } from '../../server/domain/totp.js';
import { runAdmin } from '../support/admin.js';
import { queryRows } from '../support/database.js';
import { decodeEntities } from '../support/html-form.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { DashboardClient, flashOf } from './http-client.js';
import { addUser, httpSignIn, password } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const client = (cookie = '') => new DashboardClient(cookie, () => server);

/** The code the user's app shows now, by the server's clock. */
const codeNow = (secret: string) =>
  totpCode(base32Decode(secret) ?? Buffer.alloc(0), totpStep(server.clock.now()));

/** A six-digit code that is none of the secret's codes the server would take now (this step or either side). */
function wrongCode(secret: string): string {
  const key = base32Decode(secret) ?? Buffer.alloc(0);
  const step = totpStep(server.clock.now());
  const taken = new Set([step - 1, step, step + 1].map((s) => totpCode(key, s)));
  let code = Number(codeNow(secret));
  do code = (code + 1) % 1_000_000;
  while (taken.has(String(code).padStart(6, '0')));
  return String(code).padStart(6, '0');
}

const secretOn = (page: string) =>
  (/id="two-step-secret">([A-Z2-7 ]+)</.exec(page)?.[1] ?? '').replace(/ /g, '');
const recoveryCodesOn = (page: string) =>
  [...page.matchAll(/<li><code>([a-z2-9]{5}-[a-z2-9]{5})<\/code><\/li>/g)].map((m) => m[1] as string);

/** A signed-in client of a new user of `role` (password alone: they have no second step yet). */
async function newUser(role: 'owner' | 'developer' | 'viewer' = 'viewer', accountId?: string) {
  const email = await addUser(server, role, accountId);
  const { status, cookie } = await httpSignIn(server, email);
  expect(status).toBe(303);
  return { email, client: client(cookie) };
}

/** Turns two-step sign-in on from the user's page; the enrolment's code is then spent, so the clock moves a step. */
async function turnOn(signedIn: DashboardClient) {
  const page = await signedIn.open('/dashboard/test/two-step');
  const secret = secretOn(page.html);
  expect(secret).toHaveLength(32);
  const done = await signedIn.submit(page.html, '/dashboard/test/two-step/enable', { code: codeNow(secret) });
  expect(done.status).toBe(200);
  const codes = recoveryCodesOn(await done.text());
  server.clock.advance(30_000);
  return { secret, codes };
}

async function userWithTwoStep(role: 'owner' | 'developer' | 'viewer' = 'viewer', accountId?: string) {
  const user = await newUser(role, accountId);
  return { ...user, ...(await turnOn(user.client)) };
}

/** The password step of a sign-in, in a fresh browser: where it goes, and the browser holding its challenge. */
async function passwordStep(email: string, next?: string) {
  const browser = client();
  const form = await browser.open(`/dashboard/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  const response = await browser.submit(form.html, '/dashboard/sign-in', { email, password });
  expect(response.status).toBe(303);
  return { browser, location: response.headers.get('location') };
}

/** Answers the second step's page with `code`: the response. */
async function secondStep(browser: DashboardClient, code: string) {
  const page = await browser.open('/dashboard/sign-in/two-step');
  expect(page.status).toBe(200);
  return browser.submit(page.html, '/dashboard/sign-in/two-step', { code });
}

describe('turning two-step sign-in on', () => {
  it('asks for a code of the key shown, keeps the key through a wrong code, and gives ten recovery codes once', async () => {
    const { client: user, email } = await newUser('developer');
    const elsewhere = client((await httpSignIn(server, email)).cookie);
    const page = await user.open('/dashboard/test/two-step');
    const secret = secretOn(page.html);

    const wrong = await user.submit(page.html, '/dashboard/test/two-step/enable', {
      code: wrongCode(secret),
    });
    expect(wrong.status).toBe(400);
    const again = await wrong.text();
    expect(flashOf(again)).toBe(
      'That code is not right, or was already used. Enter the code the app shows now.',
    );
    expect(secretOn(again)).toBe(secret);

    const done = await user.submit(again, '/dashboard/test/two-step/enable', { code: codeNow(secret) });
    const shown = await done.text();
    const codes = recoveryCodesOn(shown);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(decodeEntities(shown)).toContain('Two-step sign-in is on. You have 10 recovery codes left.');
    // Shown once: the page opened again lists none.
    expect(recoveryCodesOn((await user.open('/dashboard/test/two-step')).html)).toEqual([]);
    // Its other session (another device) ended; this one goes on.
    expect((await elsewhere.request('/dashboard/test')).status).toBe(303);
    expect((await user.request('/dashboard/test')).status).toBe(200);
    // Stored sealed: neither the key nor a recovery code is in the database.
    const [row] = await queryRows<{ totp_secret: string }>(
      server,
      'SELECT totp_secret FROM dashboard_users WHERE email = ?',
      email,
    );
    expect(row?.totp_secret).toMatch(/^v1\./);
    const stored = JSON.stringify(
      await queryRows(server, 'SELECT * FROM dashboard_recovery_codes'),
      (_key, value) => (value?.type === 'Buffer' ? Buffer.from(value.data).toString('latin1') : value),
    );
    for (const text of [secret, ...codes.map((c) => c.replace('-', ''))]) expect(stored).not.toContain(text);
    expect(JSON.stringify(row)).not.toContain(secret);
  });
});

describe("the sign-in's second step", () => {
  it('comes after a right password, opens no session before the code, then lands on the page asked for', async () => {
    const { email, secret } = await userWithTwoStep();
    const { browser, location } = await passwordStep(email, '/dashboard/test/logs');
    expect(location).toBe('/dashboard/sign-in/two-step');
    expect(browser.cookie).not.toContain('dash_session=');
    expect((await browser.request('/dashboard/test')).status).toBe(303);

    const wrong = await secondStep(browser, wrongCode(secret));
    expect(wrong.status).toBe(401);
    expect(flashOf(await wrong.text())).toContain('That code is not right');

    const right = await secondStep(browser, codeNow(secret));
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/dashboard/test/logs');
    expect(browser.cookie).not.toContain('dash_two_step=');
    expect((await browser.open('/dashboard/test/logs')).status).toBe(200);
  });

  it('takes a code once: the same code again is refused, the next one signs in', async () => {
    const { email, secret } = await userWithTwoStep();
    const first = await passwordStep(email);
    const code = codeNow(secret);
    expect((await secondStep(first.browser, code)).status).toBe(303);

    const replay = await passwordStep(email);
    expect((await secondStep(replay.browser, code)).status).toBe(401);
    server.clock.advance(30_000);
    expect((await secondStep(replay.browser, codeNow(secret))).status).toBe(303);
  });

  it('takes a recovery code once, and the page counts what is left', async () => {
    const { email, codes } = await userWithTwoStep();
    const [code] = codes as [string];
    const first = await passwordStep(email);
    expect((await secondStep(first.browser, code.toUpperCase())).status).toBe(303);
    expect(decodeEntities((await first.browser.open('/dashboard/test/two-step')).html)).toContain(
      'You have 9 recovery codes left.',
    );
    const again = await passwordStep(email);
    expect((await secondStep(again.browser, code)).status).toBe(401);
  });

  it('ends the attempt after five wrong codes, and locks the user after ten in fifteen minutes, from any browser', async () => {
    const { email, secret } = await userWithTwoStep();
    /** Five wrong codes: four answered on the page, the fifth sends the browser to sign in again. */
    const fiveWrong = async (browser: DashboardClient) => {
      let lastPage = '';
      for (let i = 0; i < 4; i++) {
        const wrong = await secondStep(browser, wrongCode(secret));
        expect(wrong.status).toBe(401);
        lastPage = await wrong.text();
      }
      const fifth = await browser.submit(lastPage, '/dashboard/sign-in/two-step', {
        code: wrongCode(secret),
      });
      expect(fifth.headers.get('location')).toBe('/dashboard/sign-in?again=1');
      return lastPage;
    };
    const first = await passwordStep(email);
    const lastPage = await fiveWrong(first.browser);
    // Out of tries: even the right code starts the sign-in again.
    expect((await first.browser.open('/dashboard/sign-in/two-step')).status).toBe(303);
    const spent = await first.browser.submit(lastPage, '/dashboard/sign-in/two-step', {
      code: codeNow(secret),
    });
    expect(spent.headers.get('location')).toBe('/dashboard/sign-in?again=1');
    expect(first.browser.cookie).not.toContain('dash_session=');

    // Eleven minutes on, the first attempt has expired, and its wrong codes still count.
    server.clock.advance(11 * 60_000);
    await fiveWrong((await passwordStep(email)).browser);
    const third = await passwordStep(email);
    const locked = await secondStep(third.browser, codeNow(secret));
    expect(locked.status).toBe(429);
    expect(flashOf(await locked.text())).toBe('Too many wrong codes. Wait 15 minutes, then sign in again.');

    server.clock.advance(15 * 60_000);
    const later = await passwordStep(email);
    expect((await secondStep(later.browser, codeNow(secret))).status).toBe(303);
  });

  it('is refused to a browser without a challenge of its own, or with a forged one', async () => {
    const nobody = client();
    expect((await nobody.request('/dashboard/sign-in/two-step')).headers.get('location')).toBe(
      '/dashboard/sign-in?again=1',
    );
    const forged = client(`dash_two_step=${'A'.repeat(43)}`);
    expect((await forged.request('/dashboard/sign-in/enrol')).headers.get('location')).toBe(
      '/dashboard/sign-in?again=1',
    );
  });
});

describe('recovery codes and turning it off, from the signed-in page', () => {
  it('new recovery codes replace the old ones, and turning off asks for a code', async () => {
    const { email, client: user, secret, codes } = await userWithTwoStep('developer');
    let page = (await user.open('/dashboard/test/two-step')).html;
    const renewed = await user.submit(page, '/dashboard/test/two-step/recovery-codes', {
      code: codeNow(secret),
    });
    const fresh = recoveryCodesOn(await renewed.text());
    expect(fresh).toHaveLength(10);
    server.clock.advance(30_000);

    page = (await user.open('/dashboard/test/two-step')).html;
    const refused = await user.submit(page, '/dashboard/test/two-step/disable', { code: codes[0] as string });
    expect(refused.status).toBe(400);
    page = (await user.open('/dashboard/test/two-step')).html;
    const off = await user.submit(page, '/dashboard/test/two-step/disable', { code: fresh[0] as string });
    expect(off.status).toBe(303);
    expect(flashOf((await user.follow(off)).html)).toBe(
      'Two-step sign-in is off: your password alone signs you in.',
    );
    expect((await passwordStep(email)).location).toBe('/dashboard/test');
  });

  it("refuses a challenge another user's page was given, and never shows its key", async () => {
    const off = await newUser('developer');
    const offPage = (await off.client.open('/dashboard/test/two-step')).html;
    const other = await newUser('developer');
    const otherPage = (await other.client.open('/dashboard/test/two-step')).html;
    const refused = await other.client.submit(otherPage, '/dashboard/test/two-step/enable', {
      challenge: /name="challenge" value="([^"]+)"/.exec(offPage)?.[1] ?? '',
      code: codeNow(secretOn(offPage)),
    });
    expect(refused.status).toBe(400);
    const shown = secretOn(await refused.text());
    expect(shown).toHaveLength(32);
    expect(shown).not.toBe(secretOn(offPage));
    expect((await passwordStep(off.email)).location).toBe('/dashboard/test');
    expect((await passwordStep(other.email)).location).toBe('/dashboard/test');

    const a = await userWithTwoStep('developer');
    const b = await userWithTwoStep('developer');
    const aPage = (await a.client.open('/dashboard/test/two-step')).html;
    const challenge = /name="challenge" value="([^"]+)"/.exec(aPage)?.[1] ?? '';
    const bPage = (await b.client.open('/dashboard/test/two-step')).html;
    const stolen = await b.client.submit(bPage, '/dashboard/test/two-step/disable', {
      challenge,
      code: codeNow(b.secret),
    });
    expect(stolen.status).toBe(400);
    expect(flashOf(await stolen.text())).toBe('This form had expired. Use the one below.');
    expect((await passwordStep(b.email)).location).toBe('/dashboard/sign-in/two-step');
  });
});

describe('an account that requires two-step sign-in of its owners', () => {
  /** Asks the account, as `owner`, to require it of owners: the message shown after. */
  const requireIt = async (owner: DashboardClient) => {
    const settings = await owner.open('/dashboard/test/settings');
    const sent = await owner.submit(settings.html, '/dashboard/test/settings/two-step', {
      owners_need_two_step: 'on',
    });
    return flashOf((await owner.follow(sent)).html);
  };

  /** A new account whose first owner has turned it on and requires it. */
  async function strictAccount(name: string) {
    const { account } = await server.newAccount(name);
    const first = await newUser('owner', account.accountId);
    const { secret } = await turnOn(first.client);
    expect(await requireIt(first.client)).toBe('Owners must now sign in with two-step sign-in.');
    return { accountId: account.accountId, first: first.client, secret };
  }

  /** The owner's enrolment at sign-in, with one wrong code first: the recovery codes page. */
  async function enrolAtSignIn(browser: DashboardClient) {
    const enrol = await browser.open('/dashboard/sign-in/enrol');
    const key = secretOn(enrol.html);
    const wrong = await browser.submit(enrol.html, '/dashboard/sign-in/enrol', { code: wrongCode(key) });
    expect(wrong.status).toBe(401);
    const kept = await wrong.text();
    expect(secretOn(kept)).toBe(key);
    return (await browser.submit(kept, '/dashboard/sign-in/enrol', { code: codeNow(key) })).text();
  }

  it('is required only by an owner who has it, and signs out the owners without it, not the others', async () => {
    const { account } = await server.newAccount('Strict shop');
    const first = await newUser('owner', account.accountId);
    expect(await requireIt(first.client)).toBe(
      'Turn on two-step sign-in for yourself first (link at the foot of every page).',
    );
    await turnOn(first.client);
    const other = await newUser('owner', account.accountId);
    const developer = await newUser('developer', account.accountId);
    expect(await requireIt(first.client)).toBe(
      'Owners must now sign in with two-step sign-in; 1 session of an owner without it was ended.',
    );
    expect((await other.client.request('/dashboard/test')).status).toBe(303);
    expect((await developer.client.request('/dashboard/test')).status).toBe(200);
    expect((await passwordStep(developer.email)).location).toBe('/dashboard/test');
  });

  it('has an owner without it set it up at sign-in before any page, then land on the page asked for', async () => {
    const { accountId } = await strictAccount('Strict boutique');
    const owner = await addUser(server, 'owner', accountId);
    const { browser, location } = await passwordStep(owner, '/dashboard/test/payouts');
    expect(location).toBe('/dashboard/sign-in/enrol');
    expect((await browser.request('/dashboard/test')).status).toBe(303);
    const shown = await enrolAtSignIn(browser);
    expect(recoveryCodesOn(shown)).toHaveLength(10);
    expect(shown).toContain('href="/dashboard/test/payouts"');
    expect((await browser.request('/dashboard/test/payouts')).status).toBe(200);
  });

  it('has an invited owner set it up right after choosing a password', async () => {
    const { first } = await strictAccount('Strict kiosk');
    const users = await first.open('/dashboard/test/users');
    const invited = await first.submit(users.html, '/dashboard/test/users/invite', {
      email: 'new-owner@strict.example',
      role: 'owner',
    });
    const link = decodeEntities(
      /id="invite-link" readonly value="([^"]+)"/.exec(await invited.text())?.[1] ?? '',
    );
    const newcomer = client();
    const welcome = await newcomer.open(new URL(link).pathname);
    const chosen = await newcomer.submit(welcome.html, new URL(link).pathname, { password });
    expect(chosen.headers.get('location')).toBe('/dashboard/sign-in/enrol');
    expect(recoveryCodesOn(await enrolAtSignIn(newcomer))).toHaveLength(10);
    expect((await newcomer.request('/dashboard/test')).status).toBe(200);
  });

  it('keeps it on for owners: the page says so and turning off is refused', async () => {
    const { first, secret } = await strictAccount('Strict stall');
    server.clock.advance(30_000);
    const page = (await first.open('/dashboard/test/two-step')).html;
    expect(decodeEntities(page)).toContain(
      'Your account requires two-step sign-in of its owners: it stays on.',
    );
    const off = await first.post('/dashboard/test/two-step/disable', {
      challenge: /name="challenge" value="([^"]+)"/.exec(page)?.[1] ?? '',
      code: codeNow(secret),
    });
    expect(off.status).toBe(409);
    expect(decodeEntities(await off.text())).toContain('it stays on');
  });
});

describe('npm run admin -- reset-two-step', () => {
  it('turns it off for a user who lost their phone and codes, and ends their sessions', async () => {
    const { email, client: user } = await userWithTwoStep('viewer');
    const env = { ...server.databaseEnv, NODE_ENV: 'test' };
    const { code, out } = await runAdmin(['reset-two-step', email], env);
    expect(code, out).toBe(0);
    expect(out).toContain(`Two-step sign-in is off for ${email}`);
    expect((await user.request('/dashboard/test')).status).toBe(303);
    expect((await passwordStep(email)).location).toBe('/dashboard/test');
    const unknown = await runAdmin(['reset-two-step', 'nobody@shop.example'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain('No dashboard user has the email nobody@shop.example.');
    const missing = await runAdmin(['reset-two-step'], env);
    expect(missing.code).toBe(2);
    expect(missing.out).toContain('reset-two-step needs the email of a dashboard user.');
  });
});
