/**
 * Dashboard sign-in attacked from outside over HTTP, on both engines
 * (docs/decisions/0031-dashboard-sign-in-and-passwords.md): wrong passwords sent all at once
 * for one email cannot pass the limit; knowing an owner's email does not lock them out from
 * elsewhere; attempts during a lock do not extend it; a burst of sign-ins from many addresses
 * gets quick 503s instead of queueing password hashes; the client address comes from a proxy's
 * header only when TRUST_PROXY names it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxFailuresPerPair } from '../../server/domain/dashboard-users.js';
import { addUser, origin, password } from '../dashboard/support.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** A sign-in form's cookie and CSRF token, fetched before the attempts that use it. */
async function signInForm(server: TestServer) {
  const form = await fetch(`${origin(server)}/dashboard/sign-in`);
  const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  return { cookie, token };
}

/** Posts the sign-in form; `forwardedFor` sets X-Forwarded-For, which only TRUST_PROXY heeds. */
async function attempt(server: TestServer, email: string, secret: string, forwardedFor?: string) {
  const { cookie, token } = await signInForm(server);
  const response = await fetch(`${origin(server)}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: new URLSearchParams({ _csrf: token, email, password: secret }).toString(),
  });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('sign-in limits, behind no proxy (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it(`wrong passwords sent at once for one email: at most ${maxFailuresPerPair} are checked, the rest 429 or 503`, async () => {
    const email = await addUser(server, 'owner');
    const statuses = (
      await Promise.all(Array.from({ length: 24 }, (_, i) => attempt(server, email, `wrong guess ${i}`)))
    ).map((r) => r.status);
    expect(count(statuses, 401)).toBeLessThanOrEqual(maxFailuresPerPair);
    expect(count(statuses, 429)).toBeGreaterThan(0);
    expect(count(statuses, 401) + count(statuses, 429) + count(statuses, 503)).toBe(statuses.length);
    // Locked: even the right password is refused from this address.
    expect((await attempt(server, email, password)).status).toBe(429);
  });

  it('a spoofed X-Forwarded-For is ignored: changing it does not escape the lock', async () => {
    const email = await addUser(server, 'owner');
    for (let i = 0; i < maxFailuresPerPair; i++) {
      expect((await attempt(server, email, `wrong ${i}`, `203.0.113.${i + 1}`)).status).toBe(401);
    }
    expect((await attempt(server, email, password, '198.51.100.7')).status).toBe(429);
  });

  it('attempts during a lock do not extend it: it ends 15 minutes after the failures', async () => {
    const email = await addUser(server, 'owner');
    for (let i = 0; i < maxFailuresPerPair; i++) {
      expect((await attempt(server, email, `wrong ${i}`)).status).toBe(401);
    }
    server.clock.advance(10 * 60_000);
    for (let i = 0; i < 3; i++) expect((await attempt(server, email, `still wrong ${i}`)).status).toBe(429);
    server.clock.advance(5 * 60_000 + 1000);
    expect((await attempt(server, email, password)).status).toBe(303);
  });
});

describe('sign-in limits behind a proxy (TRUST_PROXY=x-forwarded-for)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'x-forwarded-for' });
  });
  afterAll(async () => server?.close());

  it("an attacker who knows the owner's email locks only their own address, not the owner", async () => {
    const email = await addUser(server, 'owner');
    const attacker = '203.0.113.9';
    for (let i = 0; i < maxFailuresPerPair + 3; i++) await attempt(server, email, `guess ${i}`, attacker);
    expect((await attempt(server, email, password, attacker)).status).toBe(429);
    // The header's last address is the proxy's view of the client; what precedes it is the client's word.
    expect((await attempt(server, email, password, `${attacker}, 198.51.100.20`)).status).toBe(303);
  });

  it('a burst of sign-ins from many addresses is answered at once, with 503 and Retry-After past the hash slots', async () => {
    const emails = await Promise.all(Array.from({ length: 4 }, () => addUser(server, 'viewer')));
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        attempt(server, emails[i % emails.length] as string, `wrong ${i}`, `198.18.0.${i + 1}`),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(count(statuses, 503)).toBeGreaterThan(0);
    expect(replies.filter((r) => r.status === 503).every((r) => r.retryAfter === '1')).toBe(true);
    // Each one hashed (401) or refused at once (503): none waited in a queue without bound, and
    // no time is measured here (the machine's speed decides it; the bench is where speed is).
    expect(count(statuses, 401) + count(statuses, 503)).toBe(statuses.length);
  });
});
