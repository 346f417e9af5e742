import { Router } from 'express';
import { eventNameValues } from '../../../generated/openapi.js';
import type { Deps } from '../../domain/context.js';
import { endpointDeliveries } from '../../domain/dashboard-views.js';
import { sendTestEvent } from '../../domain/dashboard-webhooks.js';
import * as webhooks from '../../domain/webhooks.js';
import { deliveriesResponse } from '../../http/renderings.js';
import type { Mode } from '../../storage/rows.js';
import { formAnswer, once } from '../form-once.js';
import { refusal, translatorOf } from '../i18n.js';
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
    await render(deps, req, res, mode, '/webhooks', translatorOf(res).t('webhooks.title'), (ctx) =>
      endpointsView(ctx, result),
    );
  });

  router.post('/webhooks', async (req, res) => {
    await act(deps, req, res, list, async () => {
      requirePermission(req, res, 'webhooks');
      const body = bodyOf(req);
      const caller = await callerOf(deps, req, mode);
      const description = descriptionField(translatorOf(res), body.description);
      const events = eventsField(translatorOf(res), body.events);
      const endpoint = await webhooks.createWebhookEndpoint(deps, caller, {
        url: webhookUrlField(translatorOf(res), body.url),
        ...(description ? { description } : {}),
        ...(events ? { events } : {}),
      });
      const deliveries = await endpointDeliveries(deps, caller, endpoint.id, { limit: 20 });
      await render(
        deps,
        req,
        res,
        mode,
        `/webhooks/${endpoint.id}`,
        translatorOf(res).t('webhooks.addedTitle'),
        (ctx) => endpointView(ctx, endpoint, deliveries, {}, endpoint.secret),
      );
      return undefined;
    });
  });

  router.get('/webhooks/:id', async (req, res) => {
    const caller = await callerOf(deps, req, mode);
    const endpoint = await webhooks.getWebhookEndpoint(deps, caller, req.params.id as string);
    const query = queryOf(req);
    const deliveries = await endpointDeliveries(deps, caller, endpoint.id, pageRequest(query));
    await render(
      deps,
      req,
      res,
      mode,
      `/webhooks/${endpoint.id}`,
      translatorOf(res).t('webhooks.endpointTitle'),
      (ctx) => endpointView(ctx, endpoint, deliveries, query),
    );
  });

  router.post('/webhooks/:id', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${list}/${id}`, async () => {
      requirePermission(req, res, 'webhooks');
      const body = bodyOf(req);
      const events = eventsField(translatorOf(res), body.events);
      await webhooks.updateWebhookEndpoint(deps, await callerOf(deps, req, mode), id, {
        url: webhookUrlField(translatorOf(res), body.url),
        description: descriptionField(translatorOf(res), body.description) ?? null,
        // None ticked means all events, as at creation; the API's update cannot clear the list,
        // so it names every event there is.
        events: events ?? [...eventNameValues],
      });
      return translatorOf(res).t('webhooks.saved');
    });
  });
}

/** What an endpoint's page can do: disable, rotate, test, delete, resend an event. */
function endpointActions(router: Router, deps: Deps, mode: Mode): void {
  const list = `${base(mode)}/webhooks`;
  router.post('/webhooks/:id/status', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${list}/${id}`, async () => {
      requirePermission(req, res, 'webhooks');
      const status = bodyOf(req).status;
      if (status !== 'enabled' && status !== 'disabled') {
        throw refusal(400, 'invalid_field', translatorOf(res).t('error.unknownStatus'), { param: 'status' });
      }
      await webhooks.updateWebhookEndpoint(deps, await callerOf(deps, req, mode), id, { status });
      return translatorOf(res).t(status === 'enabled' ? 'webhooks.enabled' : 'webhooks.disabled');
    });
  });

  router.post('/webhooks/:id/rotate-secret', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${list}/${id}`, async () => {
      requirePermission(req, res, 'webhooks');
      const caller = await callerOf(deps, req, mode);
      const endpoint = await webhooks.rotateWebhookEndpointSecret(deps, caller, id);
      const deliveries = await endpointDeliveries(deps, caller, id, { limit: 20 });
      await render(
        deps,
        req,
        res,
        mode,
        `/webhooks/${id}`,
        translatorOf(res).t('webhooks.rotatedTitle'),
        (ctx) => endpointView(ctx, endpoint, deliveries, {}, endpoint.secret),
      );
      return undefined;
    });
  });

  router.post('/webhooks/:id/test', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, `${list}/${id}`, async () => {
      requirePermission(req, res, 'webhooks');
      const result = await sendTestEvent(deps, await callerOf(deps, req, mode), id);
      if (!result.ok) {
        // The endpoint, not this service, failed: the contract has no code of its own for that.
        throw refusal(
          502,
          'service_unavailable',
          translatorOf(res).t('webhooks.testFailed', { error: result.error }),
        );
      }
      return translatorOf(res).t('webhooks.testDelivered', {
        id: result.eventId,
        status: String(result.status),
        ms: result.durationMs,
      });
    });
  });

  router.post('/webhooks/:id/delete', async (req, res) => {
    const id = req.params.id as string;
    await act(deps, req, res, list, async () => {
      requirePermission(req, res, 'webhooks');
      await webhooks.deleteWebhookEndpoint(deps, await callerOf(deps, req, mode), id);
      return translatorOf(res).t('webhooks.deleted');
    });
  });

  // A resend is sent once per rendering of its form: a double click queues one delivery.
  router.post('/events/:id/resend', async (req, res) => {
    const body = bodyOf(req);
    const back = body.back?.startsWith(`${base(mode)}/`) ? body.back : list;
    await act(deps, req, res, back, async () => {
      requirePermission(req, res, 'webhooks');
      const t = translatorOf(res);
      const caller = await callerOf(deps, req, mode);
      const eventId = req.params.id as string;
      const endpointId = body.endpoint_id || undefined;
      let count = 0;
      const done = await once(async () => {
        const answer = formAnswer(req, caller, deliveriesResponse, { endpoint_id: endpointId });
        count = (await webhooks.resendEvent(deps, caller, eventId, endpointId, answer)).length;
      });
      return done ? t.t('deliveries.resendQueued', { count }) : t.t('deliveries.resendAlready');
    });
  });
}
