import type { Logger } from 'pino';
import type { Deps } from '../domain/context.js';
import { settleDue } from '../domain/settlement.js';
import { startPollingWorker, type Worker } from './polling-worker.js';

/**
 * Polls the operators for pending payments, top-ups and payouts every `settlementPollMs`.
 * Everything it needs is in the database, so after a restart it simply carries on.
 */
export function startSettlementWorker(deps: Deps, logger: Logger, options: { autostart: boolean }): Worker {
  return startPollingWorker({
    name: 'settlement',
    pollMs: deps.config.settlementPollMs,
    pass: () => settleDue(deps),
    logger,
    autostart: options.autostart,
  });
}
