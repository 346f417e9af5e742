/**
 * A body is never silently ignored, every problem of a request is reported, parameters are
 * named as the contract spells them, and text that is not valid Unicode is refused rather than
 * stored altered.
 */
import { describe, expect, it } from 'vitest';
import { sandbox } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';
import { schemaErrors, spec } from '../support/spec.js';

const server = useTestServer();

const errorSchema = spec.components.schemas.ErrorResponse;

/** A body sent without `Content-Type` (as `fetch` does for a Blob, or a hurried script). */
async function postUntyped(path: string, body: string, as = server.test) {
  return server.raw('POST', path, { as, rawBody: new Blob([body]) });
}

describe('a body is never silently ignored', () => {
  it('a rotation whose body is not JSON-typed is 415, and the old key keeps working', async () => {
    const { test } = await server.newAccount('Rotating account');
    for (const send of [
      () => postUntyped('/api-keys/rotate', '{"grace_period_seconds":3600}', test),
      () =>
        server.raw('POST', '/api-keys/rotate', {
          as: test,
          rawBody: 'grace_period_seconds=3600',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
    ]) {
      const response = await send();
      expect(response.status).toBe(415);
      expect(response.body.error.code).toBe('unsupported_media_type');
    }
    // Nothing rotated: the key that made the calls is still the one key, active, with no end.
    const keys = await server.raw('GET', '/api-keys', { as: test });
    expect(keys.status).toBe(200);
    expect(keys.body.data.items).toEqual([
      expect.objectContaining({ last4: test.key.slice(-4), status: 'active', expires_at: null }),
    ]);
  });

  it('a resend whose body is not JSON-typed is 415, not a resend to every endpoint', async () => {
    const response = await postUntyped(
      '/events/evt_000000000000000000000000/resend',
      '{"endpoint_id":"we_000000000000000000000000"}',
    );
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('unsupported_media_type');
  });

  it('an optional body sent as JSON still works', async () => {
    const { test } = await server.newAccount('Grace account');
    const response = await server.raw('POST', '/api-keys/rotate', {
      as: test,
      body: { grace_period_seconds: 3600 },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.previous_key.status).toBe('expiring');
    expect((await server.raw('GET', '/balance', { as: test })).status).toBe(200);
  });
});

describe('every problem is reported', () => {
  it('a payout breaking three rules lists each one in details, with its code', async () => {
    const response = await server.raw('POST', '/payouts', {
      body: { amount: 0, currency: 'ZZZ', recipient_msisdn: 'not-a-number', payout_type: 'transfer' },
    });
    expect(response.status).toBe(400);
    expect(schemaErrors(errorSchema, response.body)).toEqual([]);
    const { error } = response.body;
    expect(error).toMatchObject({ code: 'invalid_amount', param: 'amount' });
    expect(error.details).toEqual(
      expect.arrayContaining([
        { param: 'amount', code: 'invalid_amount', message: expect.any(String) },
        { param: 'currency', code: 'invalid_field', message: expect.any(String) },
        { param: 'recipient_msisdn', code: 'invalid_msisdn', message: expect.any(String) },
      ]),
    );
    expect(error.details).toHaveLength(3);
  });

  it('a bulk payout reports the problem of every item', async () => {
    const response = await server.raw('POST', '/payouts/bulk', {
      body: {
        currency: 'XAF',
        items: [
          { amount: -5, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'transfer' },
          { amount: 100, payout_type: 'transfer' },
          { amount: 100, recipient_msisdn: 'x', payout_type: 'withdrawal' },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(schemaErrors(errorSchema, response.body)).toEqual([]);
    const params = response.body.error.details.map(
      (d: { param: string; code: string }) => `${d.param} ${d.code}`,
    );
    expect(params.sort()).toEqual(
      [
        'items[0].amount invalid_amount',
        'items[1].recipient_msisdn invalid_recipient',
        'items[2].recipient_msisdn invalid_msisdn',
      ].sort(),
    );
  });

  it('error.param names a header as the contract spells it: Idempotency-Key', async () => {
    const response = await server.raw('POST', '/services', {
      body: { name: 'Shop', type: 'website' },
      headers: { 'idempotency-key': 'has spaces in it' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_parameter', param: 'Idempotency-Key' });
    expect(response.body.error.message).toContain('Idempotency-Key');
    // The spelling is the contract's own.
    expect(spec.components.parameters.IdempotencyKey.name).toBe(response.body.error.param);
  });
});

describe('text is valid Unicode or refused', () => {
  it('a lone UTF-16 surrogate in a string is 400 invalid_field and nothing is stored', async () => {
    const { test } = await server.newAccount('Unicode account');
    for (const [name, param] of [
      ['"Shop \\ud800"', 'name'],
      ['"Shop \\udfff end"', 'name'],
    ] as const) {
      const response = await server.raw('POST', '/services', {
        as: test,
        rawBody: `{"name":${name},"type":"website"}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_field', param });
    }
    const nested = await server.raw('POST', '/services', {
      as: test,
      rawBody: '{"name":"Shop","type":"website","description":"caf\\ud83d"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(nested.body.error).toMatchObject({ code: 'invalid_field', param: 'description' });
    const listed = await server.raw('GET', '/services', { as: test });
    expect(listed.body.data.items).toEqual([]);
  });

  it('a proper surrogate pair (an emoji) is stored exactly', async () => {
    const response = await server.raw('POST', '/services', {
      rawBody: '{"name":"Shop \\ud83d\\ude00","type":"website"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(201);
    const read = await server.raw('GET', `/services/${response.body.data.service_id}`);
    expect(read.body.data.name).toBe('Shop 😀');
  });
});
