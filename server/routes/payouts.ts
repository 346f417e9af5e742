import type { BulkPayoutCreate, PayoutCreate, RefundCreate } from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as payouts from '../domain/payouts.js';
import { sendJson, sendSuccess } from '../http/envelope.js';
import type { OperationRouter } from '../http/operation-router.js';
import { bulkPayoutResponse, payoutResponse, payoutsPage } from '../http/renderings.js';
import { toPayout } from '../http/representations.js';
import { callerOf, listQuery, pageOf, pathId } from './query.js';

export function payoutRoutes(deps: Deps, router: OperationRouter): void {
  router.post('/payouts', { status: 202, rendering: payoutResponse }, (req, answer) =>
    payouts.createPayout(deps, callerOf(req), req.body as PayoutCreate, answer),
  );
  router.post('/payouts/bulk', { status: 202, rendering: bulkPayoutResponse }, (req, answer) =>
    payouts.createBulkPayout(deps, callerOf(req), req.body as BulkPayoutCreate, answer),
  );
  router.post('/refunds', { status: 202, rendering: payoutResponse }, (req, answer) =>
    payouts.createRefund(deps, callerOf(req), req.body as RefundCreate, answer),
  );

  router.get('/payouts', async (req, res) => {
    const page = await payouts.listPayouts(deps, callerOf(req), listQuery<'listPayouts'>(req), pageOf(req), {
      rendering: payoutsPage,
      context: null,
    });
    sendJson(res, 200, page);
  });

  router.get('/payouts/:id', async (req, res) => {
    sendSuccess(res, 200, toPayout(await payouts.getPayout(deps, callerOf(req), pathId(req))));
  });
}
