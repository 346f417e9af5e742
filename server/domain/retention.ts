/**
 * Retention: idempotency records past their 24 hours and call logs past LOG_RETENTION_DAYS are
 * deleted a bounded batch at a time, so the table never grows without end and the delete never
 * holds the writer long.
 *
 * One statement deleting all that had expired since the last purge held the only writer for as
 * long as that took, and every request queued behind it: 500,000 call logs took 8.0 s and as
 * many idempotency records 5.9 s, and at 1,000 requests a second an hour of call logs is 3.6
 * million rows (docs/benchmarks.md). A batch here is a few milliseconds; the worker that runs
 * it takes the next at once while batches come back full, so a backlog drains at the pace the
 * store allows, between the requests' commits.
 */
import { defineUnit } from '../storage/unit.js';
import type { Deps } from './context.js';
import { idempotencyWindowMs } from './transaction.js';

/**
 * The most rows of each table one batch deletes, the oldest first: 50 and 50 held the writer
 * 4.3 ms (median; 6.1 ms at most) on tables of 200,000 each, 100 and 100 7.6 ms, 500 and 500
 * 60 ms.
 */
export const retentionBatch = 50;
/** How often the tables are looked at when the last batch found less than a full one. */
export const retentionCheckMs = 10_000;

/** Deletes up to `limit` of each: idempotency records and call logs older than their cutoffs. */
export const purgeExpired = defineUnit(
  'retention.purge',
  async (tx, a: { recordsBefore: number; logsBefore: number; limit: number }) => ({
    records: await tx.idempotency.purge(a.recordsBefore, a.limit),
    logs: await tx.logs.purge(a.logsBefore, a.limit),
  }),
);

/**
 * One retention step for a worker's pass: a batch when the last was full or `retentionCheckMs`
 * has gone by, nothing otherwise. `more` says a full batch was deleted: there may be more now.
 */
export function retention(deps: Deps): () => Promise<{ purged: number; more: boolean }> {
  let nextCheck = Number.NEGATIVE_INFINITY;
  let more = false;
  return async () => {
    const now = deps.clock.now();
    if (!more && now < nextCheck) return { purged: 0, more: false };
    nextCheck = now + retentionCheckMs;
    const { records, logs } = await deps.store.run(purgeExpired, {
      recordsBefore: now - idempotencyWindowMs,
      logsBefore: now - deps.config.logRetentionDays * 86_400_000,
      limit: retentionBatch,
    });
    more = records === retentionBatch || logs === retentionBatch;
    return { purged: records + logs, more };
  };
}
