import type { Deps } from './context.js';

/**
 * An operator's callback (MTN's X-Callback-Url, Orange's notifUrl) named one of our references.
 * Its body is never read: anyone can post anything to an unauthenticated URL. It only makes
 * the pending request with that reference due for a status check now; the operator's answer
 * to that check is what settles it. Returns whether a pending request has that reference.
 */
export async function operatorCallback(deps: Deps, operatorRef: string): Promise<boolean> {
  const now = deps.clock.now();
  return deps.store.transact(
    async (tx) =>
      (await tx.payments.checkNow(operatorRef, now)) ||
      (await tx.topups.checkNow(operatorRef, now)) ||
      (await tx.payouts.checkNow(operatorRef, now)),
  );
}
