import type { ServiceCreate, ServiceUpdate } from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as services from '../domain/services.js';
import { sendRendered, sendSuccess, success } from '../http/envelope.js';
import { idempotencyIntent } from '../http/idempotency.js';
import type { OperationRouter } from '../http/operation-router.js';
import { servicesPage } from '../http/renderings.js';
import { toService } from '../http/representations.js';
import type { ServiceRow } from '../storage/rows.js';
import { callerOf, pageOf, pathId, text } from './query.js';

export function serviceRoutes(deps: Deps, router: OperationRouter): void {
  router.post('/services', async (req, res) => {
    const service = await services.createService(
      deps,
      callerOf(req),
      req.body as ServiceCreate,
      idempotencyIntent(req, 201, (row: ServiceRow) => success(toService(row))),
    );
    sendSuccess(res, 201, toService(service));
  });

  router.get('/services', async (req, res) => {
    const status = text(req, 'status') as ServiceRow['status'] | undefined;
    const page = await services.listServices(deps, callerOf(req), { status }, pageOf(req), {
      rendering: servicesPage,
      context: null,
    });
    sendRendered(res, 200, page);
  });

  router.get('/services/:id', async (req, res) => {
    sendSuccess(res, 200, toService(await services.getService(deps, callerOf(req), pathId(req))));
  });

  router.put('/services/:id', async (req, res) => {
    const service = await services.updateService(deps, callerOf(req), pathId(req), req.body as ServiceUpdate);
    sendSuccess(res, 200, toService(service));
  });

  router.delete('/services/:id', async (req, res) => {
    sendSuccess(res, 200, toService(await services.deleteService(deps, callerOf(req), pathId(req))));
  });
}
