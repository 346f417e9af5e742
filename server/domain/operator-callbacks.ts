import { defineUnit } from '../storage/unit.js';
import type { Deps } from './context.js';
import { write } from './write.js';

/** The table of each kind of movement an operator request is for, by its id's prefix. */
const tableOf = new Map<string, 'payments' | 'topups' | 'payouts'>([
  ['pay', 'payments'],
  ['tu', 'topups'],
  ['po', 'payouts'],
]);

/**
 * An operator's callback (MTN's X-Callback-Url, Orange's notifUrl) named one of our movements
 * and its reference. Its body is never read: anyone can post anything to an unauthenticated URL.
 * It only makes that movement, if still pending with that reference, due for a status check
 * now; the operator's answer to that check is what settles it. The row is found by its id's
 * index: an index of the random references, which every new payment, top-up and payout used to
 * write a random page of, is not needed (docs/decisions/0012-routing-callbacks-sandbox.md).
 * Returns whether a pending movement has that id and reference (false for an id of another kind).
 */
export async function operatorCallback(
  deps: Deps,
  transactionId: string,
  operatorRef: string,
): Promise<boolean> {
  const table = tableOf.get(transactionId.slice(0, transactionId.indexOf('_')));
  if (!table) return false;
  // Due at 0: before every other due row (they are read oldest check first), so the next pass
  // asks about it first, whatever backlog is waiting.
  return write(deps, checkNow, { table, transactionId, operatorRef, now: 0 });
}

/** Makes a pending movement with that id and reference due for a status check now. */
const checkNow = defineUnit(
  import.meta.url,
  'operators.check-now',
  (
    tx,
    a: { table: 'payments' | 'topups' | 'payouts'; transactionId: string; operatorRef: string; now: number },
  ) => tx[a.table].checkNow(a.transactionId, a.operatorRef, a.now),
);
