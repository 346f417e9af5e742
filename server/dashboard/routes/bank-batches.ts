import { type Request, type Response, Router } from 'express';
import {
  batchFile,
  batchPayouts,
  createBankBatch,
  getBankBatch,
  listBankBatches,
  sandboxStatement,
  uploadStatement,
} from '../../domain/bank-batches.js';
import type { Deps } from '../../domain/context.js';
import type { Mode } from '../../storage/rows.js';
import { can } from '../auth.js';
import { translatorOf } from '../i18n.js';
import { bankBatchDetail, bankBatchesView, statementSummary } from '../views/bank-batches.js';
import { base } from '../views/layout.js';
import { act, bodyOf, callerOf, render, requirePermission } from './context.js';

const canMoveMoney = (req: Request) => Boolean(req.dashboard && can(req.dashboard.user.role, 'refund'));

/** An XML document to save, named for its batch. */
function sendXml(res: Response, name: string, xml: string): void {
  res.type('application/xml');
  res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
  res.send(xml);
}

/**
 * Bank batches: the list, a batch with its payouts and statements, its pain.001 file and the
 * statement upload. Reading is for every role; making a batch, its file and statements move
 * money, so they are the owner's (the `refund` permission).
 */
export function bankBatchRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  router.get('/bank-batches', async (req, res) => {
    const batches = await listBankBatches(deps, await callerOf(deps, req, mode), 100);
    await render(deps, req, res, mode, '/bank-batches', translatorOf(res).t('nav.bankBatches'), (ctx) =>
      bankBatchesView(ctx, batches, canMoveMoney(req)),
    );
  });

  router.post('/bank-batches', async (req, res) => {
    await act(deps, req, res, `${base(mode)}/bank-batches`, async () => {
      requirePermission(req, res, 'refund');
      const { batch } = await createBankBatch(deps, await callerOf(deps, req, mode));
      const t = translatorOf(res);
      return t.t('bank.batched', {
        id: batch.id,
        count: batch.payout_count,
        amount: t.money(batch.control_sum, batch.currency),
      });
    });
  });

  router.get('/bank-batches/:id', async (req, res) => {
    const caller = await callerOf(deps, req, mode);
    const id = req.params.id as string;
    const batch = await getBankBatch(deps, caller, id);
    const payouts = await batchPayouts(deps, caller, id);
    await render(
      deps,
      req,
      res,
      mode,
      `/bank-batches/${id}`,
      translatorOf(res).t('bank.batchTitle', { id }),
      (ctx) => bankBatchDetail(ctx, batch, payouts, canMoveMoney(req)),
    );
  });

  router.get('/bank-batches/:id/file', async (req, res) => {
    requirePermission(req, res, 'refund');
    const id = req.params.id as string;
    sendXml(res, `${id}.pain.001.xml`, await batchFile(deps, await callerOf(deps, req, mode), id));
  });

  router.get('/bank-batches/:id/sandbox-statement', async (req, res) => {
    requirePermission(req, res, 'refund');
    const id = req.params.id as string;
    sendXml(res, `${id}.camt.054.xml`, await sandboxStatement(deps, await callerOf(deps, req, mode), id));
  });

  router.post('/bank-batches/:id/statements', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${base(mode)}/bank-batches/${id}`, async () => {
      requirePermission(req, res, 'refund');
      const applied = await uploadStatement(
        deps,
        await callerOf(deps, req, mode),
        id,
        bodyOf(req).statement ?? '',
      );
      return statementSummary(translatorOf(res), applied);
    });
  });
  return router;
}
