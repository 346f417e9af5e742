import type { Deps } from './context.js';

/** The table of each kind of movement an operator request is for, by its id's prefix. */
const tableOf = new Map<string, 'payments' | 'topups' | 'payouts'>([
  ['pay', 'payments'],
  ['tu', 'topups'],
  ['po', 'payouts'],
]);

/**
 * Look-ups in flight, per store, by id and reference: callbacks for one movement that arrive
 * together share one read.
 */
const inFlightOf = new WeakMap<object, Map<string, Promise<boolean>>>();

/**
 * An operator's callback (MTN's X-Callback-Url, Orange's notifUrl) named one of our movements
 * and its reference. Its body is never read: anyone can post anything to an unauthenticated URL.
 * Answers whether a movement with that id and reference is still pending, which asks for a
 * settlement pass now (false for an id of another kind, or a movement already final).
 *
 * It writes nothing: every pending movement is asked about again one poll interval after its
 * last status check (SETTLEMENT_POLL_MS), or is being asked about right now under a pass's claim,
 * so a callback has nothing to bring forward; it only saves waiting for the next poll. A burst of
 * callbacks for one movement therefore costs no write, one read at a time, and at most one status
 * check in flight (the claim), however many arrive
 * (docs/decisions/0033-operator-callbacks-bounded.md). The row is found by its id's index
 * (docs/decisions/0022-operator-callbacks-by-transaction-id.md).
 */
export function operatorCallback(deps: Deps, transactionId: string, operatorRef: string): Promise<boolean> {
  const table = tableOf.get(transactionId.slice(0, transactionId.indexOf('_')));
  if (!table) return Promise.resolve(false);
  const inFlight = inFlightOf.get(deps.store) ?? new Map<string, Promise<boolean>>();
  inFlightOf.set(deps.store, inFlight);
  const key = `${transactionId}/${operatorRef}`;
  let found = inFlight.get(key);
  if (!found) {
    found = deps.store
      .read(async (tx) => tx[table].isPendingWith(transactionId, operatorRef))
      .finally(() => inFlight.delete(key));
    inFlight.set(key, found);
  }
  return found;
}
