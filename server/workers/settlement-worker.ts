import type { Logger } from 'pino';
import type { Deps } from '../domain/context.js';
import { retention } from '../domain/retention.js';
import { settleBacklog } from '../domain/settlement.js';
import { type PassResult, startPollingWorker, type Worker } from './polling-worker.js';

/**
 * Polls the operators for pending payments, top-ups and payouts every `settlementPollMs`, and
 * at once again while a pass finds a full batch due (a backlog drains at the pace the store
 * and the operators allow, not a batch per poll). A pass takes up to ten batches back to back,
 * each claimed while the one before commits (`settleBacklog`). Everything it needs is in the
 * database, so after a restart it simply carries on.
 */
export function startSettlementWorker(deps: Deps, logger: Logger, options: { autostart: boolean }): Worker {
  return startPollingWorker({
    name: 'settlement',
    pollMs: deps.config.settlementPollMs,
    pass: settlementPass(deps),
    logger,
    autostart: options.autostart,
  });
}

/**
 * The worker's pass: the settlement backlog, then a retention step. Housekeeping rides on the
 * same loop: idempotency records past their 24 hours and call logs past their retention are
 * deleted a bounded batch a pass, and the next pass comes at once while batches are full
 * (retention.ts).
 */
export function settlementPass(deps: Deps): (worker: { stopping(): boolean }) => Promise<PassResult> {
  const purgeExpired = retention(deps);
  return async (worker) => {
    const { settled, more } = await settleBacklog(deps, { keepGoing: () => !worker.stopping() });
    const purged = await purgeExpired();
    return { count: settled, more: more || purged.more };
  };
}
