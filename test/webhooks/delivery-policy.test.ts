import { describe, expect, it } from 'vitest';
import {
  afterAttempt,
  aheadLeaseMs,
  busyAccounts,
  busyEndpoints,
  type Circuit,
  circuitAfter,
  circuitState,
  claimLeaseMs,
  type DeliverySettings,
  deliverySettings,
  fairTurns,
  givenUpBefore,
  maxPauseMs,
  mayGoOn,
  retryScheduleOf,
  room,
  type SlotCaps,
  Slots,
  slotCaps,
  type Turn,
  toLease,
} from '../../server/webhooks/delivery-policy.js';

const settings: DeliverySettings = {
  webhookTimeoutMs: 10_000,
  webhookRetryBaseMs: 1_000,
  webhookRetryMaxMs: 60_000,
  webhookMaxAgeMs: 3_600_000,
  webhookConcurrency: 64,
  webhookConcurrencyPerAccount: 16,
  webhookConcurrencyPerEndpoint: 8,
  webhookLeaseAhead: 4,
  webhookCircuitFailures: 5,
  webhookCircuitCooldownMs: 30_000,
};
const schedule = retryScheduleOf(settings);
const zero = () => 0;
const almostOne = () => 1 - Number.EPSILON;
const created = 1_000_000;

const answered = (status: number) => ({
  ok: status >= 200 && status < 300,
  status,
  durationMs: 120,
  gone: false,
});
const noAnswer = { ok: false, status: null, durationMs: 9_000, gone: false };

describe('afterAttempt: retry or give up, and when', () => {
  it('a success is final: no next attempt, and its duration is shown', () => {
    expect(afterAttempt(answered(200), { created_at: created, attempts: 0 }, created + 5, schedule)).toEqual({
      status: 'succeeded',
      next_attempt_at: null,
      last_duration_ms: 120,
    });
  });

  it('a failure is retried after a delay drawn in [0, base * 2^(attempts)], capped at the maximum', () => {
    const at = created + 10;
    const soonest = afterAttempt(answered(500), { created_at: created, attempts: 0 }, at, schedule, zero);
    expect(soonest).toEqual({ status: 'pending', next_attempt_at: at, last_duration_ms: 120 });
    // The first failure's ceiling is the base; after four failures before, sixteen times it.
    const first = afterAttempt(answered(500), { created_at: created, attempts: 0 }, at, schedule, almostOne);
    expect(first.next_attempt_at).toBeLessThanOrEqual(at + 1_000);
    expect(first.next_attempt_at).toBeGreaterThanOrEqual(at + 999);
    const fifth = afterAttempt(answered(503), { created_at: created, attempts: 4 }, at, schedule, almostOne);
    expect(fifth.next_attempt_at).toBeLessThanOrEqual(at + 16_000);
    expect(fifth.next_attempt_at).toBeGreaterThanOrEqual(at + 15_999);
    const late = afterAttempt(answered(503), { created_at: created, attempts: 40 }, at, schedule, almostOne);
    expect(late.next_attempt_at).toBeLessThanOrEqual(at + 60_000);
  });

  it('keeps a misbehaving random source within the bounds of the jitter', () => {
    const at = created + 10;
    const above = afterAttempt(answered(500), { created_at: created, attempts: 1 }, at, schedule, () => 7);
    expect(above.next_attempt_at).toBe(at + 2_000);
    const below = afterAttempt(answered(500), { created_at: created, attempts: 1 }, at, schedule, () => -3);
    expect(below.next_attempt_at).toBe(at);
  });

  it('shows no duration for an attempt that got no HTTP answer', () => {
    const decision = afterAttempt(
      noAnswer,
      { created_at: created, attempts: 2 },
      created + 10,
      schedule,
      zero,
    );
    expect(decision).toEqual({ status: 'pending', next_attempt_at: created + 10, last_duration_ms: null });
  });

  it('gives up at the end of the retry period, not a millisecond before', () => {
    const justBefore = created + settings.webhookMaxAgeMs - 1;
    expect(
      afterAttempt(answered(500), { created_at: created, attempts: 9 }, justBefore, schedule).status,
    ).toBe('pending');
    const atTheEnd = created + settings.webhookMaxAgeMs;
    expect(afterAttempt(answered(500), { created_at: created, attempts: 9 }, atTheEnd, schedule)).toEqual({
      status: 'failed',
      next_attempt_at: null,
      last_duration_ms: 120,
    });
  });

  it('gives up at once when the endpoint is gone, however young the delivery', () => {
    const gone = { ok: false, status: null, durationMs: 0, gone: true };
    expect(afterAttempt(gone, { created_at: created, attempts: 0 }, created, schedule)).toEqual({
      status: 'failed',
      next_attempt_at: null,
      last_duration_ms: null,
    });
  });

  it('raises a maximum delay below the base to the base', () => {
    const raised = retryScheduleOf({ ...settings, webhookRetryBaseMs: 5_000, webhookRetryMaxMs: 1_000 });
    expect(raised.options.maxDelayMs).toBe(5_000);
  });
});

