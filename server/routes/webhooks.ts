import type {
  EventResend,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookSecretRotation,
} from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as webhooks from '../domain/webhooks.js';
import { sendSuccess } from '../http/envelope.js';
import type { OperationRouter } from '../http/operation-router.js';
import { deliveriesResponse, endpointWithSecretResponse } from '../http/renderings.js';
import { toDelivery, toEvent, toPage, toWebhookEndpoint } from '../http/representations.js';
import { callerOf, listQuery, pageOf, pathId } from './query.js';

export function webhookRoutes(deps: Deps, router: OperationRouter): void {
  router.post(
    '/webhook-endpoints',
    { status: 201, rendering: endpointWithSecretResponse },
    (req, answer, res) => {
      res.setHeader('Cache-Control', 'no-store');
      return webhooks.createWebhookEndpoint(deps, callerOf(req), req.body as WebhookEndpointCreate, answer);
    },
  );

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

  router.post(
    '/webhook-endpoints/:id/rotate-secret',
    { status: 200, rendering: endpointWithSecretResponse },
    (req, answer, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const rotation = (req.body as WebhookSecretRotation | undefined) ?? {};
      return webhooks.rotateWebhookEndpointSecret(deps, callerOf(req), pathId(req), rotation, answer);
    },
  );

  router.get('/events', async (req, res) => {
    const page = await webhooks.listEvents(deps, callerOf(req), listQuery<'listEvents'>(req), pageOf(req));
    sendSuccess(res, 200, toPage(page, toEvent));
  });

  router.get('/events/:id', async (req, res) => {
    sendSuccess(res, 200, toEvent(await webhooks.getEvent(deps, callerOf(req), pathId(req))));
  });

  router.get('/events/:id/deliveries', async (req, res) => {
    const page = await webhooks.listEventDeliveries(deps, callerOf(req), pathId(req), pageOf(req));
    sendSuccess(res, 200, toPage(page, toDelivery));
  });

  router.post('/events/:id/resend', { status: 202, rendering: deliveriesResponse }, (req, answer) => {
    const endpointId = (req.body as EventResend | undefined)?.endpoint_id;
    return webhooks.resendEvent(deps, callerOf(req), pathId(req), endpointId, answer);
  });
}
