/**
 * Every decision of webhook delivery, as plain functions of the state, an attempt's outcome,
 * the time and the settings: whether to retry or give up and when, how many deliveries may be
 * in flight (in all, per mode, account and endpoint) and in which order endpoints take turns,
 * whether a slot goes on to its endpoint's next delivery, and the circuit breaker of each
 * endpoint. Nothing here reads the clock, the network or the database: the sender
 * (server/workers/webhook-worker.ts) and the outbox's units (server/webhooks/outbox.ts) do that,
 * and apply what these functions decide. Decision docs/decisions/0009-fair-webhook-delivery.md.
 */
import type { Config } from '../config.js';
import type { DueEndpoint } from '../storage/repositories/deliveries.js';
import type { EndpointCircuit } from '../storage/repositories/webhook-endpoints.js';
import type { Mode } from '../storage/rows.js';
import { createRetrySchedule, type RetrySchedule } from './retry-schedule.js';

/** The settings delivery follows (server/config.ts). */
export type DeliverySettings = Pick<
  Config,
  | 'webhookTimeoutMs'
  | 'webhookRetryBaseMs'
  | 'webhookRetryMaxMs'
  | 'webhookMaxAgeMs'
  | 'webhookConcurrency'
  | 'webhookConcurrencyPerAccount'
  | 'webhookConcurrencyPerEndpoint'
  | 'webhookLeaseAhead'
  | 'webhookCircuitFailures'
  | 'webhookCircuitCooldownMs'
>;

/** Only these settings, as they cross to the writer thread with a record. */
export function deliverySettings(config: DeliverySettings): DeliverySettings {
  return {
    webhookTimeoutMs: config.webhookTimeoutMs,
    webhookRetryBaseMs: config.webhookRetryBaseMs,
    webhookRetryMaxMs: config.webhookRetryMaxMs,
    webhookMaxAgeMs: config.webhookMaxAgeMs,
    webhookConcurrency: config.webhookConcurrency,
    webhookConcurrencyPerAccount: config.webhookConcurrencyPerAccount,
    webhookConcurrencyPerEndpoint: config.webhookConcurrencyPerEndpoint,
    webhookLeaseAhead: config.webhookLeaseAhead,
    webhookCircuitFailures: config.webhookCircuitFailures,
    webhookCircuitCooldownMs: config.webhookCircuitCooldownMs,
  };
}

/** Added to the attempt's deadline for the lease: loading before and recording after. */
const leaseMarginMs = 3000;

/** The longest pause of an endpoint whose circuit is open. */
export const maxPauseMs = 60 * 60 * 1000;

// ---- Retry or give up ----------------------------------------------------------------------

/** The retry schedule the settings describe (a ceiling below the base is raised to it). */
export function retryScheduleOf(settings: DeliverySettings): RetrySchedule {
  return createRetrySchedule({
    baseDelayMs: settings.webhookRetryBaseMs,
    maxDelayMs: Math.max(settings.webhookRetryMaxMs, settings.webhookRetryBaseMs),
    maxAgeMs: settings.webhookMaxAgeMs,
  });
}

/** How an attempt went, as the sender saw it. */
export interface AttemptResult {
  ok: boolean;
  /** The receiver's HTTP status, `null` when no HTTP answer came. */
  status: number | null;
  durationMs: number;
  /** The endpoint (or the event) was deleted: nothing was sent, and nothing ever will be. */
  gone: boolean;
}

/** What becomes of a delivery after an attempt. */
export interface AttemptDecision {
  status: 'succeeded' | 'failed' | 'pending';
  /** When to try again: `null` once it succeeded or was given up. */
  next_attempt_at: number | null;
  /** Shown to the integrator: `null` when no HTTP answer came (see deliver.ts). */
  last_duration_ms: number | null;
}

