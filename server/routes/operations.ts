import type { ApiKeyCreate, ApiKeyRotate } from '../../generated/openapi.js';
import * as accounts from '../domain/accounts.js';
import type { Deps } from '../domain/context.js';
import * as logs from '../domain/logs.js';
import { sendJson, sendSuccess } from '../http/envelope.js';
import type { OperationRouter } from '../http/operation-router.js';
import { apiKeyResponse, creationResponse, logsPage, rotationResponse } from '../http/renderings.js';
import { toApiKey, toPage } from '../http/representations.js';
import { callerOf, listQuery, pageOf, pathId } from './query.js';

/** Call logs and API keys: what an account sees of its own use of the API. */
export function operationRoutes(deps: Deps, router: OperationRouter): void {
  router.get('/logs', async (req, res) => {
    const page = await logs.listLogs(deps, callerOf(req), listQuery<'listLogs'>(req), pageOf(req), {
      rendering: logsPage,
      context: null,
    });
    sendJson(res, 200, page);
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

  const now = () => deps.clock.now();
  router.post('/api-keys', { status: 201, rendering: creationResponse, context: now }, (req, answer, res) => {
    res.setHeader('Cache-Control', 'no-store');
    return accounts.createKey(deps, callerOf(req), (req.body as ApiKeyCreate).role, answer);
  });

  router.post(
    '/api-keys/rotate',
    { status: 201, rendering: rotationResponse, context: now },
    (req, answer, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const grace = (req.body as ApiKeyRotate | undefined)?.grace_period_seconds ?? 0;
      return accounts.rotateKey(deps, callerOf(req), grace, answer);
    },
  );

  router.post(
    '/api-keys/:id/revoke',
    { status: 200, rendering: apiKeyResponse, context: now },
    (req, answer) => accounts.revokeKey(deps, callerOf(req), pathId(req), answer),
  );
}