describe('circuit breaker', () => {
  const closed: Circuit = { consecutive_failures: 0, paused_until: null };
  const at = 50_000_000;

  it('a success closes the circuit, and writes nothing when it was closed already', () => {
    expect(circuitAfter(closed, true, at, settings)).toBeUndefined();
    expect(circuitAfter({ consecutive_failures: 3, paused_until: null }, true, at, settings)).toEqual(closed);
    expect(circuitAfter({ consecutive_failures: 9, paused_until: at - 1 }, true, at, settings)).toEqual(
      closed,
    );
  });

  it('counts failures without pausing until there are webhookCircuitFailures in a row', () => {
    expect(circuitAfter(closed, false, at, settings)).toEqual({
      consecutive_failures: 1,
      paused_until: null,
    });
    expect(circuitAfter({ consecutive_failures: 3, paused_until: null }, false, at, settings)).toEqual({
      consecutive_failures: 4,
      paused_until: null,
    });
  });

  it('opens for the cooldown at the threshold, doubling with each further failure up to an hour', () => {
    const opened = circuitAfter({ consecutive_failures: 4, paused_until: null }, false, at, settings);
    expect(opened).toEqual({ consecutive_failures: 5, paused_until: at + 30_000 });
    const again = circuitAfter({ consecutive_failures: 5, paused_until: at - 1 }, false, at, settings);
    expect(again).toEqual({ consecutive_failures: 6, paused_until: at + 60_000 });
    const long = circuitAfter({ consecutive_failures: 11, paused_until: at - 1 }, false, at, settings);
    expect(long?.paused_until).toBe(at + maxPauseMs);
    const endless = circuitAfter({ consecutive_failures: 10_000, paused_until: at - 1 }, false, at, settings);
    expect(endless?.paused_until).toBe(at + maxPauseMs);
  });

  it('is open while paused, half-open once the pause is over, closed below the threshold', () => {
    expect(circuitState({ consecutive_failures: 5, paused_until: at + 1 }, at, settings)).toBe('open');
    expect(circuitState({ consecutive_failures: 5, paused_until: at }, at, settings)).toBe('half-open');
    expect(circuitState({ consecutive_failures: 4, paused_until: null }, at, settings)).toBe('closed');
  });

  it("gives up a paused endpoint's backlog created a whole retry period before the failure", () => {
    expect(givenUpBefore(at, settings)).toBe(at - settings.webhookMaxAgeMs);
  });
});