/**
 * After an attempt at `attemptedAt` of a delivery created at `created_at` and attempted
 * `attempts` times before: a success is final; a failure is retried after the schedule's delay
 * (full jitter, `random` in [0, 1)), unless the endpoint is gone or the retry period is over.
 */
export function afterAttempt(
  result: AttemptResult,
  delivery: { created_at: number; attempts: number },
  attemptedAt: number,
  schedule: RetrySchedule,
  random: () => number = Math.random,
): AttemptDecision {
  const giveUp = !result.ok && (result.gone || schedule.shouldGiveUp(delivery.created_at, attemptedAt));
  return {
    status: result.ok ? 'succeeded' : giveUp ? 'failed' : 'pending',
    next_attempt_at:
      result.ok || giveUp ? null : attemptedAt + schedule.nextAttemptDelay(delivery.attempts + 1, random),
    // How long an attempt without an answer took would tell a refused port from a filtered one.
    last_duration_ms: result.ok || result.status !== null ? result.durationMs : null,
  };
}

// ---- Circuit breaker -----------------------------------------------------------------------

/** An endpoint's circuit as stored: its failures in a row, and until when it is paused. */
export type Circuit = EndpointCircuit;

/**
 * Closed: deliveries go. Open: paused until `paused_until`, nothing is sent. Half-open: the
 * pause is over but the failures that opened it are not forgiven: one delivery at a time probes.
 */
export function circuitState(circuit: Circuit, now: number, settings: DeliverySettings) {
  if (circuit.paused_until !== null && circuit.paused_until > now) return 'open';
  return probing(circuit.consecutive_failures, settings) ? 'half-open' : 'closed';
}

/** Whether an endpoint with these failures in a row may only have one delivery in flight. */
export function probing(consecutiveFailures: number, settings: DeliverySettings): boolean {
  return consecutiveFailures >= settings.webhookCircuitFailures;
}

/**
 * The circuit after an attempt: a success closes it (`undefined` when it was closed already:
 * nothing to write); a failure counts, and from `webhookCircuitFailures` in a row opens it for a
 * cooldown that doubles with each further failure, up to `maxPauseMs`.
 */
export function circuitAfter(
  circuit: Circuit,
  succeeded: boolean,
  attemptedAt: number,
  settings: DeliverySettings,
): Circuit | undefined {
  if (succeeded) {
    const closed = circuit.consecutive_failures === 0 && circuit.paused_until === null;
    return closed ? undefined : { consecutive_failures: 0, paused_until: null };
  }
  const failures = circuit.consecutive_failures + 1;
  const over = failures - settings.webhookCircuitFailures;
  const pause = Math.min(maxPauseMs, settings.webhookCircuitCooldownMs * 2 ** Math.min(over, 30));
  return {
    consecutive_failures: failures,
    paused_until: over >= 0 ? attemptedAt + pause : circuit.paused_until,
  };
}

/**
 * A paused endpoint's backlog is not attempted, so it would outlive the retry period: after each
 * failure, its deliveries created at or before this time are given up.
 */
export function givenUpBefore(attemptedAt: number, settings: DeliverySettings): number {
  return attemptedAt - settings.webhookMaxAgeMs;
}

// ---- Slots, caps and fair turns ------------------------------------------------------------

/** The sender's limits, as the claim applies them. */
export interface SlotCaps {
  total: number;
  /** Sandbox deliveries may never take the slots kept for live ones. */
  mode: Record<Mode, number>;
  account: number;
  endpoint: number;
  /** Failures in a row that open an endpoint's circuit (one probe at a time after the pause). */
  circuitFailures: number;
}

export function slotCaps(settings: DeliverySettings): SlotCaps {
  const total = settings.webhookConcurrency;
  return {
    total,
    // A quarter of the slots is kept for live deliveries: sandbox ones may never take them.
    mode: { live: total, test: Math.max(1, total - Math.max(1, Math.floor(total / 4))) },
    account: settings.webhookConcurrencyPerAccount,
    endpoint: settings.webhookConcurrencyPerEndpoint,
    circuitFailures: settings.webhookCircuitFailures,
  };
}

