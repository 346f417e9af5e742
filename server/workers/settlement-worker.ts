import type { Logger } from 'pino';
import type { Deps } from '../domain/context.js';
import { settleDue } from '../domain/settlement.js';
import { failureLog } from './failure-log.js';

export interface Worker {
  /** Runs one pass now (tests call it instead of waiting for the timer). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Polls the operators for pending payments, top-ups and payouts every `settlementPollMs`.
 * Everything it needs is in the database, so after a restart it simply carries on.
 */
export function startSettlementWorker(deps: Deps, logger: Logger, options: { autostart: boolean }): Worker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const runOnce = async (): Promise<number> => {
    while (running) await running.catch(() => 0);
    running = settleDue(deps).finally(() => {
      running = undefined;
    });
    return running;
  };

  const failures = failureLog(logger, 'settlement');
  const loop = async () => {
    try {
      await runOnce();
      failures.succeeded();
    } catch (err) {
      failures.failed(err);
    }
    if (!stopped) timer = setTimeout(loop, deps.config.settlementPollMs);
  };
  if (options.autostart) timer = setTimeout(loop, deps.config.settlementPollMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
