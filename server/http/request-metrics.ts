import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics.js';
import { contractMatch } from './openapi-validator.js';
import { loggedPath } from './routing.js';

/**
 * Counts and times every answered request by contract operation (never by raw path, whose ids
 * would make a series per object), and writes one structured log line per request.
 */
export function observeRequests(metrics: Metrics, logger: Logger): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - req.context.startedAt) / 1e6;
      const operation = contractMatch(req)?.schema.operationId ?? 'unmatched';
      metrics.observeRequest({
        operation,
        method: req.method,
        status: res.statusCode,
        durationSeconds: durationMs / 1000,
      });
      if (!logger.isLevelEnabled('info')) return;
      // One line with the request id in it, not a child logger built per request.
      logger.info(
        {
          request_id: req.context.requestId,
          method: req.method,
          path: loggedPath(req.originalUrl), // as sent (its secrets redacted): the full path, wherever a router trimmed it
          operation,
          status: res.statusCode,
          duration_ms: Math.round(durationMs * 1000) / 1000,
          error_code: req.context.errorCode,
        },
        'request',
      );
    });
    next();
  };
}