/** The slots in flight as plain data, as they cross to the writer thread. */
export interface SlotsData {
  total: number;
  byMode: Record<Mode, number>;
  byAccount: Array<[string, number]>;
  byEndpoint: Array<[string, number]>;
  endpointCap: Array<[string, number]>;
  deliveries: string[];
}

/** How many deliveries are in flight, in all and per mode, account (and mode) and endpoint. */
export class Slots {
  total = 0;
  readonly byMode: Record<Mode, number> = { live: 0, test: 0 };
  readonly byAccount = new Map<string, number>();
  readonly byEndpoint = new Map<string, number>();
  /** Endpoints probing after a pause (half-open circuit) may have one delivery in flight. */
  readonly endpointCap = new Map<string, number>();
  readonly deliveries = new Set<string>();

  static from(data: SlotsData): Slots {
    const slots = new Slots();
    slots.total = data.total;
    slots.byMode.live = data.byMode.live;
    slots.byMode.test = data.byMode.test;
    for (const [k, v] of data.byAccount) slots.byAccount.set(k, v);
    for (const [k, v] of data.byEndpoint) slots.byEndpoint.set(k, v);
    for (const [k, v] of data.endpointCap) slots.endpointCap.set(k, v);
    for (const id of data.deliveries) slots.deliveries.add(id);
    return slots;
  }

  data(): SlotsData {
    return {
      total: this.total,
      byMode: { ...this.byMode },
      byAccount: [...this.byAccount],
      byEndpoint: [...this.byEndpoint],
      endpointCap: [...this.endpointCap],
      deliveries: [...this.deliveries],
    };
  }

  add(id: string, mode: Mode, accountKey: string, endpointId: string, delta: 1 | -1): void {
    this.total += delta;
    this.byMode[mode] += delta;
    bump(this.byAccount, accountKey, delta);
    bump(this.byEndpoint, endpointId, delta);
    if (delta === 1) this.deliveries.add(id);
    else this.deliveries.delete(id);
  }
}

function bump(map: Map<string, number>, key: string, delta: number): void {
  const value = (map.get(key) ?? 0) + delta;
  if (value <= 0) map.delete(key);
  else map.set(key, value);
}

/** Free slots for deliveries of `mode`. */
export function room(slots: Slots, caps: SlotCaps, mode: Mode): number {
  return Math.min(caps.total - slots.total, caps.mode[mode] - slots.byMode[mode]);
}

/** How many deliveries an endpoint may have in flight (one while its circuit is half-open). */
export function capOf(slots: Slots, caps: SlotCaps, endpointId: string): number {
  return slots.endpointCap.get(endpointId) ?? caps.endpoint;
}

/** Endpoints at their cap: a claim does not look at them. */
export function busyEndpoints(slots: Slots, caps: SlotCaps): string[] {
  return [...slots.byEndpoint].filter(([id, n]) => n >= capOf(slots, caps, id)).map(([id]) => id);
}

/** Accounts at their cap in `mode`: a claim does not look at their endpoints. */
export function busyAccounts(slots: Slots, caps: SlotCaps, mode: Mode): string[] {
  return [...slots.byAccount]
    .filter(([key, n]) => key.endsWith(`:${mode}`) && n >= caps.account)
    .map(([key]) => key.slice(0, -mode.length - 1));
}

/** What the claim did with an endpoint `fairTurns` offered. */
export type Turn =
  /** One of its deliveries was leased and counted in the slots. */
  | 'started'
  /** Another sender leased the delivery first: the account's next endpoint is offered. */
  | 'lost'
  /** It has nothing more due: it is not offered again in this claim. */
  | 'none';

