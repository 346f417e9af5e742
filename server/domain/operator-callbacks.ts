import type { Deps } from './context.js';

type Table = 'payments' | 'topups' | 'payouts';

/** The table of each kind of movement an operator request is for, by its id's prefix. */
const tableOf = new Map<string, Table>([
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
 * The movements operators called back about since the last settlement pass, per store, by
 * table: the next pass asks about them first, whenever their next check was due
 * (server/domain/settlement.ts). Held in memory, so a callback costs no write; only a
 * movement's own id and random reference put it here, so it holds no more than the pending
 * movements of this process's callbacks.
 */
const nudgedOf = new WeakMap<object, Map<Table, Set<string>>>();

/**
 * When each movement was last put in that set, per store: callbacks about one movement bring
 * its check forward once per `nudgeGapMs`, however many arrive (they are coalesced into one
 * status check, not one per settlement pass a burst spans).
 */
const lastNudgeOf = new WeakMap<object, Map<string, number>>();
const nudgeGapMs = 1000;

/**
 * An operator's callback (MTN's X-Callback-Url, Orange's notifUrl) named one of our movements
 * and its reference. Its body is never read: anyone can post anything to an unauthenticated URL.
 * Answers whether a movement with that id and reference is still pending (false for an id of
 * another kind, or a movement already final); if so, the next settlement pass asks the operator
 * about it first, however far its backed-off next check was (operators call back when a
 * movement has changed).
 *
 * It writes nothing: a burst of callbacks for one movement costs one read at a time, puts it
 * in the set the next pass takes once a second at most, and so one status check, whose claim
 * and outcome are the only writes (docs/decisions/0033-operator-callbacks-bounded.md). The row is found by its id's
 * index (docs/decisions/0022-operator-callbacks-by-transaction-id.md).
 */
export async function operatorCallback(
  deps: Deps,
  transactionId: string,
  operatorRef: string,
): Promise<boolean> {
  const table = tableOf.get(transactionId.slice(0, transactionId.indexOf('_')));
  if (!table) return false;
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
  const pending = await found;
  if (pending) nudge(deps, table, transactionId);
  return pending;
}

function nudge(deps: Deps, table: Table, id: string): void {
  const now = deps.clock.now();
  const last = lastNudgeOf.get(deps.store) ?? new Map<string, number>();
  lastNudgeOf.set(deps.store, last);
  if (now - (last.get(id) ?? Number.NEGATIVE_INFINITY) < nudgeGapMs) return;
  if (last.size >= 10_000) {
    for (const [other, at] of last) if (now - at >= nudgeGapMs) last.delete(other);
  }
  last.set(id, now);
  const nudged = nudgedOf.get(deps.store) ?? new Map<Table, Set<string>>();
  nudgedOf.set(deps.store, nudged);
  nudged.set(table, (nudged.get(table) ?? new Set<string>()).add(id));
}

/** The movements called back about since the last call, by table; the set is emptied. */
export function takeCalledBack(deps: Pick<Deps, 'store'>): Map<Table, string[]> {
  const nudged = nudgedOf.get(deps.store);
  nudgedOf.delete(deps.store);
  return new Map([...(nudged ?? [])].map(([table, ids]) => [table, [...ids]]));
}
