import type { Event, EventName, Metadata } from '../../generated/openapi.js';
import type { EndpointSubscription } from '../storage/repositories/webhook-endpoints.js';
import type { Mode } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { iso } from './clock.js';
import { newId } from './ids.js';

export interface TransactionOutcome {
  transaction_id: string;
  amount: number;
  currency: string;
  status: 'success' | 'failed' | 'expired';
  reference: string | null;
  /** The object's metadata as the contract shows it (`{}` when none was given). */
  metadata: Metadata;
  failure_code: string | null;
  /** The service a payment (or a refund's payment) belongs to; null for top-ups and payouts. */
  service_id: string | null;
  /** For a refund: the payment it returns; otherwise null. */
  payment_id: string | null;
}

/**
 * Records an event in the caller's transaction, and queues one delivery per enabled endpoint
 * that subscribes to it (the outbox): the event exists if and only if the change it announces
 * was committed.
 */
export async function recordEvent(
  tx: Tx,
  accountId: string,
  mode: Mode,
  name: EventName,
  data: TransactionOutcome,
  now: number,
): Promise<Event> {
  const event = {
    id: newId('evt'),
    event: name,
    data,
    timestamp: iso(now),
    mode,
  } as Event;
  await tx.events.insert({
    id: event.id,
    account_id: accountId,
    mode,
    event: name,
    transaction_id: data.transaction_id,
    payload: JSON.stringify(event),
    created_at: now,
  });
  for (const endpoint of await tx.endpoints.enabled(accountId, mode)) {
    if (subscribes(endpoint, name)) await tx.deliveries.insert(newId('whd'), event.id, endpoint.id, now, now);
  }
  return event;
}

/** Whether an endpoint takes an event: it lists it, or it lists none (all events). */
export function subscribes(endpoint: EndpointSubscription, name: string): boolean {
  return endpoint.events === null || (JSON.parse(endpoint.events) as string[]).includes(name);
}
