import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server.js';

const server = useTestServer();

describe('authentication', () => {
  it('the key decides the mode: the same account sees its test and live data apart', async () => {
    const test = await server.raw('GET', '/balance');
    const live = await server.raw('GET', '/balance', { as: server.live });
    expect(test.body.data.mode).toBe('test');
    expect(live.body.data.mode).toBe('live');
    expect(live.body.data.wallet_id).not.toBe(test.body.data.wallet_id);
  });

  it('test=true is accepted with a test key and refused with a live key', async () => {
    const ok = await server.raw('GET', '/balance', { query: { test: true } });
    expect(ok.status).toBe(200);
    const refused = await server.raw('GET', '/balance', { as: server.live, query: { test: true } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'live_key_in_test_mode', param: 'test' });
  });

  it('test=true is found however the query spells it', async () => {
    const answer = async (target: string) => {
      const response = await server.raw('GET', target, { as: server.live });
      return { status: response.status, code: response.body.error?.code };
    };
    const refused = { status: 400, code: 'live_key_in_test_mode' };
    expect(await answer('/balance?t%65st=tru%65')).toEqual(refused);
    expect(await answer('/payments?limit=1&test=true')).toEqual(refused);
    expect(await answer('/payments?limit=1')).toEqual({ status: 200, code: undefined });
    expect(await answer('/balance')).toEqual({ status: 200, code: undefined });
  });

  it('a key that is not a bearer token, or a Basic header, is 401 invalid_api_key', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', server.test.key, 'Bearer ']) {
      const response = await server.raw('GET', '/balance', { headers: { authorization } });
      expect(response.status, authorization).toBe(401);
      expect(['invalid_api_key', 'missing_api_key']).toContain(response.body.error.code);
    }
  });

  it('the error body never contains the key that was sent', async () => {
    const wrong = `sk_test_${'A'.repeat(32)}`;
    const response = await server.raw('GET', '/balance', {
      headers: { authorization: `Bearer ${wrong}` },
    });
    expect(response.status).toBe(401);
    expect(response.text).not.toContain(wrong);
  });
});

describe('POST /api-keys/rotate', () => {
  it('without a grace period: the new key works and the old one is dead at once', async () => {
    const fresh = await server.newAccount('Rotate now');
    const response = await server.raw('POST', '/api-keys/rotate', { as: fresh.test });
    expect(response.status).toBe(201);
    const { secret_key, api_key, previous_key } = response.body.data;
    expect(secret_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(api_key).toMatchObject({ status: 'active', mode: 'test', last4: secret_key.slice(-4) });
    expect(previous_key.status).toBe('revoked');
    const old = await server.raw('GET', '/balance', { as: fresh.test });
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('invalid_api_key');
    const current = await server.raw('GET', '/balance', {
      as: { apiUser: fresh.test.apiUser, key: secret_key },
    });
    expect(current.status).toBe(200);
    const live = await server.raw('GET', '/balance', { as: fresh.live });
    expect(live.status).toBe(200);
  });

  it('with a grace period: both keys work until it ends, then only the new one', async () => {
    const fresh = await server.newAccount('Rotate later');
    const response = await server.raw('POST', '/api-keys/rotate', {
      as: fresh.test,
      body: { grace_period_seconds: 3600 },
    });
    const next = { apiUser: fresh.test.apiUser, key: response.body.data.secret_key as string };
    expect(response.body.data.previous_key.status).toBe('expiring');
    expect((await server.raw('GET', '/balance', { as: fresh.test })).status).toBe(200);
    expect((await server.raw('GET', '/balance', { as: next })).status).toBe(200);
    const keys = await server.raw('GET', '/api-keys', { as: next });
    expect(keys.body.data.items.map((k: { status: string }) => k.status)).toEqual(['active', 'expiring']);
    server.clock.advance(3600 * 1000);
    expect((await server.raw('GET', '/balance', { as: fresh.test })).status).toBe(401);
    expect((await server.raw('GET', '/balance', { as: next })).status).toBe(200);
  });

  it('a key in its grace period cannot rotate again, so it never extends itself', async () => {
    const fresh = await server.newAccount('Rotate twice');
    await server.raw('POST', '/api-keys/rotate', { as: fresh.test, body: { grace_period_seconds: 60 } });
    // The old key, still in its grace period, tries to rotate again asking for a week.
    const again = await server.raw('POST', '/api-keys/rotate', {
      as: fresh.test,
      body: { grace_period_seconds: 604800 },
    });
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe('key_not_active');
    server.clock.advance(61_000);
    expect((await server.raw('GET', '/balance', { as: fresh.test })).status).toBe(401);
  });

  it('a test key rotates only the test key', async () => {
    const fresh = await server.newAccount('Modes');
    const response = await server.raw('POST', '/api-keys/rotate', { as: fresh.test });
    expect(response.body.data.api_key.mode).toBe('test');
    expect((await server.raw('GET', '/balance', { as: fresh.live })).status).toBe(200);
  });
});
