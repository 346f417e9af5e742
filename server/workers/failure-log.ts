import type { Logger } from 'pino';

/**
 * Logs a background worker's failures without flooding: the same error is written once a
 * minute at most while it persists (a read-only disk fails every poll), and its end is noted.
 */
export function failureLog(logger: Logger, worker: string, everyMs = 60_000) {
  let last: { message: string; at: number } | undefined;
  return {
    failed(err: unknown): void {
      const message = err instanceof Error ? err.message : String(err);
      const now = Date.now();
      if (last && last.message === message && now - last.at < everyMs) return;
      last = { message, at: now };
      logger.error({ err, worker }, `${worker} pass failed; retrying on the next tick`);
    },
    succeeded(): void {
      if (!last) return;
      last = undefined;
      logger.info({ worker }, `${worker} recovered`);
    },
  };
}
