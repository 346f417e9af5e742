/**
 * Restricted keys (docs/decisions/0030-key-roles.md), attacked from outside over HTTP on both
 * engines: a `collect` key (a till's, a checkout server's) that leaks must not pay out, refund,
 * top up, change webhooks or mint keys; a `read_only` key must not move anything; each refusal
 * names the permission it lacked; keys made before roles keep full access.
 */
import { describe, expect, it } from 'vitest';
import { collect, createService, fund, sandbox } from '../support/fixtures.js';
import { type Credentials, type TestServer, useTestServer } from '../support/server.js';

async function restrictedKey(server: TestServer, owner: Credentials, role: 'collect' | 'read_only') {
  const created = await server.raw('POST', '/api-keys', { as: owner, body: { role } });
  expect(created.status).toBe(201);
  expect(created.headers.get('cache-control')).toBe('no-store');
  return { created, key: { apiUser: owner.apiUser, key: created.body.data.secret_key as string } };
}

function expectDenied(
  reply: { status: number; body: { error: { code: string; message: string; details?: unknown } } },
  permission: string,
) {
  expect(reply.status).toBe(403);
  expect(reply.body.error.code).toBe('permission_denied');
  expect(reply.body.error.message).toContain(permission);
  expect(reply.body.error.details).toEqual([
    expect.objectContaining({ code: 'permission_denied', permission }),
  ]);
}

describe('a collect key', () => {
  const server = useTestServer();

  it('is created with its role and permissions, and listed with them', async () => {
    const { test: owner } = await server.newAccount('Collect created');
    const { created } = await restrictedKey(server, owner, 'collect');
    expect(created.body.data.api_key).toMatchObject({
      role: 'collect',
      permissions: ['read', 'payments:write'],
      status: 'active',
    });
    const listed = await server.raw('GET', '/api-keys', { as: owner });
    const roles = listed.body.data.items.map((k: { role: string }) => k.role).sort();
    expect(roles).toEqual(['collect', 'full']);
  });

  it('collects payments and reads them', async () => {
    const { test: owner } = await server.newAccount('Collect works');
    const serviceId = await createService(server, owner);
    const { key } = await restrictedKey(server, owner, 'collect');
    const paymentId = await collect(server, serviceId, 1500, sandbox.mtn.succeeds, key);
    const read = await server.raw('GET', `/payments/${paymentId}`, { as: key });
    expect(read.status).toBe(200);
    expect((await server.raw('GET', '/balance', { as: key })).status).toBe(200);
  });

  it('cannot pay out, refund, top up, change webhooks or services, nor manage keys', async () => {
    const { test: owner } = await server.newAccount('Collect refused');
    const serviceId = await createService(server, owner);
    await fund(server, 10_000, owner);
    const paymentId = await collect(server, serviceId, 2000, sandbox.mtn.succeeds, owner);
    await server.settle();
    const { key } = await restrictedKey(server, owner, 'collect');
    const payout = {
      amount: 1000,
      currency: 'XAF',
      recipient_msisdn: sandbox.mtn.succeeds,
      payout_type: 'withdrawal',
    };
    const topup = {
      amount: 500,
      currency: 'XAF',
      payer_msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo',
    };
    const refused: Array<[method: string, path: string, body: object | undefined, permission: string]> = [
      ['POST', '/payouts', payout, 'payouts:write'],
      ['POST', '/payouts/bulk', { currency: 'XAF', items: [payout] }, 'payouts:write'],
      ['POST', '/refunds', { payment_id: paymentId }, 'refunds:write'],
      ['POST', '/topups', topup, 'topups:write'],
      ['POST', '/webhook-endpoints', { url: 'https://example.com/hook' }, 'webhooks:write'],
      ['POST', '/services', { name: 'Mine' }, 'services:write'],
      ['POST', '/api-keys', { role: 'full' }, 'keys:manage'],
      ['POST', '/api-keys/rotate', {}, 'keys:manage'],
      ['GET', '/api-keys', undefined, 'keys:manage'],
    ];
    for (const [method, path, body, permission] of refused) {
      expectDenied(await server.raw(method, path, { as: key, ...(body ? { body } : {}) }), permission);
    }
    // Nothing moved: the owner's balance is what the top-up and the payment left.
    const balance = await server.raw('GET', '/balance', { as: owner });
    expect(balance.body.data.balances[0].available).toBe(12_000);
  });
});

describe('a read_only key', () => {
  const server = useTestServer();

  it('reads, and every write is refused naming its permission', async () => {
    const { test: owner } = await server.newAccount('Read only');
    const serviceId = await createService(server, owner);
    const { created, key } = await restrictedKey(server, owner, 'read_only');
    expect(created.body.data.api_key.permissions).toEqual(['read']);
    expect((await server.raw('GET', '/payments', { as: key })).status).toBe(200);
    expect((await server.raw('GET', '/logs', { as: key })).status).toBe(200);
    const payment = {
      amount: 1000,
      currency: 'XAF',
      customer_msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo',
      service_id: serviceId,
    };
    expectDenied(await server.raw('POST', '/payments', { as: key, body: payment }), 'payments:write');
    expectDenied(await server.raw('DELETE', `/services/${serviceId}`, { as: key }), 'services:write');
  });

  it('is refused before its body is read: a malformed body still gets 403, not 400', async () => {
    const { test: owner } = await server.newAccount('Read only body');
    const { key } = await restrictedKey(server, owner, 'read_only');
    const reply = await server.raw('POST', '/payouts', { as: key, body: { nonsense: true } });
    expectDenied(reply, 'payouts:write');
  });
});

describe('full keys', () => {
  const server = useTestServer();

  it('keys made before roles, and the first start, are full and keep every permission', async () => {
    const listed = await server.raw('GET', '/api-keys');
    expect(listed.body.data.items[0]).toMatchObject({ role: 'full' });
    expect(listed.body.data.items[0].permissions).toContain('payouts:write');
  });

  it('the owner revokes a restricted key by id, and it answers with its role', async () => {
    const { test: owner } = await server.newAccount('Rotation keeps role');
    const { created } = await restrictedKey(server, owner, 'collect');
    const id = created.body.data.api_key.id as string;
    const revoked = await server.raw('POST', `/api-keys/${id}/revoke`, { as: owner });
    expect(revoked.body.data).toMatchObject({ role: 'collect', status: 'revoked' });
  });

  it('refuses an unknown role', async () => {
    const reply = await server.raw('POST', '/api-keys', { body: { role: 'admin' } });
    expect(reply.status).toBe(400);
  });
});
