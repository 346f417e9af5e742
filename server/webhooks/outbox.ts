/**
 * The webhook outbox's two units of work, named so that SQLite runs them on its writer thread
 * (server/storage/unit.ts): claiming the deliveries that can start now, and recording how an
 * attempt went. The sender (server/workers/webhook-worker.ts) keeps the slots in flight and does
 * the network part; everything here is a transaction over plain data, so its statements and the
 * disk sync of its commit never stop the event loop that sends the deliveries.
 */
import type { DueEndpoint } from '../storage/repositories/deliveries.js';
import type { DeliveryRow, EventRow, Mode, WebhookEndpointRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import {
  type AttemptDecision,
  busyAccounts,
  busyEndpoints,
  capOf,
  circuitAfter,
  type DeliverySettings,
  fairTurns,
  givenUpBefore,
  room,
  type SlotCaps,
  Slots,
  type SlotsData,
  type Turn,
} from './delivery-policy.js';

/** A delivery leased to this process, with what sending it needs. */
export interface Claimed {
  delivery: DeliveryRow;
  event: EventRow | undefined;
  endpoint: WebhookEndpointRow | undefined;
  lease: number;
  accountKey: string;
  mode: Mode;
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
        row = tx.endpoints.byId(id);
        endpoints.set(id, row);
      }
      return row;
    };
    for (const mode of ['live', 'test'] as const) {
      if (room(s, a.caps, mode) <= 0) continue;
      const due = await tx.deliveries.dueEndpoints({
        now: a.now,
        mode,
        busyEndpoints: busyEndpoints(s, a.caps),
        busyAccounts: busyAccounts(s, a.caps, mode),
      });
      await takeInTurn(tx, a, due, s, mode, picked, endpointOf);
    }
    return picked;
  },
);

/** Leases, in the order `fairTurns` offers them, one due delivery of each endpoint offered. */
async function takeInTurn(
  tx: Tx,
  a: { now: number; leaseMs: number; caps: SlotCaps },
  due: DueEndpoint[],
  s: Slots,
  mode: Mode,
  picked: Claimed[],
  endpointOf: (id: string) => Promise<WebhookEndpointRow | undefined>,
): Promise<void> {
  const { now, caps } = a;
  // Each endpoint's due deliveries, read once per claim, as many as it has free slots.
  const buffers = new Map<string, string[]>();
  const nextOf = async (endpointId: string): Promise<string | undefined> => {
    let buffer = buffers.get(endpointId);
    if (!buffer) {
      const free = capOf(s, caps, endpointId) - (s.byEndpoint.get(endpointId) ?? 0);
      buffer = await tx.deliveries.dueOf({
        endpointId,
        now,
        limit: free,
        busyDeliveries: [...s.deliveries],
      });
      buffers.set(endpointId, buffer);
    }
    return buffer.shift();
  };
  const take = async (endpoint: DueEndpoint): Promise<Turn> => {
    const id = await nextOf(endpoint.endpoint_id);
    if (id === undefined) return 'none';
    const lease = now + a.leaseMs;
    if (!(await tx.deliveries.lock(id, now, lease))) return 'lost';
    const accountKey = `${endpoint.account_id}:${mode}`;
    s.add(id, mode, accountKey, endpoint.endpoint_id, 1);
    picked.push(await leased(tx, id, lease, await endpointOf(endpoint.endpoint_id), accountKey, mode));
    return 'started';
  };
  const turns = fairTurns(due, s, caps, mode);
  for (let offer = turns.next(); !offer.done; ) offer = turns.next(await take(offer.value));
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
  const delivery = (await tx.deliveries.byId(id)) as DeliveryRow;
  return { delivery, event: await tx.events.byId(delivery.event_id), endpoint, lease, accountKey, mode };
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
export interface AttemptOutcome extends AttemptDecision {
  id: string;
  lease: number;
  last_attempt_at: number;
  last_response_status: number | null;
  last_error: string | null;
  duration_ms: number;
}

/**
 * Records one attempt and the delivery's new state (if its lease is still ours), then the
 * endpoint's circuit as the policy decides it (`circuitAfter`), and after a failure gives up
 * what a paused endpoint kept past the retry period. `endpointId` is null when the endpoint is
 * gone.
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
      settings: DeliverySettings;
      handOver?: HandOver;
      release?: { id: string; lease: number }[];
    },
  ): Promise<Claimed[]> => {
    const { outcome } = a;
    await tx.deliveries.recordAttempt(outcome);
    for (const held of a.release ?? []) await tx.deliveries.release(held.id, held.lease);
    if (a.endpointId === null) return [];
    const circuit = await tx.endpoints.circuit(a.endpointId);
    if (!circuit) return [];
    const succeeded = outcome.status === 'succeeded';
    const attemptedAt = outcome.last_attempt_at;
    if (!succeeded) {
      await tx.deliveries.expire(a.endpointId, givenUpBefore(attemptedAt, a.settings), attemptedAt);
    }
    const next = circuitAfter(circuit, succeeded, attemptedAt, a.settings);
    if (next) await tx.endpoints.setCircuit(a.endpointId, next);
    return succeeded && a.handOver ? handOverSlot(tx, a.endpointId, a.handOver) : [];
  },
);

/**
 * Leases the endpoint's oldest due deliveries for a slot handed over, at most `h.deliveries`.
 * What another slot leased first is no longer due here: units of one SQLite batch see each
 * other's writes, and PostgreSQL runs each in a SERIALIZABLE transaction that is tried again on
 * a conflict.
 */
async function handOverSlot(tx: Tx, endpointId: string, h: HandOver): Promise<Claimed[]> {
  const endpoint = await tx.endpoints.byId(endpointId);
  if (!endpoint || endpoint.deleted_at !== null) return [];
  const ids = await tx.deliveries.dueOf({
    endpointId,
    now: h.now,
    limit: h.deliveries,
    busyDeliveries: h.busyDeliveries,
  });
  const lease = h.now + h.leaseMs;
  const taken: Claimed[] = [];
  for (const id of ids) {
    if (await tx.deliveries.lock(id, h.now, lease)) {
      taken.push(await leased(tx, id, lease, endpoint, h.accountKey, h.mode));
    }
  }
  return taken;
}
