import { type Request, Router } from 'express';
import { iso } from '../../domain/clock.js';
import type { Caller, Deps } from '../../domain/context.js';
import { listUsers } from '../../domain/dashboard-users.js';
import { listLogs } from '../../domain/logs.js';
import type { Mode } from '../../storage/rows.js';
import { sendCsv } from '../csv.js';
import { translatorOf } from '../i18n.js';
import { logsView } from '../views/logs.js';
import { callerOf, pageRequest, queryOf, render } from './context.js';
import { logQuery } from './list-queries.js';

async function emailsOf(deps: Deps, req: Request) {
  const users = await listUsers(deps, req.dashboard?.account.id ?? '');
  return new Map(users.map((u) => [u.id, u.email]));
}

/** Call logs with the API's filters, the dashboard's own actions among them, and their CSV. */
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

  router.get('/logs.csv', async (req, res) => {
    const query = queryOf(req);
    const caller: Caller = await callerOf(deps, req, mode);
    const filters = logQuery(query, translatorOf(res).timeZone);
    const emails = await emailsOf(deps, req);
    await sendCsv(
      res,
      `call-logs-${mode}.csv`,
      ['created_at', 'request_id', 'method', 'path', 'status', 'duration_ms', 'error_code', 'key_id', 'user'],
      (async function* () {
        let cursor: string | undefined;
        // Page by page through the same keyset pagination as the API: bounded memory.
        for (;;) {
          const page = await listLogs(deps, caller, filters, { limit: 100, cursor });
          for (const log of page.items) {
            yield [
              iso(log.created_at),
              log.request_id,
              log.method,
              log.path,
              log.status,
              log.duration_ms,
              log.error_code,
              log.key_id,
              log.user_id ? (emails.get(log.user_id) ?? log.user_id) : null,
            ];
          }
          if (!page.next_cursor) return;
          cursor = page.next_cursor;
        }
      })(),
    );
  });

  return router;
}