/**
 * The order in which a claim takes deliveries: endpoints with something due (`due`, oldest due
 * first) are offered in turn per account, accounts round-robin in the order of their oldest due
 * delivery, one delivery per account per round, until slots run out. An endpoint or account at
 * its cap is skipped; an endpoint whose circuit is half-open is capped at one (kept in
 * `slots.endpointCap`). The caller answers each offer with what it did (`Turn`) and counts what
 * it started in `slots`, which the turns read.
 *
 * @example
 * const turns = fairTurns(due, slots, caps, 'live');
 * for (let offer = turns.next(); !offer.done; ) offer = turns.next(await take(offer.value));
 */
export function* fairTurns(
  due: DueEndpoint[],
  slots: Slots,
  caps: SlotCaps,
  mode: Mode,
): Generator<DueEndpoint, void, Turn> {
  const accounts = new Map<string, { endpoints: DueEndpoint[]; turn: number }>();
  for (const endpoint of due) {
    if (endpoint.consecutive_failures >= caps.circuitFailures) slots.endpointCap.set(endpoint.endpoint_id, 1);
    const entry = accounts.get(endpoint.account_id);
    if (entry) entry.endpoints.push(endpoint);
    else accounts.set(endpoint.account_id, { endpoints: [endpoint], turn: 0 });
  }
  while (accounts.size > 0 && room(slots, caps, mode) > 0) {
    for (const [accountId, entry] of accounts) {
      if (room(slots, caps, mode) <= 0) break;
      const accountKey = `${accountId}:${mode}`;
      let started = false;
      // This account's next endpoint in turn that has a free slot and something due.
      while (
        !started &&
        entry.endpoints.length > 0 &&
        (slots.byAccount.get(accountKey) ?? 0) < caps.account
      ) {
        const index = entry.turn % entry.endpoints.length;
        const endpoint = entry.endpoints[index] as DueEndpoint;
        const hasRoom =
          (slots.byEndpoint.get(endpoint.endpoint_id) ?? 0) < capOf(slots, caps, endpoint.endpoint_id);
        const turn: Turn = hasRoom ? yield endpoint : 'none';
        if (turn === 'none') {
          entry.endpoints.splice(index, 1);
          continue;
        }
        entry.turn = index + 1;
        started = turn === 'started';
      }
      if (!started) accounts.delete(accountId);
    }
  }
}

// ---- Leases and slots that go on -----------------------------------------------------------

/** A claim's lease: the whole attempt (its deadline) and a margin, counted from the claim. */
export function claimLeaseMs(settings: DeliverySettings): number {
  return settings.webhookTimeoutMs + leaseMarginMs;
}

/** One leased ahead may wait for as many attempts as are held before it, then has its own. */
export function aheadLeaseMs(settings: DeliverySettings): number {
  return claimLeaseMs(settings) + settings.webhookLeaseAhead * settings.webhookTimeoutMs;
}

/**
 * How many of its endpoint's deliveries a slot going on leases in its record: the one it goes on
 * to and what tops its queue back up to `webhookLeaseAhead` (all of them after a claim, one
 * more in the steady state).
 */
export function toLease(settings: DeliverySettings, heldAhead: number): number {
  return 1 + settings.webhookLeaseAhead - heldAhead;
}

/**
 * Whether a slot whose delivery just succeeded may go on to its endpoint's next delivery
 * without a claim: only when no one else could have wanted it. Every other cap still has room
 * (so any account or endpoint with something due already had a free slot to take), and the
 * endpoint is not probing after a pause (a success there ends the probe: the slots come back,
 * cap lifted, through a claim).
 */
export function mayGoOn(
  slots: Slots,
  caps: SlotCaps,
  held: { endpointId: string; mode: Mode; accountKey: string },
): boolean {
  return (
    slots.total < caps.total &&
    slots.byMode[held.mode] < caps.mode[held.mode] &&
    (slots.byAccount.get(held.accountKey) ?? 0) < caps.account &&
    !slots.endpointCap.has(held.endpointId)
  );
}
