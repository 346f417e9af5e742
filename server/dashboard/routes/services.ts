import { Router } from 'express';
import type { Deps } from '../../domain/context.js';
import { serviceVolumes } from '../../domain/dashboard-views.js';
import { createService, listServices, updateService } from '../../domain/services.js';
import { dayOf } from '../../i18n/translator.js';
import type { Mode } from '../../storage/rows.js';
import { refusal, translatorOf } from '../i18n.js';
import { descriptionField } from '../input.js';
import { base } from '../views/layout.js';
import { servicesView } from '../views/services.js';
import { act, bodyOf, callerOf, pageRequest, queryOf, render, requirePermission } from './context.js';
import { dateRange } from './list-queries.js';

const dayMs = 86_400_000;

/** `ServiceCreate.name`: 1 to 100 characters once trimmed, as the contract allows. */
function serviceName(t: ReturnType<typeof translatorOf>, value: string | undefined): string {
  const name = (value ?? '').trim();
  if (name.length < 1 || name.length > 100) {
    throw refusal(400, 'invalid_field', t.t('services.badName'), { param: 'name' });
  }
  return name;
}

/**
 * Services: the list with each one's successful payments in a period (the last 30 days unless
 * the form says otherwise), and creating, renaming, deactivating and reactivating one, through
 * the API's own domain functions.
 */
export function serviceRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  const list = `${base(mode)}/services`;

  router.get('/services', async (req, res) => {
    const t = translatorOf(res);
    const caller = await callerOf(deps, req, mode);
    const now = deps.clock.now();
    const query = queryOf(req);
    const period = {
      ...query,
      from: query.from ?? dayOf(now - 29 * dayMs, t.timeZone),
      to: query.to ?? dayOf(now, t.timeZone),
    };
    const range = dateRange(period, t.timeZone);
    const [services, volumes] = await Promise.all([
      listServices(deps, caller, {}, pageRequest(query)),
      serviceVolumes(
        deps,
        caller,
        Date.parse(range.created_gte ?? new Date(now - 29 * dayMs).toISOString()),
        Date.parse(range.created_lt ?? new Date(now + dayMs).toISOString()),
      ),
    ]);
    await render(deps, req, res, mode, '/services', t.t('services.title'), (ctx) =>
      servicesView(ctx, period, services, volumes),
    );
  });

  router.post('/services', async (req, res) => {
    await act(deps, req, res, list, async () => {
      requirePermission(req, res, 'services');
      const t = translatorOf(res);
      const body = bodyOf(req);
      const description = descriptionField(t, body.description);
      const service = await createService(deps, await callerOf(deps, req, mode), {
        name: serviceName(t, body.name),
        ...(description ? { description } : {}),
      });
      return t.t('services.created', { name: service.name, id: service.id });
    });
  });

  router.post('/services/:id/rename', async (req, res) => {
    await act(deps, req, res, list, async () => {
      requirePermission(req, res, 'services');
      const t = translatorOf(res);
      const service = await updateService(deps, await callerOf(deps, req, mode), req.params.id as string, {
        name: serviceName(t, bodyOf(req).name),
      });
      return t.t('services.renamed', { name: service.name });
    });
  });

  router.post('/services/:id/status', async (req, res) => {
    await act(deps, req, res, list, async () => {
      requirePermission(req, res, 'services');
      const t = translatorOf(res);
      const status = bodyOf(req).status;
      if (status !== 'active' && status !== 'inactive') {
        throw refusal(400, 'invalid_field', t.t('error.unknownStatus'), { param: 'status' });
      }
      const service = await updateService(deps, await callerOf(deps, req, mode), req.params.id as string, {
        status,
      });
      return t.t(status === 'active' ? 'services.reactivated' : 'services.deactivated', {
        name: service.name,
      });
    });
  });

  return router;
}
