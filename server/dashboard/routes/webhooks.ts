import { Router } from 'express';
import { eventNameValues } from '../../../generated/openapi.js';
import type { Deps } from '../../domain/context.js';
import { endpointDeliveries } from '../../domain/dashboard-views.js';
import { sendTestEvent } from '../../domain/dashboard-webhooks.js';
import { ApiError } from '../../domain/errors.js';
import * as webhooks from '../../domain/webhooks.js';
import type { Mode } from '../../storage/rows.js';
import { descriptionField, eventsField, webhookUrlField } from '../input.js';
import { base } from '../views/layout.js';
import { endpointsView, endpointView } from '../views/webhooks.js';
import { act, bodyOf, callerOf, pageRequest, queryOf, render, requirePermission } from './context.js';

/** Webhook endpoints: create, edit, disable, rotate the secret, send a test event, deliveries, resend. */
export function webhookRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  endpointPages(router, deps, mode);
  endpointActions(router, deps, mode);
  return router;
}

/** The endpoints' list and page: create and edit. */
function endpointPages(router: Router, deps: Deps, mode: Mode): void {
  const list = `${base(mode)}/webhooks`;
  router.get('/webhooks', async (req, res) => {
    const result = await webhooks.listWebhookEndpoints(
      deps,
      await callerOf(deps, req, mode),
      pageRequest(queryOf(req)),
    );
    await render(deps, req, res, mode, '/webhooks', 'Webhook endpoints', (ctx) => endpointsView(ctx, result));
  });

  router.post('/webhooks', async (req, res) => {
    await act(deps, req, res, list, async () => {
      requirePermission(req, 'webhooks');
      const body = bodyOf(req);
      const caller = await callerOf(deps, req, mode);
      const description = descriptionField(body.description);
      const events = eventsField(body.events);
      const endpoint = await webhooks.createWebhookEndpoint(deps, caller, {
        url: webhookUrlField(body.url),
        ...(description ? { description } : {}),
        ...(events ? { events } : {}),
      });
      const deliveries = await endpointDeliveries(deps, caller, endpoint.id, { limit: 20 });
      await render(deps, req, res, mode, `/webhooks/${endpoint.id}`, 'Endpoint added', (ctx) =>
        endpointView(ctx, endpoint, deliveries, {}, endpoint.secret),
      );
      return undefined;
    });
  });

  router.get('/webhooks/:id', async (req, res) => {
    const caller = await callerOf(deps, req, mode);
    const endpoint = await webhooks.getWebhookEndpoint(deps, caller, req.params.id as string);
    const query = queryOf(req);
    const deliveries = await endpointDeliveries(deps, caller, endpoint.id, pageRequest(query));
    await render(deps, req, res, mode, `/webhooks/${endpoint.id}`, 'Webhook endpoint', (ctx) =>
      endpointView(ctx, endpoint, deliveries, query),
    );
  });

  router.post('/webhooks/:id', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${list}/${id}`, async () => {
      requirePermission(req, 'webhooks');
      const body = bodyOf(req);
      const events = eventsField(body.events);
      await webhooks.updateWebhookEndpoint(deps, await callerOf(deps, req, mode), id, {
        url: webhookUrlField(body.url),
        description: descriptionField(body.description) ?? null,
        // None ticked means all events, as at creation; the API's update cannot clear the list,
        // so it names every event there is.
        events: events ?? [...eventNameValues],
      });
      return 'Endpoint saved.';
    });
  });
}

/** What an endpoint's page can do: disable, rotate, test, delete, resend an event. */
function endpointActions(router: Router, deps: Deps, mode: Mode): void {
  const list = `${base(mode)}/webhooks`;
  router.post('/webhooks/:id/status', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${list}/${id}`, async () => {
      requirePermission(req, 'webhooks');
      const status = bodyOf(req).status;
      if (status !== 'enabled' && status !== 'disabled') {
        throw new ApiError(400, 'invalid_field', 'Unknown status.', { param: 'status' });
      }
      await webhooks.updateWebhookEndpoint(deps, await callerOf(deps, req, mode), id, { status });
      return status === 'enabled' ? 'Endpoint enabled.' : 'Endpoint disabled: no event is sent to it.';
    });
  });

  router.post('/webhooks/:id/rotate-secret', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${list}/${id}`, async () => {
      requirePermission(req, 'webhooks');
      const caller = await callerOf(deps, req, mode);
      const endpoint = await webhooks.rotateWebhookEndpointSecret(deps, caller, id);
      const deliveries = await endpointDeliveries(deps, caller, id, { limit: 20 });
      await render(deps, req, res, mode, `/webhooks/${id}`, 'Signing secret rotated', (ctx) =>
        endpointView(ctx, endpoint, deliveries, {}, endpoint.secret),
      );
      return undefined;
    });
  });

  router.post('/webhooks/:id/test', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${list}/${id}`, async () => {
      requirePermission(req, 'webhooks');
      const result = await sendTestEvent(deps, await callerOf(deps, req, mode), id);
      if (!result.ok) {
        // The endpoint, not this service, failed: the contract has no code of its own for that.
        throw new ApiError(502, 'service_unavailable', `The test event was not delivered: ${result.error}`);
      }
      return `Test event ${result.eventId} delivered: the endpoint answered HTTP ${result.status} in ${result.durationMs} ms.`;
    });
  });

  router.post('/webhooks/:id/delete', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, list, async () => {
      requirePermission(req, 'webhooks');
      await webhooks.deleteWebhookEndpoint(deps, await callerOf(deps, req, mode), id);
      return 'Endpoint deleted; deliveries still queued for it were cancelled.';
    });
  });

  router.post('/events/:id/resend', async (req, res) => {
    const body = bodyOf(req);
    const back = body.back?.startsWith(`${base(mode)}/`) ? body.back : list;
    await act(deps, req, res, back, async () => {
      requirePermission(req, 'webhooks');
      const deliveries = await webhooks.resendEvent(
        deps,
        await callerOf(deps, req, mode),
        req.params.id as string,
        body.endpoint_id || undefined,
      );
      return `Resend queued (${deliveries.length} delivery).`;
    });
  });
}
