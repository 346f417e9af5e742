/**
 * The webhook outbox's two units of work, named so that SQLite runs them on its writer thread
 * (server/storage/unit.ts): claiming the deliveries that can start now, and recording how an
 * attempt went. The sender (server/workers/webhook-worker.ts) keeps the slots in flight and does
 * the network part; everything here is a transaction over plain data, so its statements and the
 * disk sync of its commit never stop the event loop that sends the deliveries.
 */
import type { DueEndpoint } from '../storage/repositories/events.js';
import type { DeliveryRow, EventRow, Mode, WebhookEndpointRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';

/** The longest pause of an endpoint whose circuit is open. */
const maxPauseMs = 60 * 60 * 1000;

/** A delivery leased to this process, with what sending it needs. */
export interface Claimed {
  delivery: DeliveryRow;
  event: EventRow | undefined;
  endpoint: WebhookEndpointRow | undefined;
  lease: number;
  accountKey: string;
  mode: Mode;
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

/** The sender's limits (server/config.ts), as the claim applies them. */
export interface SlotCaps {
  total: number;
  /** Sandbox deliveries may never take the slots kept for live ones. */
  mode: Record<Mode, number>;
  account: number;
  endpoint: number;
  /** Failures in a row that open an endpoint's circuit (one probe at a time after the pause). */
  circuitFailures: number;
}

/**
 * Chooses and leases, in one transaction, the deliveries that can start now given the slots in
 * flight: endpoints with something due are taken in turn per account (accounts in the order of
 * their oldest due delivery, round-robin), each giving its oldest due delivery, until slots run
 * out; live before sandbox. Only endpoints and accounts with a free slot are looked at, so a
 * backlog behind a busy endpoint costs nothing to skip. Each is leased until `now + leaseMs`.
 */
export const claimDeliveries = defineUnit(
  import.meta.url,
  'webhooks.claim',
  async (tx, a: { now: number; leaseMs: number; slots: SlotsData; caps: SlotCaps }): Promise<Claimed[]> => {
    const s = Slots.from(a.slots);
    const picked: Claimed[] = [];
    const endpoints = new Map<string, Promise<WebhookEndpointRow | undefined>>();
    const endpointOf = (id: string) => {
      let row = endpoints.get(id);
      if (!row) {
        row = tx.events.endpointById(id);
        endpoints.set(id, row);
      }
      return row;
    };
    for (const mode of ['live', 'test'] as const) {
      if (room(s, a.caps, mode) <= 0) continue;
      const due = await tx.events.dueEndpoints({
        now: a.now,
        mode,
        busyEndpoints: [...s.byEndpoint].filter(([id, n]) => n >= capOf(s, a.caps, id)).map(([id]) => id),
        busyAccounts: [...s.byAccount]
          .filter(([key, n]) => key.endsWith(`:${mode}`) && n >= a.caps.account)
          .map(([key]) => key.slice(0, -mode.length - 1)),
      });
      await pickFairly(tx, a, due, s, mode, picked, endpointOf);
    }
    return picked;
  },
);

const room = (s: Slots, caps: SlotCaps, mode: Mode) =>
  Math.min(caps.total - s.total, caps.mode[mode] - s.byMode[mode]);
const capOf = (s: Slots, caps: SlotCaps, endpointId: string) =>
  s.endpointCap.get(endpointId) ?? caps.endpoint;

async function pickFairly(
  tx: Tx,
  a: { now: number; leaseMs: number; caps: SlotCaps },
  due: DueEndpoint[],
  s: Slots,
  mode: Mode,
  picked: Claimed[],
  endpointOf: (id: string) => Promise<WebhookEndpointRow | undefined>,
): Promise<void> {
  const { now, caps } = a;
  const accounts = new Map<string, { endpoints: DueEndpoint[]; turn: number }>();
  for (const endpoint of due) {
    if (endpoint.consecutive_failures >= caps.circuitFailures) s.endpointCap.set(endpoint.endpoint_id, 1);
    const entry = accounts.get(endpoint.account_id);
    if (entry) entry.endpoints.push(endpoint);
    else accounts.set(endpoint.account_id, { endpoints: [endpoint], turn: 0 });
  }
  const buffers = new Map<string, string[]>();
  const nextOf = async (endpointId: string): Promise<string | undefined> => {
    let buffer = buffers.get(endpointId);
    if (!buffer) {
      const free = capOf(s, caps, endpointId) - (s.byEndpoint.get(endpointId) ?? 0);
      buffer = await tx.events.dueDeliveriesOf({
        endpointId,
        now,
        limit: free,
        busyDeliveries: [...s.deliveries],
      });
      buffers.set(endpointId, buffer);
    }
    return buffer.shift();
  };
  while (accounts.size > 0 && room(s, caps, mode) > 0) {
    for (const [accountId, entry] of accounts) {
      if (room(s, caps, mode) <= 0) break;
      const accountKey = `${accountId}:${mode}`;
      let started = false;
      // This account's next endpoint in turn that has a free slot and something due.
      while (!started && entry.endpoints.length > 0 && (s.byAccount.get(accountKey) ?? 0) < caps.account) {
        const index = entry.turn % entry.endpoints.length;
        const endpoint = entry.endpoints[index] as DueEndpoint;
        const id =
          (s.byEndpoint.get(endpoint.endpoint_id) ?? 0) < capOf(s, caps, endpoint.endpoint_id)
            ? await nextOf(endpoint.endpoint_id)
            : undefined;
        if (id === undefined) {
          entry.endpoints.splice(index, 1);
          continue;
        }
        entry.turn = index + 1;
        const lease = now + a.leaseMs;
        if (!(await tx.events.lockDelivery(id, now, lease))) continue;
        s.add(id, mode, accountKey, endpoint.endpoint_id, 1);
        picked.push(await leased(tx, id, lease, await endpointOf(endpoint.endpoint_id), accountKey, mode));
        started = true;
      }
      if (!started) accounts.delete(accountId);
    }
  }
}

/** A delivery just leased, with what sending it needs. */
async function leased(
  tx: Tx,
  id: string,
  lease: number,
  endpoint: WebhookEndpointRow | undefined,
  accountKey: string,
  mode: Mode,
): Promise<Claimed> {
  const delivery = (await tx.events.delivery(id)) as DeliveryRow;
  return { delivery, event: await tx.events.eventById(delivery.event_id), endpoint, lease, accountKey, mode };
}

/**
 * A slot handed over: after a success, the same endpoint's next due deliveries are leased in the
 * transaction that records it, so the slot goes on without waiting for a claim. The sender asks
 * for them only when no one else could have had the slot (see webhook-worker.ts), and keeps a
 * few leased ahead: the slot sends them while its records commit.
 */
export interface HandOver {
  now: number;
  /** Covers the attempts the slot sends before a delivery leased ahead, then that one's own. */
  leaseMs: number;
  /** How many to lease, oldest due first: the one the slot goes on to and those held ahead. */
  deliveries: number;
  /** In flight in this process: never leased twice, whatever the clock says of their lease. */
  busyDeliveries: string[];
  accountKey: string;
  mode: Mode;
}

/** One attempt's outcome, as the sender decided it (next attempt, or giving up). */
export interface AttemptOutcome {
  id: string;
  lease: number;
  status: 'succeeded' | 'failed' | 'pending';
  next_attempt_at: number | null;
  last_attempt_at: number;
  last_response_status: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  duration_ms: number;
}

/**
 * Records one attempt and the delivery's new state (if its lease is still ours), then the
 * endpoint's circuit: a success closes it; a failure counts, opens it after `circuitFailures`
 * in a row for a cooldown that doubles while it keeps failing, and gives up what a paused
 * endpoint kept past the retry period. `endpointId` is null when the endpoint is gone.
 *
 * With `handOver`, a success also leases the endpoint's next due deliveries for the slot, and
 * answers them (none: nothing due, or the endpoint was deleted meanwhile). `release` gives back
 * the leases a slot that does not go on held ahead, so those deliveries are due again at once.
 */
export const recordAttempt = defineUnit(
  import.meta.url,
  'webhooks.record',
  async (
    tx,
    a: {
      outcome: AttemptOutcome;
      endpointId: string | null;
      maxAgeMs: number;
      circuitFailures: number;
      cooldownMs: number;
      handOver?: HandOver;
      release?: { id: string; lease: number }[];
    },
  ): Promise<Claimed[]> => {
    const { outcome } = a;
    await tx.events.recordAttempt(outcome);
    for (const held of a.release ?? []) await tx.events.releaseDelivery(held.id, held.lease);
    if (a.endpointId === null) return [];
    const health = await tx.events.endpointHealth(a.endpointId);
    if (!health) return [];
    if (outcome.status === 'succeeded') {
      if (health.consecutive_failures !== 0 || health.paused_until !== null) {
        await tx.events.setEndpointHealth(a.endpointId, 0, null);
      }
      return a.handOver ? handOverSlot(tx, a.endpointId, a.handOver) : [];
    }
    // A paused endpoint's backlog is not attempted, so it would outlive the retry period: what
    // is past it is given up with each failure.
    const attemptedAt = outcome.last_attempt_at;
    await tx.events.expireDeliveries(a.endpointId, attemptedAt - a.maxAgeMs, attemptedAt);
    const failures = health.consecutive_failures + 1;
    const over = failures - a.circuitFailures;
    const pausedUntil =
      over >= 0
        ? attemptedAt + Math.min(maxPauseMs, a.cooldownMs * 2 ** Math.min(over, 30))
        : health.paused_until;
    await tx.events.setEndpointHealth(a.endpointId, failures, pausedUntil);
    return [];
  },
);

/**
 * Leases the endpoint's oldest due deliveries for a slot handed over, at most `h.deliveries`.
 * What another slot leased first is no longer due here: units of one SQLite batch see each
 * other's writes, and PostgreSQL runs each in a SERIALIZABLE transaction that is tried again on
 * a conflict.
 */
async function handOverSlot(tx: Tx, endpointId: string, h: HandOver): Promise<Claimed[]> {
  const endpoint = await tx.events.endpointById(endpointId);
  if (!endpoint || endpoint.deleted_at !== null) return [];
  const ids = await tx.events.dueDeliveriesOf({
    endpointId,
    now: h.now,
    limit: h.deliveries,
    busyDeliveries: h.busyDeliveries,
  });
  const lease = h.now + h.leaseMs;
  const taken: Claimed[] = [];
  for (const id of ids) {
    if (await tx.events.lockDelivery(id, h.now, lease)) {
      taken.push(await leased(tx, id, lease, endpoint, h.accountKey, h.mode));
    }
  }
  return taken;
}
