/**
 * Attacks on webhook delivery fairness: one account's hanging or failing receivers must not
 * delay anyone else's deliveries, live traffic must not wait behind sandbox traffic, leases
 * must cover the attempt they were taken for, and a failing endpoint must back off.
 *
 * Every receiver is on 127.0.0.1. Assertions are on what arrived and what the outbox holds,
 * waited for as conditions, never on durations.
 */
import { describe, expect, it } from 'vitest';
import { apiClient, ok } from '../support/api.js';
import { startServiceOn, type TestServer } from '../support/server.js';
import {
  type ControlledReceiver,
  outboxOf,
  queueEvents,
  tableResolver,
  until,
  useWebhookRig,
} from './webhooks-support.js';

const { cleanups, server, receiver } = useWebhookRig({
  WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
  // Long enough that no hanging request is cut short while a test looks at it.
  WEBHOOK_TIMEOUT_MS: '60000',
});

async function endpoint(on: TestServer, url: string, as = on.test): Promise<string> {
  const response = await on.raw('POST', '/webhook-endpoints', { as, body: { url } });
  expect(response.status, response.text).toBe(201);
  return response.body.data.id as string;
}

const distinct = (r: ControlledReceiver) => new Set(r.hits.map((h) => h.eventId)).size;

/** The events whose delivery is leased now, sorted. */
const leasedOf = async (s: TestServer, id: string) =>
  (await outboxOf(s, id))
    .filter((d) => d.locked_until !== null)
    .map((d) => d.event_id)
    .sort();

/** A server, a receiver holding every request, one endpoint of it, and `count` events queued for it. */
async function heldBacklog(env: Record<string, string>, count: number) {
  const s = await server(env);
  const receiving = await receiver();
  receiving.hold();
  const id = await endpoint(s, receiving.url);
  const events = await queueEvents(s, id, count);
  return { s, receiving, id, events };
}

describe('one account cannot hold up another', () => {
  it("account B's deliveries all arrive while account A's receiver hangs on every request", async () => {
    const s = await server({
      WEBHOOK_CONCURRENCY: '8',
      WEBHOOK_CONCURRENCY_PER_ACCOUNT: '3',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '3',
    });
    const b = await s.newAccount('B');
    const hanging = await receiver();
    hanging.hold();
    const healthy = await receiver();
    const aEndpoint = await endpoint(s, hanging.url);
    const bEndpoint = await endpoint(s, healthy.url, b.test);
    // A's backlog is older, so an oldest-first batch would start with it.
    const aEvents = await queueEvents(s, aEndpoint, 20);
    const bEvents = await queueEvents(s, bEndpoint, 12, { accountId: b.account.accountId });

    const pass = s.deliverWebhooks();
    await until(() => distinct(healthy) === bEvents.length, "all of B's events arrived");
    // Meanwhile A holds exactly its share of slots, nothing more was taken for it.
    expect(hanging.held()).toBe(3);
    await until(
      async () => (await outboxOf(s, bEndpoint)).every((d) => d.status === 'succeeded' && d.attempts === 1),
      "B's deliveries are recorded as succeeded",
    );
    expect(hanging.held()).toBe(3);
    const aRows = await outboxOf(s, aEndpoint);
    expect(aRows.filter((d) => d.locked_until !== null)).toHaveLength(3);
    expect(aRows.filter((d) => d.attempts === 0 && d.locked_until === null)).toHaveLength(17);

    hanging.release(200);
    expect(await pass).toBe(aEvents.length + bEvents.length);
    // At least once, and here exactly once: nothing was sent twice.
    expect(hanging.hits.map((h) => h.eventId).sort()).toEqual([...aEvents].sort());
    expect(healthy.hits).toHaveLength(bEvents.length);
  });

  it("no batch waits for its slowest member: one endpoint's hang does not stop the same account's other endpoint", async () => {
    const s = await server({
      WEBHOOK_CONCURRENCY: '8',
      WEBHOOK_CONCURRENCY_PER_ACCOUNT: '4',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2',
    });
    const hanging = await receiver();
    hanging.hold();
    const fast = await receiver();
    const slowEndpoint = await endpoint(s, hanging.url);
    const fastEndpoint = await endpoint(s, fast.url);
    await queueEvents(s, slowEndpoint, 6);
    // Five times more deliveries than the fast endpoint has slots: only a pool that starts
    // the next one as each finishes gets through them while the others hang.
    const fastEvents = await queueEvents(s, fastEndpoint, 10);

    const pass = s.deliverWebhooks();
    await until(() => distinct(fast) === fastEvents.length, 'every fast delivery arrived');
    expect(hanging.held()).toBe(2);
    hanging.release();
    expect(await pass).toBe(16);
  });
});

