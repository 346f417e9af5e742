import type { ApiKeyRotate } from '../../generated/openapi.js';
import * as accounts from '../domain/accounts.js';
import type { Deps } from '../domain/context.js';
import * as logs from '../domain/logs.js';
import { sendRendered, sendSuccess, success } from '../http/envelope.js';
import { idempotencyIntent } from '../http/idempotency.js';
import type { OperationRouter } from '../http/operation-router.js';
import { logsPage } from '../http/renderings.js';
import { toApiKey, toPage } from '../http/representations.js';
import type { ApiKeyRow } from '../storage/rows.js';
import { callerOf, createdRange, integer, pageOf, pathId, text } from './query.js';

/** Call logs and API keys: what an account sees of its own use of the API. */
export function operationRoutes(deps: Deps, router: OperationRouter): void {
  router.get('/logs', async (req, res) => {
    const page = await logs.listLogs(
      deps,
      callerOf(req),
      {
        method: text(req, 'method'),
        path: text(req, 'path'),
        status: integer(req, 'status'),
        status_class: text(req, 'status_class'),
        error_code: text(req, 'error_code'),
        request_id: text(req, 'request_id'),
        ...createdRange(req),
      },
      pageOf(req),
      { rendering: logsPage, context: null },
    );
    sendRendered(res, 200, page);
  });

  router.get('/api-keys', async (req, res) => {
    const page = await accounts.listKeys(deps, callerOf(req), pageOf(req));
    const now = deps.clock.now();
    sendSuccess(
      res,
      200,
      toPage(page, (row) => toApiKey(row, now)),
    );
  });

  router.post('/api-keys/rotate', async (req, res) => {
    const grace = (req.body as ApiKeyRotate | undefined)?.grace_period_seconds ?? 0;
    const render = (rotation: accounts.Rotation) => {
      const now = deps.clock.now();
      return {
        secret_key: rotation.secretKey,
        api_key: toApiKey(rotation.apiKey, now),
        previous_key: toApiKey(rotation.previousKey, now),
      };
    };
    const rotation = await accounts.rotateKey(
      deps,
      callerOf(req),
      grace,
      idempotencyIntent(
        req,
        201,
        (r: accounts.Rotation) => success(render(r)),
        (r) => r.apiKey.id,
      ),
    );
    res.setHeader('Cache-Control', 'no-store');
    sendSuccess(res, 201, render(rotation));
  });

  router.post('/api-keys/:id/revoke', async (req, res) => {
    const key = await accounts.revokeKey(
      deps,
      callerOf(req),
      pathId(req),
      idempotencyIntent(req, 200, (row: ApiKeyRow) => success(toApiKey(row, deps.clock.now()))),
    );
    sendSuccess(res, 200, toApiKey(key, deps.clock.now()));
  });
}
