import type { HostedPaymentCreate, PaymentCreate } from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as payments from '../domain/payments.js';
import { sendJson, sendSuccess } from '../http/envelope.js';
import type { OperationRouter, WriteHandler } from '../http/operation-router.js';
import { paymentResponse, paymentsPage } from '../http/renderings.js';
import { toPayment } from '../http/representations.js';
import type { ListedPaymentRow, PaymentRow } from '../storage/rows.js';
import { callerOf, listQuery, pageOf, pathId } from './query.js';

export function paymentRoutes(deps: Deps, router: OperationRouter): void {
  const render = (row: ListedPaymentRow) => toPayment(row, deps.config.publicUrl);
  const answering = { status: 202, rendering: paymentResponse, context: () => deps.config.publicUrl };
  const direct: WriteHandler<PaymentRow> = (req, answer) =>
    payments.createDirectPayment(deps, callerOf(req), req.body as PaymentCreate, answer);
  router.post('/payments', answering, direct);
  router.post('/payments/direct', answering, direct);
  router.post('/payments/initiate', answering, (req, answer) =>
    payments.initiateHostedPayment(deps, callerOf(req), req.body as HostedPaymentCreate, answer),
  );

  router.get('/payments', async (req, res) => {
    const page = await payments.listPayments(
      deps,
      callerOf(req),
      listQuery<'listPayments'>(req),
      pageOf(req),
      { rendering: paymentsPage, context: deps.config.publicUrl },
    );
    sendJson(res, 200, page);
  });

  router.get('/payments/:id', async (req, res) => {
    sendSuccess(res, 200, render(await payments.getPayment(deps, callerOf(req), pathId(req))));
  });
}
