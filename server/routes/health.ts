import type { RequestHandler } from 'express';
import type { Deps } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';
import { sendSuccess } from '../http/envelope.js';
import { toOperatorConnection } from '../http/representations.js';

/**
 * Liveness and database check, for load balancers; needs no key. The live operators' state is
 * shown beside it and never fails it: the service is up when an operator is not
 * (docs/decisions/0041-operators-connected.md).
 */
export function healthCheck(deps: Deps): RequestHandler {
  return async (_req, res) => {
    try {
      await deps.store.ping();
    } catch (cause) {
      throw new ApiError(503, 'service_unavailable', 'The database does not answer.', { cause });
    }
    sendSuccess(res, 200, {
      service: 'ok',
      database: 'ok',
      operators: deps.operatorHealth.list().map(toOperatorConnection),
    });
  };
}
