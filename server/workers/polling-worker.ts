import type { Logger } from 'pino';
import { failureLog } from './failure-log.js';

export interface Worker {
  /** Runs one pass now (tests call it instead of waiting for the timer). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** A worker on a timer that can also be woken (startPollingWorker). */
export interface WakeableWorker extends Worker {
  /**
   * Asks for a pass soon, without waiting for it: after the pass under way, if any. Wakes while
   * one is already waiting join it, so a burst of wakes (operator callbacks) costs one pass.
   */
  wake(): void;
}

/** What a pass did: `count` items done; `more`: work is left that the next pass can do now. */
export interface PassResult {
  count: number;
  more: boolean;
}

/**
 * Runs `pass` every `pollMs`, one pass at a time: a pass asked for while one runs waits for it.
 * A pass that says more is left is followed by the next at once, not after `pollMs`.
 * Failures are logged without flooding and the loop carries on at the next tick.
 */
export function startPollingWorker(options: {
  name: string;
  pollMs: number;
  /** `stopping()`: the worker is being stopped, so a pass that goes on in steps should end at the next. */
  pass: (worker: { stopping(): boolean }) => Promise<PassResult>;
  logger: Logger;
  autostart: boolean;
}): WakeableWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<PassResult> | undefined;
  let stopped = false;

  const pass = async (): Promise<PassResult> => {
    while (running) await running.catch(() => undefined);
    running = options.pass({ stopping: () => stopped }).finally(() => {
      running = undefined;
    });
    return running;
  };

  const failures = failureLog(options.logger, options.name);
  const loop = async () => {
    let more = false;
    try {
      ({ more } = await pass());
      failures.succeeded();
    } catch (err) {
      failures.failed(err);
    }
    if (!stopped) timer = setTimeout(loop, more ? 0 : options.pollMs);
  };
  if (options.autostart) timer = setTimeout(loop, options.pollMs);

  // A wake waiting for the pass under way; `woken` settles once the pass it asked for ends.
  let wakeWaiting = false;
  let woken: Promise<void> = Promise.resolve();
  const wake = () => {
    if (stopped || wakeWaiting) return;
    wakeWaiting = true;
    woken = (async () => {
      while (running) await running.catch(() => undefined);
      // From here on the pass reads what is due afresh: a wake after this point asks for another.
      wakeWaiting = false;
      if (stopped) return;
      try {
        await pass();
        failures.succeeded();
      } catch (err) {
        failures.failed(err);
      }
    })();
  };

  return {
    runOnce: async () => (await pass()).count,
    wake,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await woken;
      await running?.catch(() => undefined);
    },
  };
}
