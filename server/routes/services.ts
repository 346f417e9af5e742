import type { ServiceCreate, ServiceUpdate } from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import * as services from '../domain/services.js';
import { sendJson, sendSuccess } from '../http/envelope.js';
import type { OperationRouter } from '../http/operation-router.js';
import { serviceResponse, servicesPage } from '../http/renderings.js';
import { toService } from '../http/representations.js';
import { callerOf, listQuery, pageOf, pathId } from './query.js';

export function serviceRoutes(deps: Deps, router: OperationRouter): void {
  router.post('/services', { status: 201, rendering: serviceResponse }, (req, answer) =>
    services.createService(deps, callerOf(req), req.body as ServiceCreate, answer),
  );

  router.get('/services', async (req, res) => {
    const page = await services.listServices(
      deps,
      callerOf(req),
      listQuery<'listServices'>(req),
      pageOf(req),
      {
        rendering: servicesPage,
        context: null,
      },
    );
    sendJson(res, 200, page);
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