describe('live deliveries never queue behind sandbox ones', () => {
  it('a live delivery is attempted while sandbox deliveries hang and more of them are due and older', async () => {
    // The live endpoint's name is public when registered and points at this machine when the
    // delivery resolves it: the attempt is refused by the policy, so nothing leaves 127.0.0.1,
    // and the recorded attempt shows the live delivery was not kept waiting.
    const table: Record<string, string[]> = { 'live-hooks.example.com': ['93.184.215.14'] };
    const resolver = tableResolver(table);
    const s = await server(
      {
        WEBHOOK_CONCURRENCY: '4',
        WEBHOOK_CONCURRENCY_PER_ACCOUNT: '100',
        WEBHOOK_CONCURRENCY_PER_ENDPOINT: '100',
      },
      resolver,
    );
    const sandbox = await receiver();
    sandbox.hold();
    const sandboxEndpoint = await endpoint(s, sandbox.url);
    const liveEndpoint = await endpoint(s, 'https://live-hooks.example.com/hooks', s.live);
    table['live-hooks.example.com'] = ['127.0.0.1'];
    resolver.calls.length = 0;
    const sandboxEvents = await queueEvents(s, sandboxEndpoint, 10);
    await queueEvents(s, liveEndpoint, 3, { mode: 'live' });

    const pass = s.deliverWebhooks();
    await until(() => sandbox.held() === 3, 'sandbox deliveries fill the slots they may use');
    await until(
      async () => (await outboxOf(s, liveEndpoint)).every((d) => d.attempts >= 1),
      'every live delivery was attempted',
    );
    // Sandbox traffic never took the slot kept for live traffic.
    expect(sandbox.held()).toBe(3);
    expect(
      (await outboxOf(s, sandboxEndpoint)).filter((d) => d.attempts === 0 && d.locked_until === null),
    ).toHaveLength(7);
    expect(resolver.calls.every((name) => name === 'live-hooks.example.com')).toBe(true);

    sandbox.release();
    await pass;
    expect(distinct(sandbox)).toBe(sandboxEvents.length);
  });
});

