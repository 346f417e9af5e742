import { Router } from 'express';
import { eventNameValues } from '../../../generated/openapi.js';
import type { Deps } from '../../domain/context.js';
import { eventsWithDeliveries, servicesOf } from '../../domain/dashboard-views.js';
import type { EventQuery } from '../../storage/list-filters.js';
import type { Mode } from '../../storage/rows.js';
import { translatorOf } from '../i18n.js';
import { eventsView } from '../views/events.js';
import { callerOf, pageRequest, type Query, queryOf, render } from './context.js';
import { dateRange } from './list-queries.js';

/** The events page's form as the API's `listEvents` query. */
function eventQuery(form: Query, timeZone: string): EventQuery {
  return {
    event: eventNameValues.find((name) => name === form.event),
    transaction_id: form.transaction_id,
    ...dateRange(form, timeZone),
  };
}

/**
 * The account's events in the page's mode, newest first (the sandbox's too, in test mode), each
 * with its webhook deliveries; resending one is the webhooks' resend (routes/webhooks.ts).
 */
export function eventRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  router.get('/events', async (req, res) => {
    const t = translatorOf(res);
    const query = queryOf(req);
    const caller = await callerOf(deps, req, mode);
    const [events, services] = await Promise.all([
      eventsWithDeliveries(deps, caller, eventQuery(query, t.timeZone), pageRequest(query)),
      servicesOf(deps, caller),
    ]);
    await render(deps, req, res, mode, '/events', t.t('events.title'), (ctx) =>
      eventsView(ctx, query, events, services),
    );
  });
  return router;
}