describe('slots and caps', () => {
  it('keeps a quarter of the slots (at least one) for live deliveries', () => {
    expect(slotCaps(settings)).toEqual({
      total: 64,
      mode: { live: 64, test: 48 },
      account: 16,
      endpoint: 8,
      circuitFailures: 5,
    });
    expect(slotCaps({ ...settings, webhookConcurrency: 2 }).mode).toEqual({ live: 2, test: 1 });
    expect(slotCaps({ ...settings, webhookConcurrency: 7 }).mode).toEqual({ live: 7, test: 6 });
  });

  it('counts room per mode within the total', () => {
    const caps = slotCaps({ ...settings, webhookConcurrency: 8 });
    const slots = new Slots();
    for (let i = 0; i < 5; i++) slots.add(`whd_${i}`, 'test', 'acc_a:test', 'we_a', 1);
    expect(room(slots, caps, 'test')).toBe(1);
    expect(room(slots, caps, 'live')).toBe(3);
    slots.add('whd_0', 'test', 'acc_a:test', 'we_a', -1);
    expect(room(slots, caps, 'test')).toBe(2);
  });

  it('names the endpoints and accounts at their cap, a half-open endpoint at one', () => {
    const caps: SlotCaps = { ...slotCaps(settings), account: 2, endpoint: 2 };
    const slots = new Slots();
    slots.add('whd_1', 'live', 'acc_a:live', 'we_a', 1);
    slots.add('whd_2', 'live', 'acc_a:live', 'we_b', 1);
    slots.add('whd_3', 'test', 'acc_b:test', 'we_c', 1);
    expect(busyEndpoints(slots, caps)).toEqual([]);
    slots.endpointCap.set('we_c', 1);
    expect(busyEndpoints(slots, caps)).toEqual(['we_c']);
    expect(busyAccounts(slots, caps, 'live')).toEqual(['acc_a']);
    expect(busyAccounts(slots, caps, 'test')).toEqual([]);
  });

  it('crosses to the writer thread as plain data and comes back the same', () => {
    const slots = new Slots();
    slots.add('whd_1', 'live', 'acc_a:live', 'we_a', 1);
    slots.endpointCap.set('we_a', 1);
    const data = structuredClone(slots.data());
    expect(Slots.from(data).data()).toEqual(slots.data());
  });

  it('lets a slot go on only when no cap is reached and the endpoint is not probing', () => {
    // 3 slots, 2 of them open to sandbox deliveries; 2 per account.
    const caps = slotCaps({ ...settings, webhookConcurrency: 3, webhookConcurrencyPerAccount: 2 });
    expect(caps).toMatchObject({ total: 3, mode: { live: 3, test: 2 }, account: 2 });
    const held = { endpointId: 'we_a', mode: 'test' as const, accountKey: 'acc_a:test' };
    const slots = new Slots();
    slots.add('whd_1', 'test', 'acc_a:test', 'we_a', 1);
    expect(mayGoOn(slots, caps, held)).toBe(true);
    slots.endpointCap.set('we_a', 1);
    expect(mayGoOn(slots, caps, held)).toBe(false);
    slots.endpointCap.delete('we_a');
    slots.add('whd_2', 'test', 'acc_a:test', 'we_b', 1);
    // The account (two) and the sandbox share (two) are both full.
    expect(mayGoOn(slots, caps, held)).toBe(false);
    expect(mayGoOn(slots, caps, { endpointId: 'we_c', mode: 'live', accountKey: 'acc_b:live' })).toBe(true);
    slots.add('whd_3', 'live', 'acc_b:live', 'we_c', 1);
    expect(mayGoOn(slots, caps, { endpointId: 'we_c', mode: 'live', accountKey: 'acc_b:live' })).toBe(false);
  });

  it('leases for the attempt and a margin, ahead for every attempt before, and tops the queue up', () => {
    expect(claimLeaseMs(settings)).toBe(13_000);
    expect(aheadLeaseMs(settings)).toBe(13_000 + 4 * 10_000);
    expect(toLease(settings, 0)).toBe(5);
    expect(toLease(settings, 4)).toBe(1);
    expect(deliverySettings({ ...settings, secret: 'not sent' } as DeliverySettings)).toEqual(settings);
  });
});