describe('leases', () => {
  it('only what can start now is claimed, and each lease outlasts its whole attempt', async () => {
    const {
      s,
      receiving: hanging,
      id,
      events,
    } = await heldBacklog({ WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2', WEBHOOK_CONCURRENCY_PER_ACCOUNT: '2' }, 6);
    const claimedAt = s.clock.now();

    const pass = s.deliverWebhooks();
    await until(() => hanging.held() === 2, 'two deliveries are in flight');
    const rows = await outboxOf(s, id);
    const locked = rows.filter((d) => d.locked_until !== null);
    // The two in flight are the two leased, and their lease covers the timeout and more.
    expect(locked.map((d) => d.event_id).sort()).toEqual(hanging.hits.map((h) => h.eventId).sort());
    for (const row of locked) expect(row.locked_until).toBeGreaterThan(claimedAt + 60_000);
    expect(rows.filter((d) => d.locked_until === null && d.attempts === 0)).toHaveLength(4);

    hanging.release();
    await pass;
    expect(hanging.hits.map((h) => h.eventId).sort()).toEqual([...events].sort());
  });
});

describe('slots that go on to the next delivery', () => {
  it("a success leads its slot to the endpoint's next delivery, never past the endpoint's cap, each sent once", async () => {
    const [slotsPerEndpoint, leaseAhead] = [2, 2];
    const { s, receiving, id, events } = await heldBacklog(
      { WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(slotsPerEndpoint), WEBHOOK_LEASE_AHEAD: String(leaseAhead) },
      9,
    );

    const pass = s.deliverWebhooks();
    // Each step answers the deliveries held; their slots go on to the next ones, which are held.
    for (let answered = 0; answered < events.length; ) {
      await until(
        () => receiving.held() === Math.min(slotsPerEndpoint, events.length - answered),
        `${answered} answered, the next in flight`,
      );
      // Each slot may hold `leaseAhead` more leased, never sent beside the one in flight.
      expect((await leasedOf(s, id)).length).toBeLessThanOrEqual(slotsPerEndpoint * (1 + leaseAhead));
      expect(receiving.mostHeld()).toBeLessThanOrEqual(slotsPerEndpoint);
      answered += receiving.held();
      receiving.release();
      if (answered < events.length) receiving.hold();
    }
    expect(await pass).toBe(events.length);
    expect(receiving.mostHeld()).toBe(slotsPerEndpoint);
    expect(receiving.hits.map((h) => h.eventId).sort()).toEqual([...events].sort());
    const rows = await outboxOf(s, id);
    expect(rows.every((d) => d.status === 'succeeded' && d.attempts === 1 && d.locked_until === null)).toBe(
      true,
    );
  });
});

describe('a slot going on keeps deliveries leased ahead', () => {
  /** The `n`th delivery has arrived and is the one held. */
  const inFlight = (r: ControlledReceiver, n: number) => () => r.hits.length === n && r.held() === 1;
  const oneSlotTwoAhead = {
    WEBHOOK_CONCURRENCY_PER_ENDPOINT: '1',
    WEBHOOK_LEASE_AHEAD: '2',
    WEBHOOK_RETRY_BASE_MS: '600000',
    WEBHOOK_RETRY_MAX_MS: '600000',
  };

  it('sends the oldest held as soon as its attempt in flight succeeds, and gives them all back when one fails', async () => {
    const { s, receiving, id, events } = await heldBacklog(oneSlotTwoAhead, 6);
    const leasedNow = () => leasedOf(s, id);
    /** Answers the delivery in flight and waits for the slot's `n`th one, which must be `events[n - 1]`. */
    const succeedThen = async (n: number) => {
      receiving.release();
      receiving.hold();
      await until(inFlight(receiving, n), `delivery ${n} is in flight`);
      expect(receiving.hits[n - 1]?.eventId).toBe(events[n - 1]);
    };

    const pass = s.deliverWebhooks();
    await until(inFlight(receiving, 1), 'the first delivery is in flight');
    // The claim leases only what starts now.
    expect(await leasedNow()).toEqual([events[0]]);

    // Its success leases the next delivery and two ahead; the slot goes on to the next.
    await succeedThen(2);
    expect(await leasedNow()).toEqual([events[1], events[2], events[3]].sort());

    // Each later success goes on to the oldest held, and its record leases one more behind it.
    await succeedThen(3);
    await until(
      async () => (await leasedNow()).join() === [events[2], events[3], events[4]].sort().join(),
      'the fifth delivery is leased ahead',
    );
    await succeedThen(4);
    await until(
      async () => (await leasedNow()).join() === [events[3], events[4], events[5]].sort().join(),
      'the sixth delivery is leased ahead',
    );

    // A failure: the slot does not go on, and its record gives back both leases it held ahead,
    // so the next claims start those deliveries at once instead of leaving them until the
    // leases expire.
    receiving.release(500);
    await pass;
    expect(receiving.hits.map((h) => h.eventId)).toEqual(events);
    const rows = await outboxOf(s, id);
    expect(rows.every((d) => d.locked_until === null)).toBe(true);
    expect(rows.filter((d) => d.status === 'succeeded').map((d) => d.event_id)).toEqual(events.slice(0, 3));
    expect(rows.every((d) => d.attempts === 1)).toBe(true);
  });

  it('gives them back at a stop, so another process can send them at once', async () => {
    const { s, receiving, id, events } = await heldBacklog(oneSlotTwoAhead, 5);
    const pass = s.deliverWebhooks();
    await until(inFlight(receiving, 1), 'the first delivery is in flight');
    receiving.release();
    receiving.hold();
    await until(inFlight(receiving, 2), 'the second is in flight');
    expect(await leasedOf(s, id)).toEqual(events.slice(1, 4).sort());

    // The stop lets the attempt in flight finish, records it, and gives the two ahead back.
    const stopped = s.service.webhooks.stop();
    receiving.release();
    await stopped;
    await pass;
    expect(receiving.hits.map((h) => h.eventId)).toEqual(events.slice(0, 2));
    const rows = await outboxOf(s, id);
    expect(rows.filter((d) => d.status === 'succeeded').map((d) => d.event_id)).toEqual(events.slice(0, 2));
    expect(rows.every((d) => d.locked_until === null)).toBe(true);
  });
});

describe('circuit breaker', () => {
  it('pauses an endpoint after repeated failures, keeps the pause across a restart, probes once, and resumes', async () => {
    const s = await server({
      WEBHOOK_CIRCUIT_FAILURES: '3',
      WEBHOOK_CIRCUIT_COOLDOWN_MS: '60000',
      WEBHOOK_RETRY_BASE_MS: '600000',
      WEBHOOK_RETRY_MAX_MS: '600000',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '1',
    });
    const failing = await receiver(500);
    const id = await endpoint(s, failing.url);
    await queueEvents(s, id, 8);

    await s.deliverWebhooks();
    // Three failures in a row, then nothing more is sent to it.
    expect(failing.hits).toHaveLength(3);
    const paused = (await s.raw('GET', `/webhook-endpoints/${id}`)).body.data;
    expect(Date.parse(paused.paused_until)).toBe(s.clock.now() + 60_000);
    const untried = (await outboxOf(s, id)).filter((d) => d.attempts === 0);
    expect(untried).toHaveLength(5);

    // The pause is in the database: a restarted server does not hammer the endpoint again.
    await s.service.close();
    const again = await startServiceOn(s, {
      WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
      WEBHOOK_CIRCUIT_FAILURES: '3',
      WEBHOOK_CIRCUIT_COOLDOWN_MS: '60000',
      WEBHOOK_RETRY_BASE_MS: '600000',
      WEBHOOK_RETRY_MAX_MS: '600000',
    });
    cleanups.push(() => again.close());
    const read = async () =>
      ok(await apiClient(again.apiUrl, s.test).GET('/webhook-endpoints/{id}', { params: { path: { id } } }))
        .data;
    expect(await again.webhooks.runOnce()).toBe(0);
    expect(failing.hits).toHaveLength(3);

    // Once the pause is over, a single probe; it fails, and the pause doubles.
    s.clock.advance(60_001);
    await again.webhooks.runOnce();
    expect(failing.hits).toHaveLength(4);
    const doubled = await read();
    expect(Date.parse(doubled.paused_until ?? '')).toBe(s.clock.now() + 120_000);

    // The receiver recovers: the next probe succeeds and everything left flows again.
    failing.release(200);
    s.clock.advance(120_001);
    await again.webhooks.runOnce();
    const arrived = new Set(failing.hits.map((h) => h.eventId));
    for (const row of untried) expect(arrived.has(row.event_id)).toBe(true);
    expect((await read()).paused_until).toBeNull();
    expect((await outboxOf(s, id)).filter((d) => d.attempts === 0)).toHaveLength(0);
  });

  it("a paused endpoint does not pause the account's other endpoints", async () => {
    const s = await server({
      WEBHOOK_CIRCUIT_FAILURES: '2',
      WEBHOOK_RETRY_BASE_MS: '600000',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '1',
    });
    const failing = await receiver(503);
    const healthy = await receiver();
    const bad = await endpoint(s, failing.url);
    const good = await endpoint(s, healthy.url);
    await queueEvents(s, bad, 10);
    const goodEvents = await queueEvents(s, good, 10);
    await s.deliverWebhooks();
    expect(distinct(healthy)).toBe(goodEvents.length);
    expect(failing.hits).toHaveLength(2);
    expect((await s.raw('GET', `/webhook-endpoints/${bad}`)).body.data.paused_until).not.toBeNull();
    expect((await s.raw('GET', `/webhook-endpoints/${good}`)).body.data.paused_until).toBeNull();
  });

  it('keeps the retry period: a backlog the pause kept from being attempted is given up once it is over', async () => {
    const s = await server({
      WEBHOOK_CIRCUIT_FAILURES: '2',
      WEBHOOK_CIRCUIT_COOLDOWN_MS: '60000',
      WEBHOOK_RETRY_BASE_MS: '600000',
      WEBHOOK_MAX_AGE_MS: '3600000',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '1',
    });
    const failing = await receiver(500);
    const id = await endpoint(s, failing.url);
    await queueEvents(s, id, 6);
    await s.deliverWebhooks();
    expect(failing.hits).toHaveLength(2);
    // Past the retry period the next probe fails too: nothing is left pending, nothing more is sent.
    s.clock.advance(3_600_001);
    await s.deliverWebhooks();
    expect(failing.hits).toHaveLength(3);
    const rows = await outboxOf(s, id);
    expect(rows.every((d) => d.status === 'failed' && d.next_attempt_at === null)).toBe(true);
    failing.release(200);
    s.clock.advance(7_200_000);
    await s.deliverWebhooks();
    expect(failing.hits).toHaveLength(3);
  });
});

describe('endpoint cap', () => {
  it('an account cannot register more endpoints than allowed per mode, even all at once', async () => {
    const s = await server({ WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT: '3' });
    const r = await receiver();
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () => s.raw('POST', '/webhook-endpoints', { body: { url: r.url } })),
    );
    const statuses = attempts.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    const refused = attempts.find((a) => a.status === 409);
    expect(refused?.body).toMatchObject({
      status: 'error',
      error: { code: 'too_many_webhook_endpoints', request_id: expect.any(String) },
    });
    const listed = await s.raw('GET', '/webhook-endpoints');
    expect(listed.body.data.items).toHaveLength(3);

    // Another account is not affected, and deleting one makes room again.
    const other = await s.newAccount('other');
    expect((await s.raw('POST', '/webhook-endpoints', { as: other.test, body: { url: r.url } })).status).toBe(
      201,
    );
    await s.raw('DELETE', `/webhook-endpoints/${listed.body.data.items[0].id}`);
    expect((await s.raw('POST', '/webhook-endpoints', { body: { url: r.url } })).status).toBe(201);
  });
});
