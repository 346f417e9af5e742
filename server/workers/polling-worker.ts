import type { Logger } from 'pino';
import { failureLog } from './failure-log.js';

export interface Worker {
  /** Runs one pass now (tests call it instead of waiting for the timer). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `pollMs`, one pass at a time: a pass asked for while one runs waits for it.
 * Failures are logged without flooding and the loop carries on at the next tick.
 */
export function startPollingWorker(options: {
  name: string;
  pollMs: number;
  pass: () => Promise<number>;
  logger: Logger;
  autostart: boolean;
}): Worker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const runOnce = async (): Promise<number> => {
    while (running) await running.catch(() => 0);
    running = options.pass().finally(() => {
      running = undefined;
    });
    return running;
  };

  const failures = failureLog(options.logger, options.name);
  const loop = async () => {
    try {
      await runOnce();
      failures.succeeded();
    } catch (err) {
      failures.failed(err);
    }
    if (!stopped) timer = setTimeout(loop, options.pollMs);
  };
  if (options.autostart) timer = setTimeout(loop, options.pollMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
