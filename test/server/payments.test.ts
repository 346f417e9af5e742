import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balanceOf, collect, createService, sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let serviceId: string;

// A server (and service) per test: a test's balance and settlement never include payments an
// earlier test left pending, whatever the order.
beforeEach(async () => {
  server = await startTestServer();
  serviceId = await createService(server);
});
afterEach(() => server.close());

const body = (overrides: Record<string, unknown> = {}) => ({
  amount: 2500,
  currency: 'XAF',
  customer_msisdn: sandbox.mtn.succeeds,
  payment_method: 'mtn_momo',
  service_id: serviceId,
  ...overrides,
});

describe('POST /payments', () => {
  it('answers 202 with the payment initiated, and credits nothing yet', async () => {
    const before = await balanceOf(server);
    const response = await server.raw('POST', '/payments', { body: body({ reference: 'order-1' }) });
    expect(response.status).toBe(202);
    expect(response.body.status).toBe('success');
    expect(response.body.data).toMatchObject({
      status: 'initiated',
      flow: 'direct',
      amount: 2500,
      currency: 'XAF',
      reference: 'order-1',
      mode: 'test',
      completed_at: null,
    });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await balanceOf(server)).toBe(before);
  });

  it('when the customer approves > ends success, credits the Main Balance and records payment.completed', async () => {
    await server.settle(); // earlier tests' payments settle first
    const before = await balanceOf(server);
    const id = await collect(server, serviceId, 1200);
    await server.settle();
    const payment = await server.raw('GET', `/payments/${id}`);
    expect(payment.body.data).toMatchObject({ status: 'success', failure_code: null });
    expect(payment.body.data.completed_at).not.toBeNull();
    expect(await balanceOf(server)).toBe(before + 1200);
    const events = await server.raw('GET', '/events', { query: { transaction_id: id } });
    expect(events.body.data.items.map((e: { event: string }) => e.event)).toEqual(['payment.completed']);
    expect(events.body.data.items[0].data).toEqual({
      transaction_id: id,
      amount: 1200,
      currency: 'XAF',
      status: 'success',
      reference: null,
      metadata: {},
      failure_code: null,
      service_id: serviceId,
      payment_id: null,
    });
  });

  it('with a number ending in 1 > ends failed with payer_declined and credits nothing', async () => {
    const before = await balanceOf(server);
    const id = await collect(server, serviceId, 700, sandbox.mtn.fails);
    await server.settle();
    const payment = await server.raw('GET', `/payments/${id}`);
    expect(payment.body.data).toMatchObject({ status: 'failed', failure_code: 'payer_declined' });
    expect(await balanceOf(server)).toBe(before);
    const events = await server.raw('GET', '/events', { query: { transaction_id: id } });
    expect(events.body.data.items.map((e: { event: string }) => e.event)).toEqual(['payment.failed']);
  });

  it('with a number ending in 4 > stays initiated, then ends expired at expires_at', async () => {
    const id = await collect(server, serviceId, 900, sandbox.mtn.neverSettles);
    await server.settle(5_000);
    expect((await server.raw('GET', `/payments/${id}`)).body.data.status).toBe('initiated');
    await server.settle(300_000);
    const payment = await server.raw('GET', `/payments/${id}`);
    expect(payment.body.data.status).toBe('expired');
    const events = await server.raw('GET', '/events', { query: { transaction_id: id } });
    expect(events.body.data.items.map((e: { event: string }) => e.event)).toEqual(['payment.expired']);
  });

  it('is the same operation as POST /payments/direct', async () => {
    const response = await server.raw('POST', '/payments/direct', { body: body() });
    expect(response.status).toBe(202);
    expect(response.body.data.flow).toBe('direct');
  });

  it('naming an unknown service > 422 service_not_found', async () => {
    const response = await server.raw('POST', '/payments', {
      body: body({ service_id: 'svc_000000000000000000000000' }),
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'service_not_found', param: 'service_id' });
    expect(response.body.error.message, 'says how to get one').toContain('POST /services');
  });

  it('without a service_id > 400 missing_field, saying a service comes first (POST /services)', async () => {
    const { service_id: _none, ...withoutService } = body();
    for (const path of ['/payments', '/payments/initiate']) {
      const response = await server.raw('POST', path, { body: withoutService });
      expect(response.status, path).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'missing_field', param: 'service_id' });
      expect(response.body.error.message).toContain('POST /services');
    }
  });

  it('naming an inactive or deleted service > 422 service_inactive', async () => {
    const inactive = await createService(server, server.test, 'Paused');
    await server.raw('PUT', `/services/${inactive}`, { body: { status: 'inactive' } });
    const deleted = await createService(server, server.test, 'Gone');
    await server.raw('DELETE', `/services/${deleted}`);
    for (const id of [inactive, deleted]) {
      const response = await server.raw('POST', '/payments', { body: body({ service_id: id }) });
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('service_inactive');
    }
  });

  it('the specification, rule 2 > a missing required field is 400 missing_field naming it', async () => {
    const { customer_msisdn: _, ...rest } = body();
    const response = await server.raw('POST', '/payments', { body: rest });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'missing_field', param: 'customer_msisdn' });
  });

  it('a POST with no body at all is 400 missing_field, not a media type error', async () => {
    const response = await server.raw('POST', '/payments');
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'missing_field',
      message: 'A JSON request body is required.',
    });
  });

  it('an unknown query parameter is named in the message', async () => {
    const response = await server.raw('GET', '/payments', { query: { colour: 'blue' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'invalid_parameter',
      param: 'colour',
      message: 'The query parameter colour is not accepted here.',
    });
  });

  it('the specification, rule 3 > an amount of 0 or less is invalid_amount: "must be greater than 0"', async () => {
    for (const amount of [0, -1]) {
      const response = await server.raw('POST', '/payments', { body: body({ amount }) });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_amount');
      expect(response.body.error.message).toMatch(/amount must be greater than 0/);
    }
  });

  it('a fractional amount is invalid_amount: money is an integer of minor units', async () => {
    const response = await server.raw('POST', '/payments', { body: body({ amount: 10.5 }) });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_amount');
  });
});

