/**
 * What "settlement carried on" means to the fault tests: every movement in the database reaches
 * the status its sandbox number decides (1 fails, 4 never settles, others succeed), and the
 * wait for it, on either engine.
 */
import type { DatabaseTarget } from '../../support/child-server.js';
import { expectedOutcome, pollUntil } from './load.js';
import { type Kind, type MoneySnapshot, type Movement, readMoney } from './money.js';

/** The status each kind of movement ends in, by the outcome its number decides. */
const statusOf: Record<Kind, Record<ReturnType<typeof expectedOutcome>, string>> = {
  payment: { success: 'success', failed: 'failed', pending: 'initiated' },
  topup: { success: 'success', failed: 'failed', pending: 'initiated' },
  payout: { success: 'success', failed: 'failed', pending: 'pending' },
};

/** The status a movement of `kind` to or from `msisdn` ends in. */
export function settledStatus(kind: Kind, msisdn: string): string {
  return statusOf[kind][expectedOutcome(msisdn)];
}

/** The movements not (yet) in the status their number decides, described for a failure message. */
export function unsettled(snapshot: MoneySnapshot): string[] {
  return snapshot.movements
    .filter((m: Movement) => m.status !== settledStatus(m.kind, m.msisdn ?? ''))
    .map((m) => `${m.kind} ${m.id} ${m.msisdn} ${m.status}`);
}

/**
 * Reads the database until every movement is settled or `timeoutMs` passes; returns the last
 * snapshot either way (its `unsettled` says what never settled).
 */
export function waitForSettlement(database: DatabaseTarget, timeoutMs = 30_000): Promise<MoneySnapshot> {
  return pollUntil(
    () => readMoney(database),
    (snapshot) => unsettled(snapshot).length === 0,
    timeoutMs,
  );
}

/**
 * The movements no request of the test made: without a reference, or with one that is neither a
 * request's key nor the funding top-up's (`fundKey`), described for a failure message.
 */
export function strangers(snapshot: MoneySnapshot, keys: Iterable<string>, fundKey: string): string[] {
  const known = new Set([...keys, fundKey]);
  return snapshot.movements
    .filter((m) => m.reference === null || !known.has(m.reference))
    .map((m) => `${m.kind} ${m.id} reference ${m.reference}`);
}
