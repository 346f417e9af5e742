/**
 * The merchant's own references (docs/decisions/0040-metadata-and-reference-filters.md):
 * `metadata` on payments, payouts (refunds, bank and bulk payouts included) and top-ups, given at
 * creation and returned by every response and event about them, within Stripe's limits; and the
 * lists filtered by the merchant's `reference`, within the caller's own account.
 */
import { describe, expect, it } from 'vitest';
import type { Metadata } from '../../generated/openapi.js';
import { useWebhookRig } from '../security/webhooks-support.js';
import { ok } from '../support/api.js';
import { allRows } from '../support/database.js';
import { expectApiError } from '../support/error-envelope.js';
import { collect, createService, fund, sandbox, sandboxBank } from '../support/fixtures.js';
import { type Credentials, type TestServer, useTestServer } from '../support/server.js';

const server = useTestServer({ RATE_LIMIT_PER_WINDOW: '1000000' });

const metadata: Metadata = { cart_id: 'cart-5531', customer: 'cus-0042' };

function payment(serviceId: string, extra: Record<string, unknown> = {}) {
  return {
    amount: 2500,
    currency: 'XAF' as const,
    customer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo' as const,
    service_id: serviceId,
    ...extra,
  };
}

/** A successful payment of `as`, with `reference`, to refund. */
async function paidPayment(on: TestServer, as: Credentials, reference?: string) {
  const serviceId = await createService(on, as);
  const paid = ok(await on.apiAs(as).POST('/payments', { body: payment(serviceId, { reference }) })).data;
  await on.settle();
  return paid.transaction_id;
}