describe('POST /payments/initiate (hosted checkout)', () => {
  it('answers 202 with a checkout link, no payer yet, expiring as asked', async () => {
    const response = await server.raw('POST', '/payments/initiate', {
      body: { amount: 3000, currency: 'XAF', service_id: serviceId, expires_in_seconds: 600 },
    });
    expect(response.status).toBe(202);
    const payment = response.body.data;
    expect(payment).toMatchObject({
      flow: 'hosted',
      status: 'initiated',
      customer_msisdn: null,
      payment_method: null,
    });
    expect(payment.checkout_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/cs_[0-9A-Za-z]{32}$/);
    expect(Date.parse(payment.expires_at) - Date.parse(payment.created_at)).toBe(600_000);
  });

  it('an unpaid link ends expired at expires_at', async () => {
    const response = await server.raw('POST', '/payments/initiate', {
      body: { amount: 3000, currency: 'XAF', service_id: serviceId, expires_in_seconds: 60 },
    });
    await server.settle(61_000);
    const payment = await server.raw('GET', `/payments/${response.body.data.transaction_id}`);
    expect(payment.body.data.status).toBe('expired');
  });
});

describe('GET /payments', () => {
  it('lists newest first, filters by status and pages with a cursor until has_more is false', async () => {
    const fresh = await server.newAccount('Lister');
    const service = await createService(server, fresh.test);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await collect(server, service, 100 + i, sandbox.mtn.succeeds, fresh.test));
    await collect(server, service, 50, sandbox.mtn.fails, fresh.test);
    await server.settle();

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const query: Record<string, string | number> = { limit: 2, status: 'success' };
      if (cursor) query.cursor = cursor;
      const response = await server.raw('GET', '/payments', { as: fresh.test, query });
      expect(response.status).toBe(200);
      seen.push(...response.body.data.items.map((p: { transaction_id: string }) => p.transaction_id));
      if (!response.body.data.has_more) {
        expect(response.body.data.next_cursor).toBeNull();
        break;
      }
      cursor = response.body.data.next_cursor;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('a cursor this API never returned is 400 invalid_parameter', async () => {
    const response = await server.raw('GET', '/payments', { query: { cursor: 'bm90LWEtY3Vyc29y' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_parameter', param: 'cursor' });
  });
});

describe('date filters', () => {
  it('an impossible date is 400 invalid_parameter, not an empty page or another day', async () => {
    for (const created_lt of ['2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-11-20T25:00:00Z']) {
      const response = await server.raw('GET', '/payments', { query: { created_lt } });
      expect(response.status, created_lt).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_parameter', param: 'created_lt' });
    }
  });
});
