import type { RequestHandler } from 'express';
import type { Deps } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';
import { sendSuccess } from '../http/envelope.js';

/** Liveness and database check, for load balancers; needs no key. */
export function healthCheck(deps: Deps): RequestHandler {
  return async (_req, res) => {
    try {
      await deps.store.ping();
    } catch (cause) {
      throw new ApiError(503, 'service_unavailable', 'The database does not answer.', { cause });
    }
    sendSuccess(res, 200, { service: 'ok', database: 'ok' });
  };
}
