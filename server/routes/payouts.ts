import type { BulkPayoutCreate, PayoutCreate, RefundCreate } from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as payouts from '../domain/payouts.js';
import { sendRendered, sendSuccess, success } from '../http/envelope.js';
import { idempotencyIntent } from '../http/idempotency.js';
import type { OperationRouter } from '../http/operation-router.js';
import { payoutsPage } from '../http/renderings.js';
import { toPayout } from '../http/representations.js';
import type { ListedPayoutRow } from '../storage/rows.js';
import { callerOf, createdRange, pageOf, pathId, text } from './query.js';

function toBulk(bulk: payouts.BulkPayout) {
  return {
    bulk_id: bulk.bulkId,
    currency: bulk.currency,
    count: bulk.payouts.length,
    total_amount: bulk.totalAmount,
    items: bulk.payouts.map(toPayout),
  };
}

export function payoutRoutes(deps: Deps, router: OperationRouter): void {
  const renderPayout = (row: ListedPayoutRow) => success(toPayout(row));

  router.post('/payouts', async (req, res) => {
    const payout = await payouts.createPayout(
      deps,
      callerOf(req),
      req.body as PayoutCreate,
      idempotencyIntent(req, 202, renderPayout),
    );
    sendSuccess(res, 202, toPayout(payout));
  });

  router.post('/payouts/bulk', async (req, res) => {
    const bulk = await payouts.createBulkPayout(
      deps,
      callerOf(req),
      req.body as BulkPayoutCreate,
      idempotencyIntent(req, 202, (b: payouts.BulkPayout) => success(toBulk(b))),
    );
    sendSuccess(res, 202, toBulk(bulk));
  });

  router.post('/refunds', async (req, res) => {
    const refund = await payouts.createRefund(
      deps,
      callerOf(req),
      req.body as RefundCreate,
      idempotencyIntent(req, 202, renderPayout),
    );
    sendSuccess(res, 202, toPayout(refund));
  });

  router.get('/payouts', async (req, res) => {
    const page = await payouts.listPayouts(
      deps,
      callerOf(req),
      {
        status: text(req, 'status'),
        payout_type: text(req, 'payout_type'),
        bulk_id: text(req, 'bulk_id'),
        payment_id: text(req, 'payment_id'),
        ...createdRange(req),
      },
      pageOf(req),
      { rendering: payoutsPage, context: null },
    );
    sendRendered(res, 200, page);
  });

  router.get('/payouts/:id', async (req, res) => {
    sendSuccess(res, 200, toPayout(await payouts.getPayout(deps, callerOf(req), pathId(req))));
  });
}
