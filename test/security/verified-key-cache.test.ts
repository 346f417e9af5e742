/**
 * The cache of verified keys (server/domain/verified-keys.ts): a key is looked up once, and every
 * change of a key — made through the API, or by another process on the same database (the admin
 * CLI), or another instance on PostgreSQL — is honoured at once on the next request.
 */
import { describe, expect, it, vi } from 'vitest';
import { resetTestKeys } from '../support/admin.js';
import { type Credentials, testEngine, useTestServer } from '../support/server.js';

const server = useTestServer();

const balance = (as: Credentials) => server.raw('GET', '/balance', { as });

describe('a verified key', () => {
  it('is not looked up in the database again while no key changes', async () => {
    const { test } = await server.newAccount('Cached');
    const reads = vi.spyOn(server.service.deps.store, 'read');
    try {
      expect((await balance(test)).status).toBe(200);
      const cold = reads.mock.calls.length;
      expect((await balance(test)).status).toBe(200);
      const warm = reads.mock.calls.length - cold;
      // The same request, once the key is known: the balance read only, not the key lookup.
      expect(warm).toBe(cold - 1);
    } finally {
      reads.mockRestore();
    }
  });

  it('is refused at once once revoked through the API, though it was just used', async () => {
    const { test } = await server.newAccount('Revoked here');
    expect((await balance(test)).status).toBe(200);
    const rotated = await server.raw('POST', '/api-keys/rotate', {
      as: test,
      body: { grace_period_seconds: 0 },
    });
    expect(rotated.status).toBe(201);
    const old = await balance(test);
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('invalid_api_key');
  });

  it('stops at the end of its grace period by the clock, without any other change', async () => {
    const { test } = await server.newAccount('Grace ends');
    const rotated = await server.raw('POST', '/api-keys/rotate', {
      as: test,
      body: { grace_period_seconds: 60 },
    });
    expect(rotated.status).toBe(201);
    expect((await balance(test)).status).toBe(200); // verified (and cached) in its grace period
    server.clock.advance(59_000);
    expect((await balance(test)).status).toBe(200);
    server.clock.advance(2_000);
    const ended = await balance(test);
    expect(ended.status).toBe(401);
    expect(ended.body.error.code).toBe('invalid_api_key');
  });

  it('still needs the X-API-User of its own account', async () => {
    const { test } = await server.newAccount('Own user');
    const other = await server.newAccount('Other user');
    expect((await balance(test)).status).toBe(200);
    const wrongUser = await balance({ apiUser: other.test.apiUser, key: test.key });
    expect(wrongUser.status).toBe(401);
    expect(wrongUser.body.error.code).toBe('invalid_api_user');
    expect((await balance(test)).status).toBe(200);
  });

  it(`is refused once another process revoked it (${testEngine === 'sqlite' ? 'same SQLite file' : 'PostgreSQL notification'})`, async () => {
    const { test } = await server.newAccount('Revoked elsewhere');
    expect((await balance(test)).status).toBe(200);
    expect((await balance(test)).status).toBe(200);
    const fresh = await resetTestKeys(test.apiUser, server.databaseEnv);
    // The CLI revokes at its own (real) time; the test server's clock starts in 2026-11-20.
    server.clock.advance(Math.max(0, Date.now() - server.clock.now()) + 1000);
    if (testEngine === 'sqlite') {
      // The version is read from the file once per turn of the event loop: a request made after
      // the other process committed is in a later turn, and is refused.
      expect((await balance(test)).status).toBe(401);
    } else {
      // PostgreSQL delivers the notification when the other process's change commits.
      await expect.poll(async () => (await balance(test)).status, { timeout: 5_000, interval: 20 }).toBe(401);
    }
    expect((await balance({ apiUser: test.apiUser, key: fresh })).status).toBe(200);
  });
});
