import type { Logger } from 'pino';
import type { Deps } from '../domain/context.js';
import { settleBacklog } from '../domain/settlement.js';
import { startPollingWorker, type WakeableWorker } from './polling-worker.js';

/**
 * Polls the operators for pending payments, top-ups and payouts every `settlementPollMs`, and
 * at once again while a pass finds a full batch due (a backlog drains at the pace the store
 * and the operators allow, not a batch per poll). A pass takes up to ten batches back to back,
 * each claimed while the one before commits (`settleBacklog`). Everything it needs is in the
 * database, so after a restart it simply carries on.
 */
export function startSettlementWorker(
  deps: Deps,
  logger: Logger,
  options: { autostart: boolean },
): WakeableWorker {
  return startPollingWorker({
    name: 'settlement',
    pollMs: deps.config.settlementPollMs,
    pass: async (worker) => {
      const { settled, more } = await settleBacklog(deps, { keepGoing: () => !worker.stopping() });
      return { count: settled, more };
    },
    logger,
    autostart: options.autostart,
  });
}
