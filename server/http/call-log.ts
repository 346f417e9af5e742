import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import { newId } from '../domain/ids.js';
import { recordCalls } from '../domain/logs.js';
import type { CallLogRow } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import { apiPrefix, loggedPath } from './routing.js';

export interface CallLog {
  middleware: RequestHandler;
  /** Writes what is buffered now (tests, shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Records every API call after its response is sent, so the request path only pushes to an
 * array. The rows are written by one unit of work that rides with the store's next batch of
 * writes (`Store.runSoon`): under write load each group commit carries the few rows that
 * came since the last, instead of a large batch now and then holding up every request queued
 * with it (docs/performance.md: the one write outside `write()`); with no writes coming, they
 * are written after `flushMs`. Only metadata is kept: never keys, secrets or bodies.
 */
export function createCallLog(options: {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** The longest a row waits for a batch of writes to ride with. */
  flushMs?: number;
  /** Written at once, without waiting for a batch, when this many rows are waiting. */
  batchSize?: number;
}): CallLog {
  const { store, clock, logger } = options;
  const flushMs = options.flushMs ?? 25;
  const batchSize = options.batchSize ?? 500;
  let buffer: Array<Omit<CallLogRow, 'seq'>> = [];

  // Writes run one after the other: a flush (or the stop) resolves once everything recorded
  // before it is in the database, even rows a write already under way had taken.
  let writing: Promise<void> = Promise.resolve();
  let riding = false;
  const enqueue = (soon: boolean): Promise<void> => {
    writing = writing.then(() => write(soon));
    return writing;
  };
  const flush = () => enqueue(false);
  const write = async (soon: boolean) => {
    if (soon) riding = false;
    if (buffer.length === 0) return;
    // Taken when the unit boards its batch, not when it was queued: a rider carries every row
    // recorded until then. A PostgreSQL serialization retry runs it again with the same rows.
    let rows: Array<Omit<CallLogRow, 'seq'>> = [];
    const args = () => {
      rows = buffer;
      buffer = [];
      return { rows };
    };
    try {
      await (soon ? store.runSoon(recordCalls, args, flushMs) : store.run(recordCalls, args()));
    } catch (err) {
      logger.error({ err, dropped: rows.length }, 'could not write call logs');
    }
  };

  const middleware: RequestHandler = (req, res, next) => {
    res.on('finish', () => {
      // Every call to the API, by the route it matched or, when none did, by its prefix in any
      // case (/V1/payments is in the log too, never beside it); and every dashboard action.
      const userId = req.context.dashboardUserId;
      const dashboardAction = userId !== undefined && req.method === 'POST';
      if (!req.context.route && !apiPrefix.test(req.originalUrl) && !dashboardAction) return;
      const durationMs = Number(process.hrtime.bigint() - req.context.startedAt) / 1e6;
      const caller = req.context.caller;
      buffer.push({
        id: newId('log'),
        account_id: caller?.accountId ?? null,
        mode: caller?.mode ?? null,
        request_id: req.context.requestId,
        method: req.method,
        path: loggedPath(req.originalUrl), // as sent (its secrets redacted), the same text as the request log's
        status: res.statusCode,
        duration_ms: Math.round(durationMs * 1000) / 1000,
        key_id: caller?.keyId || null,
        error_code: req.context.errorCode ?? null,
        created_at: clock.now(),
        user_id: userId ?? null,
      });
      if (buffer.length >= batchSize) void flush();
      else if (!riding) {
        riding = true;
        void enqueue(true);
      }
    });
    next();
  };

  return {
    middleware,
    flush,
    async stop() {
      await flush();
    },
  };
}
