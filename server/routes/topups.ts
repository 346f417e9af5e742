import type { TopupCreate } from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as topups from '../domain/topups.js';
import { sendJson, sendSuccess } from '../http/envelope.js';
import type { OperationRouter } from '../http/operation-router.js';
import { topupResponse, topupsPage } from '../http/renderings.js';
import { toTopup } from '../http/representations.js';
import { callerOf, listQuery, pageOf, pathId } from './query.js';

export function topupRoutes(deps: Deps, router: OperationRouter): void {
  router.post('/topups', { status: 202, rendering: topupResponse }, (req, answer) =>
    topups.createTopup(deps, callerOf(req), req.body as TopupCreate, answer),
  );

  router.get('/topups', async (req, res) => {
    const page = await topups.listTopups(deps, callerOf(req), listQuery<'listTopups'>(req), pageOf(req), {
      rendering: topupsPage,
      context: null,
    });
    sendJson(res, 200, page);
  });

  router.get('/topups/:id', async (req, res) => {
    sendSuccess(res, 200, toTopup(await topups.getTopup(deps, callerOf(req), pathId(req))));
  });
}
