/**
 * Retention: idempotency records past their 24 hours and call logs past LOG_RETENTION_DAYS are
 * deleted a bounded batch at a time, so the table never grows without end and the delete never
 * holds the writer long.
 *
 * One statement deleting all that had expired since the last purge held the only writer for as
 * long as that took, and every request queued behind it: seconds for an hour of call logs at a
 * busy account's rate (docs/performance.md, decision 0026). A batch here is short; the retention worker
 * (server/workers/retention-worker.ts) takes the next at once while batches come back full, so a
 * backlog drains at the pace the store allows, between the requests' commits.
 */
import { defineUnit } from '../storage/unit.js';
import type { Deps } from './context.js';
import { idempotencyWindowMs, write } from './write.js';

/**
 * The most rows of each table one batch deletes, the oldest first: small enough that a batch
 * holds the writer about as long as a request's own commit (docs/performance.md).
 */
export const retentionBatch = 50;
/** How often the retention worker looks at the tables when its last batch was not full. */
export const retentionCheckMs = 10_000;

/** Deletes up to `limit` of each: idempotency records and call logs older than their cutoffs. */
const purgeExpired = defineUnit(
  import.meta.url,
  'retention.purge',
  async (tx, a: { recordsBefore: number; logsBefore: number; limit: number }) => ({
    records: await tx.idempotency.purge(a.recordsBefore, a.limit),
    logs: await tx.logs.purge(a.logsBefore, a.limit),
  }),
);

/**
 * One batch: up to `retentionBatch` of each table, the oldest first. `more`: a batch came back
 * full, so there may be more to delete now.
 */
export async function purgeExpiredBatch(deps: Deps): Promise<{ purged: number; more: boolean }> {
  const now = deps.clock.now();
  const { records, logs } = await write(deps, purgeExpired, {
    recordsBefore: now - idempotencyWindowMs,
    logsBefore: now - deps.config.logRetentionDays * 86_400_000,
    limit: retentionBatch,
  });
  return { purged: records + logs, more: records === retentionBatch || logs === retentionBatch };
}
