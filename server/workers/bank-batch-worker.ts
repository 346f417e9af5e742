import type { Logger } from 'pino';
import { batchAllWaiting } from '../domain/bank-batches.js';
import type { Deps } from '../domain/context.js';
import { startPollingWorker, type Worker } from './polling-worker.js';

/**
 * Gathers waiting bank payouts into batches, one pain.001 file per account, mode and currency
 * (server/domain/bank-batches.ts), every `BANK_BATCH_INTERVAL_MS`; POST /bank-batches does the
 * same for one account at once.
 */
export function startBankBatchWorker(deps: Deps, logger: Logger, options: { autostart: boolean }): Worker {
  return startPollingWorker({
    name: 'bank-batches',
    pollMs: deps.config.bankBatchIntervalMs,
    pass: async () => {
      const { batches, more } = await batchAllWaiting(deps);
      return { count: batches, more };
    },
    logger,
    autostart: options.autostart,
  });
}
