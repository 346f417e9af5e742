import type {
  EventResend,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookSecretRotation,
} from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as webhooks from '../domain/webhooks.js';
import { sendSuccess, success } from '../http/envelope.js';
import { idempotencyIntent } from '../http/idempotency.js';
import type { OperationRouter } from '../http/operation-router.js';
import { toDelivery, toEvent, toPage, toWebhookEndpoint } from '../http/representations.js';
import type { DeliveryRow, WebhookEndpointRow } from '../storage/rows.js';
import { callerOf, createdRange, pageOf, pathId, text } from './query.js';

/** The endpoint with its secret: shown only when it is created or rotated. */
function withSecret(row: WebhookEndpointRow) {
  return { ...toWebhookEndpoint(row), secret: row.secret };
}

function deliveryList(rows: DeliveryRow[]) {
  return { items: rows.map(toDelivery), has_more: false, next_cursor: null };
}

export function webhookRoutes(deps: Deps, router: OperationRouter): void {
  router.post('/webhook-endpoints', async (req, res) => {
    const endpoint = await webhooks.createWebhookEndpoint(
      deps,
      callerOf(req),
      req.body as WebhookEndpointCreate,
      idempotencyIntent(
        req,
        201,
        (row: WebhookEndpointRow) => success(withSecret(row)),
        (row) => row.id,
      ),
    );
    res.setHeader('Cache-Control', 'no-store');
    sendSuccess(res, 201, withSecret(endpoint));
  });

  router.get('/webhook-endpoints', async (req, res) => {
    const page = await webhooks.listWebhookEndpoints(deps, callerOf(req), pageOf(req));
    sendSuccess(res, 200, toPage(page, toWebhookEndpoint));
  });

  router.get('/webhook-endpoints/:id', async (req, res) => {
    const endpoint = await webhooks.getWebhookEndpoint(deps, callerOf(req), pathId(req));
    sendSuccess(res, 200, toWebhookEndpoint(endpoint));
  });

  router.put('/webhook-endpoints/:id', async (req, res) => {
    const endpoint = await webhooks.updateWebhookEndpoint(
      deps,
      callerOf(req),
      pathId(req),
      req.body as WebhookEndpointUpdate,
    );
    sendSuccess(res, 200, toWebhookEndpoint(endpoint));
  });

  router.delete('/webhook-endpoints/:id', async (req, res) => {
    await webhooks.deleteWebhookEndpoint(deps, callerOf(req), pathId(req));
    sendSuccess(res, 200, { id: pathId(req), deleted: true });
  });

  router.post('/webhook-endpoints/:id/rotate-secret', async (req, res) => {
    const endpoint = await webhooks.rotateWebhookEndpointSecret(
      deps,
      callerOf(req),
      pathId(req),
      (req.body as WebhookSecretRotation | undefined) ?? {},
      idempotencyIntent(
        req,
        200,
        (row: WebhookEndpointRow) => success(withSecret(row)),
        (row) => row.id,
      ),
    );
    res.setHeader('Cache-Control', 'no-store');
    sendSuccess(res, 200, withSecret(endpoint));
  });

  router.get('/events', async (req, res) => {
    const page = await webhooks.listEvents(
      deps,
      callerOf(req),
      { event: text(req, 'event'), transaction_id: text(req, 'transaction_id'), ...createdRange(req) },
      pageOf(req),
    );
    sendSuccess(res, 200, toPage(page, toEvent));
  });

  router.get('/events/:id', async (req, res) => {
    sendSuccess(res, 200, toEvent(await webhooks.getEvent(deps, callerOf(req), pathId(req))));
  });

  router.get('/events/:id/deliveries', async (req, res) => {
    const page = await webhooks.listEventDeliveries(deps, callerOf(req), pathId(req), pageOf(req));
    sendSuccess(res, 200, toPage(page, toDelivery));
  });

  router.post('/events/:id/resend', async (req, res) => {
    const deliveries = await webhooks.resendEvent(
      deps,
      callerOf(req),
      pathId(req),
      (req.body as EventResend | undefined)?.endpoint_id,
      idempotencyIntent(req, 202, (rows: DeliveryRow[]) => success(deliveryList(rows))),
    );
    sendSuccess(res, 202, deliveryList(deliveries));
  });
}
