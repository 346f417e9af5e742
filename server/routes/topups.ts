import type { TopupCreate } from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as topups from '../domain/topups.js';
import { sendRendered, sendSuccess, success } from '../http/envelope.js';
import { idempotencyIntent } from '../http/idempotency.js';
import type { OperationRouter } from '../http/operation-router.js';
import { topupsPage } from '../http/renderings.js';
import { toTopup } from '../http/representations.js';
import type { TopupRow } from '../storage/rows.js';
import { callerOf, createdRange, pageOf, pathId, text } from './query.js';

export function topupRoutes(deps: Deps, router: OperationRouter): void {
  router.post('/topups', async (req, res) => {
    const topup = await topups.createTopup(
      deps,
      callerOf(req),
      req.body as TopupCreate,
      idempotencyIntent(req, 202, (row: TopupRow) => success(toTopup(row))),
    );
    sendSuccess(res, 202, toTopup(topup));
  });

  router.get('/topups', async (req, res) => {
    const page = await topups.listTopups(
      deps,
      callerOf(req),
      { status: text(req, 'status'), ...createdRange(req) },
      pageOf(req),
      { rendering: topupsPage, context: null },
    );
    sendRendered(res, 200, page);
  });

  router.get('/topups/:id', async (req, res) => {
    sendSuccess(res, 200, toTopup(await topups.getTopup(deps, callerOf(req), pathId(req))));
  });
}
