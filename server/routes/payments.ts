import type { RequestHandler } from 'express';
import type { HostedPaymentCreate, PaymentCreate } from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as payments from '../domain/payments.js';
import { sendRendered, sendSuccess } from '../http/envelope.js';
import { namedIdempotencyIntent } from '../http/idempotency.js';
import type { OperationRouter } from '../http/operation-router.js';
import { paymentResponse, paymentsPage } from '../http/renderings.js';
import { toPayment } from '../http/representations.js';
import type { ListedPaymentRow } from '../storage/rows.js';
import { callerOf, createdRange, pageOf, pathId, text } from './query.js';

export function paymentRoutes(deps: Deps, router: OperationRouter): void {
  const render = (row: ListedPaymentRow) => toPayment(row, deps.config.publicUrl);
  const direct: RequestHandler = async (req, res) => {
    const payment = await payments.createDirectPayment(
      deps,
      callerOf(req),
      req.body as PaymentCreate,
      namedIdempotencyIntent(req, 202, paymentResponse, deps.config.publicUrl),
    );
    sendSuccess(res, 202, render(payment));
  };

  const initiate: RequestHandler = async (req, res) => {
    const payment = await payments.initiateHostedPayment(
      deps,
      callerOf(req),
      req.body as HostedPaymentCreate,
      namedIdempotencyIntent(req, 202, paymentResponse, deps.config.publicUrl),
    );
    sendSuccess(res, 202, render(payment));
  };

  // Each is one named unit that stores its response in its own transaction (commitUnit).
  const inUnit = { keyCheckedInUnit: true };
  router.post('/payments', direct, inUnit);
  router.post('/payments/direct', direct, inUnit);
  router.post('/payments/initiate', initiate, inUnit);

  router.get('/payments', async (req, res) => {
    const page = await payments.listPayments(
      deps,
      callerOf(req),
      {
        status: text(req, 'status'),
        service_id: text(req, 'service_id'),
        flow: text(req, 'flow'),
        ...createdRange(req),
      },
      pageOf(req),
      { rendering: paymentsPage, context: deps.config.publicUrl },
    );
    sendRendered(res, 200, page);
  });

  router.get('/payments/:id', async (req, res) => {
    sendSuccess(res, 200, render(await payments.getPayment(deps, callerOf(req), pathId(req))));
  });
}
