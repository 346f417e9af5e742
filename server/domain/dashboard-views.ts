/**
 * What the dashboard's pages show beyond single API resources: the overview's figures and a
 * movement's timeline. Read-only; everything is scoped to the caller's account and mode.
 */

import type { EventQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';
import type { Tx } from '../storage/repositories/index.js';
import type {
  AttemptRow,
  DeliveryRow,
  EventRow,
  LedgerRow,
  ServiceRow,
  WebhookEndpointRow,
} from '../storage/rows.js';
import type { Caller, Deps } from './context.js';

const dayMs = 86_400_000;

export interface DailyVolume {
  /** Start of the day (UTC), epoch ms. */
  day: number;
  payments: number;
  payouts: number;
}

export async function overview(deps: Deps, caller: Caller, days = 30) {
  const now = deps.clock.now();
  const from = Math.floor(now / dayMs) * dayMs - (days - 1) * dayMs;
  return deps.store.read(async (tx) => {
    const balances = await tx.ledger.balances(caller.walletId);
    if (!balances.some((b) => b.currency === caller.defaultCurrency)) {
      balances.unshift({ currency: caller.defaultCurrency, available: 0 });
    }
    const rows = await tx.dashboard.dailyVolumes(caller.accountId, caller.mode, from);
    const currencies = new Set([caller.defaultCurrency, ...rows.map((r) => r.currency)]);
    const volumes = new Map<string, DailyVolume[]>();
    for (const currency of currencies) {
      volumes.set(
        currency,
        Array.from({ length: days }, (_, i) => ({ day: from + i * dayMs, payments: 0, payouts: 0 })),
      );
    }
    for (const row of rows) {
      const slot = volumes.get(row.currency)?.[row.day];
      if (slot) slot[row.kind] += row.amount;
    }
    const outcomes = async (by: 'day' | 'service' | 'operator') =>
      tx.dashboard.paymentOutcomes(caller.accountId, caller.mode, from, by);
    return {
      now,
      days,
      balances,
      volumes,
      rates: {
        byDay: (await outcomes('day')).map((r) => ({ ...r, key: from + Number(r.key) * dayMs })),
        byService: (await outcomes('service')).map((r) => ({ ...r, key: String(r.key) })),
        byOperator: (await outcomes('operator')).map((r) => ({
          ...r,
          key: r.key === null ? null : String(r.key),
        })),
      },
      payments: (await tx.payments.list(caller.accountId, caller.mode, {}, { limit: 5 })).items,
      payouts: (await tx.payouts.list(caller.accountId, caller.mode, {}, { limit: 5 })).items,
      failingEndpoints: await tx.dashboard.failingEndpoints(caller.accountId, caller.mode, now - 7 * dayMs),
    };
  });
}

export interface TimelineEvent {
  event: EventRow;
  deliveries: Array<{
    delivery: DeliveryRow;
    endpoint: WebhookEndpointRow | undefined;
    attempts: AttemptRow[];
  }>;
}

/** The webhook deliveries of an event, each with its endpoint and every attempt. */
async function deliveriesOf(tx: Tx, event: EventRow): Promise<TimelineEvent> {
  const deliveries: TimelineEvent['deliveries'] = [];
  for (const delivery of await tx.dashboard.deliveriesOfEvent(event.id)) {
    deliveries.push({
      delivery,
      endpoint: await tx.endpoints.byId(delivery.endpoint_id),
      attempts: await tx.dashboard.attempts(delivery.id),
    });
  }
  return { event, deliveries };
}

/**
 * The ledger entries and events of movements (a movement, or a payment and its refunds), with
 * every delivery attempt of each event.
 */
export async function movementTimeline(
  deps: Deps,
  caller: Caller,
  ...sourceIds: string[]
): Promise<{ ledger: LedgerRow[]; events: TimelineEvent[] }> {
  return deps.store.read(async (tx) => {
    const ledger: LedgerRow[] = [];
    const events: TimelineEvent[] = [];
    for (const sourceId of sourceIds) {
      ledger.push(...(await tx.dashboard.ledgerOfSource(caller.walletId, sourceId)));
      const page = await tx.events.list(
        caller.accountId,
        caller.mode,
        { transaction_id: sourceId },
        { limit: 100 },
      );
      for (const event of page.items) events.push(await deliveriesOf(tx, event));
    }
    return { ledger, events };
  });
}

/** A page of the caller's events, newest first, each with its deliveries and their attempts. */
export async function eventsWithDeliveries(deps: Deps, caller: Caller, query: EventQuery, page: PageRequest) {
  return deps.store.read(async (tx) => {
    const result = await tx.events.list(caller.accountId, caller.mode, query, page);
    const items: TimelineEvent[] = [];
    for (const event of result.items) items.push(await deliveriesOf(tx, event));
    return { ...result, items };
  });
}

/**
 * Every service of the caller's account and mode, deleted ones too (their payments still name
 * them), by name: what the pages show instead of a `svc_` id, and the lists' service filter.
 */
export async function servicesOf(deps: Deps, caller: Caller): Promise<ServiceRow[]> {
  return deps.store.read((tx) => tx.dashboard.servicesOfAccount(caller.accountId, caller.mode));
}

/** Count and amount of successful payments per service and currency, created in [from, to). */
export async function serviceVolumes(deps: Deps, caller: Caller, from: number, to: number) {
  return deps.store.read((tx) => tx.dashboard.serviceVolumes(caller.accountId, caller.mode, from, to));
}

/** An endpoint's deliveries, newest first, with the event each carried. */
export async function endpointDeliveries(
  deps: Deps,
  caller: Caller,
  endpointId: string,
  page: { limit: number; cursor?: string | undefined },
) {
  return deps.store.read(async (tx) => {
    const result = await tx.dashboard.deliveriesOfEndpoint(endpointId, page);
    const items = [];
    for (const delivery of result.items) {
      items.push({
        delivery,
        event: await tx.events.get(caller.accountId, caller.mode, delivery.event_id),
        attempts: await tx.dashboard.attempts(delivery.id),
      });
    }
    return { ...result, items };
  });
}

/**
 * What the dashboard's search box finds in the caller's account and mode: the movement an id
 * names (a payment, a payout or refund, a top-up), else those whose reference is the text, or
 * whose phone number starts with its digits (spaces, dashes, a leading + or 00 ignored).
 */
export async function searchMovements(deps: Deps, caller: Caller, text: string) {
  const q = text.trim().slice(0, 100);
  const typed = q
    .replace(/[\s\-().]/g, '')
    .replace(/^\+/, '')
    .replace(/^00/, '');
  const digits = /^\d{3,15}$/.test(typed) ? typed : null;
  const { accountId, mode } = caller;
  return deps.store.read(async (tx) => {
    const [payment, payout, topup] = await Promise.all([
      tx.payments.get(accountId, mode, q),
      tx.payouts.get(accountId, mode, q),
      tx.topups.get(accountId, mode, q),
    ]);
    const named = payment
      ? { kind: 'payments' as const, id: payment.id }
      : payout
        ? { kind: 'payouts' as const, id: payout.id }
        : topup
          ? { kind: 'topups' as const, id: topup.id }
          : null;
    if (named || q === '') return { q, named, payments: [], payouts: [], topups: [] };
    const [payments, payouts, topups] = await Promise.all([
      tx.payments.search(accountId, mode, q, digits),
      tx.payouts.search(accountId, mode, q, digits),
      tx.topups.search(accountId, mode, q, digits),
    ]);
    return { q, named, payments, payouts, topups };
  });
}
