import type { Logger } from 'pino';
import type { Deps } from '../domain/context.js';
import { purgeExpiredBatch, retentionCheckMs } from '../domain/retention.js';
import { startPollingWorker, type Worker } from './polling-worker.js';

/**
 * Deletes expired idempotency records and call logs (server/domain/retention.ts): a batch every
 * `retentionCheckMs`, and the next at once while batches come back full.
 */
export function startRetentionWorker(deps: Deps, logger: Logger, options: { autostart: boolean }): Worker {
  return startPollingWorker({
    name: 'retention',
    pollMs: retentionCheckMs,
    pass: async () => {
      const { purged, more } = await purgeExpiredBatch(deps);
      return { count: purged, more };
    },
    logger,
    autostart: options.autostart,
  });
}