describe('metadata is kept from the create to every read', () => {
  it('a payment: in its answer, its GET and its list item', async () => {
    const serviceId = await createService(server);
    const created = ok(await server.api.POST('/payments', { body: payment(serviceId, { metadata }) })).data;
    expect(created.metadata).toEqual(metadata);
    const id = created.transaction_id;
    const read = ok(await server.api.GET('/payments/{id}', { params: { path: { id } } })).data;
    expect(read.metadata).toEqual(metadata);
    const listed = ok(await server.api.GET('/payments', {})).data.items.find((p) => p.transaction_id === id);
    expect(listed?.metadata).toEqual(metadata);
  });

  it('a hosted payment', async () => {
    const serviceId = await createService(server);
    const body = {
      amount: 2500,
      currency: 'XAF' as const,
      service_id: serviceId,
      expires_in_seconds: 1800,
      metadata,
    };
    const created = ok(await server.api.POST('/payments/initiate', { body })).data;
    expect(created.metadata).toEqual(metadata);
    const id = created.transaction_id;
    expect(ok(await server.api.GET('/payments/{id}', { params: { path: { id } } })).data.metadata).toEqual(
      metadata,
    );
  });

  it('a payout: in its answer, its GET and its list item', async () => {
    await fund(server, 10_000);
    const body = {
      amount: 1000,
      recipient_msisdn: sandbox.mtn.succeeds,
      payout_type: 'withdrawal' as const,
      metadata,
    };
    const created = ok(await server.api.POST('/payouts', { body })).data;
    expect(created.metadata).toEqual(metadata);
    const id = created.transaction_id;
    expect(ok(await server.api.GET('/payouts/{id}', { params: { path: { id } } })).data.metadata).toEqual(
      metadata,
    );
    const listed = ok(await server.api.GET('/payouts', {})).data.items.find((p) => p.transaction_id === id);
    expect(listed?.metadata).toEqual(metadata);
  });

  it('a bank payout, and each item of a bulk payout its own', async () => {
    await fund(server, 10_000);
    const bank = {
      amount: 1000,
      recipient_bank_account: { iban: sandboxBank.succeeds, holder_name: 'Awa Ngono' },
      payout_type: 'withdrawal' as const,
      metadata,
    };
    expect(ok(await server.api.POST('/payouts', { body: bank })).data.metadata).toEqual(metadata);
    const items = [
      { amount: 500, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' as const, metadata },
      { amount: 500, recipient_msisdn: sandbox.orange.succeeds, payout_type: 'withdrawal' as const },
    ];
    const bulk = ok(await server.api.POST('/payouts/bulk', { body: { items } })).data;
    expect(bulk.items.map((p) => p.metadata)).toEqual([metadata, {}]);
  });

  it('a refund: in its answer, and in its GET as a payout', async () => {
    const paymentId = await paidPayment(server, server.test);
    const created = ok(await server.api.POST('/refunds', { body: { payment_id: paymentId, metadata } })).data;
    expect(created.metadata).toEqual(metadata);
    const id = created.transaction_id;
    expect(ok(await server.api.GET('/payouts/{id}', { params: { path: { id } } })).data.metadata).toEqual(
      metadata,
    );
  });

  it('a top-up: in its answer, its GET and its list item', async () => {
    const body = {
      amount: 5000,
      currency: 'XAF' as const,
      payer_msisdn: sandbox.orange.succeeds,
      payment_method: 'orange_money' as const,
      metadata,
    };
    const created = ok(await server.api.POST('/topups', { body })).data;
    expect(created.metadata).toEqual(metadata);
    const id = created.transaction_id;
    expect(ok(await server.api.GET('/topups/{id}', { params: { path: { id } } })).data.metadata).toEqual(
      metadata,
    );
    const listed = ok(await server.api.GET('/topups', {})).data.items.find((t) => t.transaction_id === id);
    expect(listed?.metadata).toEqual(metadata);
  });

  it('an object created without metadata, or with {}, answers {}', async () => {
    const serviceId = await createService(server);
    const without = ok(await server.api.POST('/payments', { body: payment(serviceId) })).data;
    const empty = ok(await server.api.POST('/payments', { body: payment(serviceId, { metadata: {} }) })).data;
    expect([without.metadata, empty.metadata]).toEqual([{}, {}]);
  });

  it('values are the merchant’s own text: a newline under a key named description is kept', async () => {
    const serviceId = await createService(server);
    const own = { description: 'Two lines\nof text', reference: 'tab\there' };
    const created = ok(
      await server.api.POST('/payments', { body: payment(serviceId, { metadata: own }) }),
    ).data;
    expect(created.metadata).toEqual(own);
  });
});

describe('metadata keys are only keys', () => {
  it('a key named __proto__ or constructor is kept as sent, and gives nothing a prototype', async () => {
    const serviceId = await createService(server);
    const body = JSON.stringify(payment(serviceId)).replace(
      /}$/,
      ',"metadata":{"__proto__":{"polluted":"yes"},"constructor":"x"}}',
    );
    const response = await server.raw('POST', '/payments', {
      rawBody: body,
      headers: { 'content-type': 'application/json' },
    });
    // A nested object is not a string: refused like any other, and nothing polluted on the way.
    expectApiError(response, 400, 'invalid_field');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const flat = JSON.stringify(payment(serviceId)).replace(
      /}$/,
      ',"metadata":{"__proto__":"p","constructor":"x"}}',
    );
    const kept = await server.raw('POST', '/payments', {
      rawBody: flat,
      headers: { 'content-type': 'application/json' },
    });
    expect(kept.status).toBe(202);
    const id = kept.body.data.transaction_id as string;
    const read = await server.raw('GET', `/payments/${id}`);
    expect(read.text).toContain('"metadata":{"__proto__":"p","constructor":"x"}');
  });
});

describe('metadata and idempotency', () => {
  it('a replay answers the same metadata; the same key with other metadata is idempotency_key_reused', async () => {
    const serviceId = await createService(server);
    const header = { 'Idempotency-Key': `metadata-${serviceId}` };
    const first = ok(
      await server.api.POST('/payments', { body: payment(serviceId, { metadata }), params: { header } }),
    ).data;
    const again = await server.api.POST('/payments', {
      body: payment(serviceId, { metadata }),
      params: { header },
    });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(ok(again).data).toEqual(first);
    const other = await server.raw('POST', '/payments', {
      body: payment(serviceId, { metadata: { ...metadata, cart_id: 'cart-9999' } }),
      headers: { 'idempotency-key': header['Idempotency-Key'] },
    });
    expectApiError(other, 409, 'idempotency_key_reused');
  });
});

