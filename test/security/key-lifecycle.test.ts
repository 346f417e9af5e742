/**
 * Attacks on the key lifecycle: a leaked key in its grace period trying to mint a fresh key
 * (and so outlive its retirement), minting keys to multiply the rate limit, revoking another
 * account's key, and an owner locking themselves out.
 */
import { describe, expect, it } from 'vitest';
import { resetTestKeys } from '../support/admin.js';
import { type Credentials, startTestServer, type TestServer, useTestServer } from '../support/server.js';

async function rotate(server: TestServer, as: Credentials, grace = 0) {
  return server.raw('POST', '/api-keys/rotate', { as, body: { grace_period_seconds: grace } });
}

function credentialsOf(as: Credentials, response: { body: { data: { secret_key: string } } }): Credentials {
  return { apiUser: as.apiUser, key: response.body.data.secret_key };
}

describe('a key in its grace period cannot manage keys', () => {
  const server = useTestServer();

  it('it still calls the API, but cannot rotate (mint a successor) nor revoke', async () => {
    const { test: old } = await server.newAccount('Leaked key');
    const rotated = await rotate(server, old, 3600);
    expect(rotated.status).toBe(201);
    const successor = credentialsOf(old, rotated);

    expect((await server.raw('GET', '/balance', { as: old })).status).toBe(200);
    const mint = await rotate(server, old, 0);
    expect(mint.status).toBe(403);
    expect(mint.body.error.code).toBe('key_not_active');
    expect(mint.body.error.request_id).toBe(mint.headers.get('x-request-id'));
    const revoke = await server.raw('POST', `/api-keys/${rotated.body.data.api_key.id}/revoke`, {
      as: old,
    });
    expect(revoke.status).toBe(403);
    expect(revoke.body.error.code).toBe('key_not_active');
    // The successor still works: the leaked key could not take it away.
    expect((await server.raw('GET', '/balance', { as: successor })).status).toBe(200);
  });

  it('the active key revokes the leaked one at once, by id', async () => {
    const { test: old } = await server.newAccount('Revoke leaked');
    const rotated = await rotate(server, old, 3600);
    const successor = credentialsOf(old, rotated);
    const previousId = rotated.body.data.previous_key.id as string;
    const revoked = await server.raw('POST', `/api-keys/${previousId}/revoke`, { as: successor });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: previousId, status: 'revoked' });
    const refused = await server.raw('GET', '/balance', { as: old });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_api_key');
    // Revoking it again changes nothing.
    const again = await server.raw('POST', `/api-keys/${previousId}/revoke`, { as: successor });
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('revoked');
  });
});

describe('at most two working keys per account and mode', () => {
  const server = useTestServer();

  it('a rotation with a grace period while another key still works is refused; revoking it first lets it through', async () => {
    const { test: first } = await server.newAccount('Two keys');
    const second = credentialsOf(first, await rotate(server, first, 3600));
    const third = await rotate(server, second, 3600);
    expect(third.status).toBe(409);
    expect(third.body.error.code).toBe('too_many_active_keys');
    const keys = await server.raw('GET', '/api-keys', { as: second });
    expect(keys.body.data.items.filter((k: { status: string }) => k.status !== 'revoked')).toHaveLength(2);

    // Rotating without a grace period replaces the caller: still two working keys.
    const replaced = await rotate(server, second, 0);
    expect(replaced.status).toBe(201);
    const after = await server.raw('GET', '/api-keys', { as: credentialsOf(first, replaced) });
    expect(after.body.data.items.filter((k: { status: string }) => k.status !== 'revoked')).toHaveLength(2);
  });

  it('minting keys does not multiply the rate limit: it is shared by the account and mode', async () => {
    const limited = await startTestServer({ RATE_LIMIT_PER_WINDOW: '4', RATE_LIMIT_WINDOW_MS: '60000' });
    try {
      const { test: first, live } = await limited.newAccount('Shared limit');
      const rotated = await limited.raw('POST', '/api-keys/rotate', {
        as: first,
        body: { grace_period_seconds: 3600 },
      });
      expect(rotated.status).toBe(201);
      const second = credentialsOf(first, rotated);
      const statuses: number[] = [];
      for (const as of [first, second, first, second, first, second]) {
        statuses.push((await limited.raw('GET', '/balance', { as })).status);
      }
      // The rotation was the first call of the window: three more pass, whichever key is used.
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      // The other mode has its own window.
      expect((await limited.raw('GET', '/balance', { as: live })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('revoking by id', () => {
  const server = useTestServer();

  it("another account's key, or the other mode's, is not found (and stays working)", async () => {
    const victim = await server.newAccount('Victim');
    const attacker = await server.newAccount('Attacker');
    const victimKeys = await server.raw('GET', '/api-keys', { as: victim.test });
    const victimKeyId = victimKeys.body.data.items[0].id as string;
    const attack = await server.raw('POST', `/api-keys/${victimKeyId}/revoke`, { as: attacker.test });
    expect(attack.status).toBe(404);
    expect(attack.body.error.code).toBe('resource_not_found');
    const crossMode = await server.raw('POST', `/api-keys/${victimKeyId}/revoke`, { as: victim.live });
    expect(crossMode.status).toBe(404);
    expect((await server.raw('GET', '/balance', { as: victim.test })).status).toBe(200);
  });

  it('the last working key of a mode cannot be revoked, so no call locks the owner out', async () => {
    const { test } = await server.newAccount('Last key');
    const keys = await server.raw('GET', '/api-keys', { as: test });
    const id = keys.body.data.items[0].id as string;
    const refused = await server.raw('POST', `/api-keys/${id}/revoke`, { as: test });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('last_active_key');
    expect((await server.raw('GET', '/balance', { as: test })).status).toBe(200);
  });

  it('a key may revoke itself while another key works', async () => {
    const { test: first } = await server.newAccount('Self revoke');
    const rotated = await rotate(server, first, 3600);
    const second = credentialsOf(first, rotated);
    const own = await server.raw('POST', `/api-keys/${rotated.body.data.api_key.id}/revoke`, {
      as: second,
    });
    expect(own.status).toBe(200);
    expect((await server.raw('GET', '/balance', { as: second })).status).toBe(401);
    // The other key is in its grace period: it works, and the admin CLI is the way to a new key.
    expect((await server.raw('GET', '/balance', { as: first })).status).toBe(200);
  });
});

describe('the way back when every key is lost', () => {
  it('the admin CLI issues a new key even after the owner lost the answer of a rotation', async () => {
    const server = await startTestServer();
    try {
      const { test, account } = await server.newAccount('Lost rotation');
      // The rotation happens, but its answer is lost; the old key is retired at once.
      expect((await rotate(server, test, 0)).status).toBe(201);
      expect((await server.raw('GET', '/balance', { as: test })).status).toBe(401);

      // The admin CLI, in its own process, on the server's database.
      const key = await resetTestKeys(account.apiUser, server.databaseEnv);
      expect((await server.raw('GET', '/balance', { as: { apiUser: account.apiUser, key } })).status).toBe(
        200,
      );
    } finally {
      await server.close();
    }
  });
});
