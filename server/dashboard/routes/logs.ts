import { type Request, Router } from 'express';
import type { Deps } from '../../domain/context.js';
import { listUsers } from '../../domain/dashboard-users.js';
import { listLogs } from '../../domain/logs.js';
import type { Mode } from '../../storage/rows.js';
import { translatorOf } from '../i18n.js';
import { logsView } from '../views/logs.js';
import { callerOf, pageRequest, queryOf, render } from './context.js';
import { logQuery } from './list-queries.js';

async function emailsOf(deps: Deps, req: Request) {
  const users = await listUsers(deps, req.dashboard?.account.id ?? '');
  return new Map(users.map((u) => [u.id, u.email]));
}

/** Call logs with the API's filters, the dashboard's own actions among them (their CSV: exports.ts). */
export function logRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();

  router.get('/logs', async (req, res) => {
    const query = queryOf(req);
    const result = await listLogs(
      deps,
      await callerOf(deps, req, mode),
      logQuery(query, translatorOf(res).timeZone),
      pageRequest(query),
    );
    const emails = await emailsOf(deps, req);
    await render(deps, req, res, mode, '/logs', translatorOf(res).t('logs.title'), (ctx) =>
      logsView(ctx, query, result, emails),
    );
  });

  return router;
}
