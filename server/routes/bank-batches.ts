import * as bankBatches from '../domain/bank-batches.js';
import type { Deps } from '../domain/context.js';
import { sendSuccess } from '../http/envelope.js';
import type { OperationRouter } from '../http/operation-router.js';
import { bankBatchResponse, bankStatementResponse } from '../http/renderings.js';
import { toBankBatch } from '../http/representations.js';
import { callerOf, pageOf, pathId } from './query.js';

/** Bank payouts' batches, their pain.001 files and the bank's camt.054 statements. */
export function bankBatchRoutes(deps: Deps, router: OperationRouter): void {
  router.post('/bank-batches', { status: 201, rendering: bankBatchResponse }, (req, answer) =>
    bankBatches.createBankBatch(deps, callerOf(req), answer),
  );
  router.post(
    '/bank-batches/:id/statements',
    { status: 200, rendering: bankStatementResponse },
    (req, answer) =>
      bankBatches.uploadStatement(deps, callerOf(req), pathId(req), req.body as string, answer),
  );

  router.get('/bank-batches', async (req, res) => {
    const batches = await bankBatches.listBankBatches(deps, callerOf(req), pageOf(req).limit);
    sendSuccess(res, 200, { items: batches.map(toBankBatch) });
  });

  router.get('/bank-batches/:id', async (req, res) => {
    sendSuccess(res, 200, toBankBatch(await bankBatches.getBankBatch(deps, callerOf(req), pathId(req))));
  });

  router.get('/bank-batches/:id/file', async (req, res) => {
    const file = await bankBatches.batchFile(deps, callerOf(req), pathId(req));
    res.type('application/xml').send(file);
  });

  router.get('/bank-batches/:id/sandbox-statement', async (req, res) => {
    const statement = await bankBatches.sandboxStatement(deps, callerOf(req), pathId(req));
    res.type('application/xml').send(statement);
  });
}