describe('metadata past its limits is refused with 400 invalid_field, and nothing is written', () => {
  const writtenByEveryRequest = ['call_logs', 'rate_limit_windows'];

  /** POSTs a payment with `bad` as its metadata; answers the refusal after checking nothing changed. */
  async function refused(bad: unknown) {
    const serviceId = await createService(server);
    const before = await allRows(server, writtenByEveryRequest);
    const response = await server.raw('POST', '/payments', { body: payment(serviceId, { metadata: bad }) });
    expectApiError(response, 400, 'invalid_field');
    expect(await allRows(server, writtenByEveryRequest)).toEqual(before);
    return response.body.error as { param: string; message: string };
  }

  const keys = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`key_${i}`, 'v']));

  it('at most 50 keys: 50 are kept, 51 are refused naming metadata', async () => {
    const serviceId = await createService(server);
    const fifty = ok(
      await server.api.POST('/payments', { body: payment(serviceId, { metadata: keys(50) }) }),
    ).data;
    expect(Object.keys(fifty.metadata)).toHaveLength(50);
    const error = await refused(keys(51));
    expect(error.param).toBe('metadata');
  });

  it('keys of at most 40 characters: 40 is kept, 41 is refused naming metadata', async () => {
    const serviceId = await createService(server);
    const forty = { ['k'.repeat(40)]: 'v' };
    const kept = ok(
      await server.api.POST('/payments', { body: payment(serviceId, { metadata: forty }) }),
    ).data;
    expect(kept.metadata).toEqual(forty);
    const error = await refused({ ['k'.repeat(41)]: 'v' });
    expect(error).toMatchObject({ param: 'metadata', message: expect.stringContaining('40 characters') });
  });

  it('values of at most 500 characters: 500 is kept, 501 is refused naming the key', async () => {
    const serviceId = await createService(server);
    const long = { note: 'é'.repeat(500) };
    const kept = ok(
      await server.api.POST('/payments', { body: payment(serviceId, { metadata: long }) }),
    ).data;
    expect(kept.metadata).toEqual(long);
    const error = await refused({ note: 'x'.repeat(501) });
    expect(error.param).toBe('metadata.note');
  });

  it('values are strings only: a number, a boolean, a null or a nested object is refused', async () => {
    for (const value of [3, true, null, { nested: 'no' }, ['a']]) {
      const error = await refused({ quantity: value });
      expect(error.param).toBe('metadata.quantity');
    }
  });

  it('metadata is an object: a string or an array is refused', async () => {
    for (const bad of ['cart-5531', ['cart-5531']]) expect((await refused(bad)).param).toBe('metadata');
  });

  it('the limits hold on every create: a payout, a refund and a top-up past one are refused', async () => {
    await fund(server, 10_000);
    const paymentId = await paidPayment(server, server.test);
    const tooLong = { note: 'x'.repeat(501) };
    const before = await allRows(server, writtenByEveryRequest);
    const bodies: Array<[string, Record<string, unknown>]> = [
      ['/payouts', { amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' }],
      ['/refunds', { payment_id: paymentId }],
      [
        '/topups',
        { amount: 100, payer_msisdn: sandbox.mtn.succeeds, payment_method: 'mtn_momo', currency: 'XAF' },
      ],
    ];
    for (const [path, body] of bodies) {
      const response = await server.raw('POST', path, { body: { ...body, metadata: tooLong } });
      expectApiError(response, 400, 'invalid_field');
      expect(response.body.error.param).toBe('metadata.note');
    }
    expect(await allRows(server, writtenByEveryRequest)).toEqual(before);
  });
});