describe('fairTurns: which endpoint gives the next delivery', () => {
  const due = (endpoint_id: string, account_id: string, consecutive_failures = 0) => ({
    endpoint_id,
    account_id,
    consecutive_failures,
  });

  /** Runs a claim whose endpoints have `backlog` deliveries due; answers the endpoints offered. */
  function claim(
    endpoints: ReturnType<typeof due>[],
    backlog: Record<string, number>,
    caps: SlotCaps,
    options: { slots?: Slots; lose?: string[] } = {},
  ) {
    const slots = options.slots ?? new Slots();
    const lose = [...(options.lose ?? [])];
    const offered: string[] = [];
    const turns = fairTurns(endpoints, slots, caps, 'live');
    let n = 0;
    for (let offer = turns.next(); !offer.done; ) {
      const endpoint = offer.value;
      offered.push(endpoint.endpoint_id);
      let turn: Turn = 'none';
      if ((backlog[endpoint.endpoint_id] ?? 0) > 0) {
        if (lose[0] === endpoint.endpoint_id) {
          lose.shift();
          turn = 'lost';
        } else {
          backlog[endpoint.endpoint_id] = (backlog[endpoint.endpoint_id] ?? 0) - 1;
          slots.add(`whd_${n++}`, 'live', `${endpoint.account_id}:live`, endpoint.endpoint_id, 1);
          turn = 'started';
        }
      }
      offer = turns.next(turn);
    }
    return { offered, slots };
  }
  const roomy = slotCaps(settings);
  const endpoints = [due('a1', 'A'), due('b1', 'B'), due('a2', 'A'), due('a3', 'A')];

  it("takes one delivery per account in turn, and an account's endpoints in turn", () => {
    const { offered, slots } = claim(endpoints, { a1: 2, a2: 1, a3: 1, b1: 3 }, roomy);
    // Then each endpoint is offered once more, finds nothing due, and is left out.
    expect(offered).toEqual(['a1', 'b1', 'a2', 'b1', 'a3', 'b1', 'a1', 'b1', 'a2', 'a3', 'a1']);
    expect(slots.total).toBe(7);
    expect(slots.byAccount.get('A:live')).toBe(4);
  });

  it('stops when the slots run out', () => {
    const caps = { ...roomy, total: 3 };
    expect(claim(endpoints, { a1: 2, a2: 1, a3: 1, b1: 3 }, caps).offered).toEqual(['a1', 'b1', 'a2']);
  });

  it('stops offering an account at its cap, and an endpoint at its cap', () => {
    expect(claim(endpoints, { a1: 2, a2: 1, a3: 1, b1: 3 }, { ...roomy, account: 1 }).offered).toEqual([
      'a1',
      'b1',
    ]);
    const oneEach = claim([due('a1', 'A')], { a1: 5 }, { ...roomy, endpoint: 2 });
    expect(oneEach.offered).toEqual(['a1', 'a1']);
  });

  it('never offers an endpoint already at its cap in flight', () => {
    const slots = new Slots();
    for (let i = 0; i < 8; i++) slots.add(`busy_${i}`, 'live', 'A:live', 'a1', 1);
    expect(claim([due('a1', 'A'), due('a2', 'A')], { a1: 3, a2: 1 }, roomy, { slots }).offered).toEqual([
      'a2',
      'a2',
    ]);
  });

  it('offers a half-open endpoint one delivery only, and marks it capped at one', () => {
    const { offered, slots } = claim([due('a1', 'A', 5)], { a1: 3 }, roomy);
    expect(offered).toEqual(['a1']);
    expect(slots.endpointCap.get('a1')).toBe(1);
    expect(claim([due('a1', 'A', 4)], { a1: 3 }, roomy).offered).toEqual(['a1', 'a1', 'a1', 'a1']);
  });

  it("offers the account's next endpoint when another sender took the delivery first", () => {
    const { offered } = claim([due('a1', 'A'), due('a2', 'A')], { a1: 1, a2: 1 }, roomy, { lose: ['a1'] });
    // a1 lost, so a2 starts in the same round; a1 comes round again in the next.
    expect(offered).toEqual(['a1', 'a2', 'a1', 'a2', 'a1']);
  });
});