describe('?reference= lists exactly the objects with that reference, in the caller’s account', () => {
  it('payments', async () => {
    const stranger = await server.newAccount('Reference stranger');
    const reference = `order-${Date.now()}`;
    const serviceId = await createService(server);
    const mine = [];
    for (const ref of [reference, `${reference}-2`, reference, undefined]) {
      mine.push(
        ok(await server.api.POST('/payments', { body: payment(serviceId, { reference: ref }) })).data,
      );
    }
    const theirService = await createService(server, stranger.test);
    await server.apiAs(stranger.test).POST('/payments', { body: payment(theirService, { reference }) });
    const page = ok(await server.api.GET('/payments', { params: { query: { reference } } })).data;
    expect(page.items.map((p) => p.transaction_id)).toEqual([
      mine[2]?.transaction_id,
      mine[0]?.transaction_id,
    ]);
  });

  it('payouts, refunds among them', async () => {
    const stranger = await server.newAccount('Payout stranger');
    const reference = `payroll-${Date.now()}`;
    await fund(server, 10_000);
    await fund(server, 10_000, stranger.test);
    const body = { amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' as const };
    const payout = ok(await server.api.POST('/payouts', { body: { ...body, reference } })).data;
    await server.api.POST('/payouts', { body: { ...body, reference: `${reference}-2` } });
    const paymentId = await paidPayment(server, server.test);
    const refund = ok(await server.api.POST('/refunds', { body: { payment_id: paymentId, reference } })).data;
    await server.apiAs(stranger.test).POST('/payouts', { body: { ...body, reference } });
    const page = ok(await server.api.GET('/payouts', { params: { query: { reference } } })).data;
    expect(page.items.map((p) => p.transaction_id)).toEqual([refund.transaction_id, payout.transaction_id]);
    const refunds = ok(
      await server.api.GET('/payouts', { params: { query: { reference, payout_type: 'refund' } } }),
    ).data;
    expect(refunds.items.map((p) => p.transaction_id)).toEqual([refund.transaction_id]);
  });

  it('top-ups', async () => {
    const stranger = await server.newAccount('Top-up stranger');
    const reference = `float-${Date.now()}`;
    const body = {
      amount: 100,
      currency: 'XAF' as const,
      payer_msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo' as const,
    };
    const topup = ok(await server.api.POST('/topups', { body: { ...body, reference } })).data;
    await server.api.POST('/topups', { body: { ...body, reference: reference.toUpperCase() } });
    await server.apiAs(stranger.test).POST('/topups', { body: { ...body, reference } });
    const page = ok(await server.api.GET('/topups', { params: { query: { reference } } })).data;
    expect(page.items.map((t) => t.transaction_id)).toEqual([topup.transaction_id]);
  });

  it('pages through the matches with the cursor', async () => {
    const reference = `paged-${Date.now()}`;
    const serviceId = await createService(server);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await collect(server, serviceId, 100 + i));
    for (let i = 0; i < 3; i++) {
      const created = ok(
        await server.api.POST('/payments', { body: payment(serviceId, { reference }) }),
      ).data;
      ids.push(created.transaction_id);
    }
    const first = ok(await server.api.GET('/payments', { params: { query: { reference, limit: 2 } } })).data;
    expect(first.has_more).toBe(true);
    const cursor = first.next_cursor as string;
    const second = ok(
      await server.api.GET('/payments', { params: { query: { reference, limit: 2, cursor } } }),
    ).data;
    expect([...first.items, ...second.items].map((p) => p.transaction_id)).toEqual(ids.slice(3).reverse());
    expect(second.has_more).toBe(false);
  });
});

describe('metadata in webhook events', () => {
  const rig = useWebhookRig({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });

  it('the event a payment, a refund and a top-up end with carries their metadata', async () => {
    const on = await rig.server();
    const receiver = await rig.receiver();
    ok(await on.api.POST('/webhook-endpoints', { body: { url: receiver.url } }));
    const serviceId = await createService(on);
    const paid = ok(await on.api.POST('/payments', { body: payment(serviceId, { metadata }) })).data;
    const topup = {
      amount: 100,
      currency: 'XAF' as const,
      payer_msisdn: sandbox.mtn.alsoSucceeds,
      payment_method: 'mtn_momo' as const,
      metadata: { float: 'november' },
    };
    const funded = ok(await on.api.POST('/topups', { body: topup })).data;
    await on.settle();
    const refund = ok(
      await on.api.POST('/refunds', {
        body: { payment_id: paid.transaction_id, metadata: { ticket: 'T-77' } },
      }),
    ).data;
    await on.settle();
    await on.deliverWebhooks();
    const received = receiver.hits.map((hit) => JSON.parse(hit.body));
    const dataOf = (event: string, id: string) =>
      received.find((e) => e.event === event && e.data.transaction_id === id)?.data.metadata;
    expect(dataOf('payment.completed', paid.transaction_id)).toEqual(metadata);
    expect(dataOf('topup.completed', funded.transaction_id)).toEqual({ float: 'november' });
    expect(dataOf('refund.completed', refund.transaction_id)).toEqual({ ticket: 'T-77' });
    expect(dataOf('payout.completed', refund.transaction_id)).toEqual({ ticket: 'T-77' });
  });

  it('the events of objects created without metadata carry {}, as GET /events shows them', async () => {
    const on = await rig.server();
    const topupId = await fund(on, 1000);
    const events = ok(await on.api.GET('/events', { params: { query: { transaction_id: topupId } } })).data;
    expect(events.items.map((e) => e.data.metadata)).toEqual([{}]);
  });
});
