import { type Request, Router } from 'express';
import { iso } from '../../domain/clock.js';
import type { Caller, Deps } from '../../domain/context.js';
import { listUsers } from '../../domain/dashboard-users.js';
import { type LogFilters, listLogs } from '../../domain/logs.js';
import type { Mode } from '../../storage/rows.js';
import { sendCsv } from '../csv.js';
import { logsView } from '../views/logs.js';
import { callerOf, dateRange, oneOf, pageRequest, type Query, queryOf, render } from './context.js';

function logFilters(query: Query): LogFilters {
  const status = query.status && /^[1-5]\d\d$/.test(query.status) ? Number(query.status) : undefined;
  return {
    method: oneOf(query.method, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']),
    path: query.path,
    status,
    status_class: oneOf(query.status_class, ['2xx', '3xx', '4xx', '5xx']),
    error_code: query.error_code,
    request_id: query.request_id,
    ...dateRange(query),
  };
}

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
      logFilters(query),
      pageRequest(query),
    );
    const emails = await emailsOf(deps, req);
    await render(deps, req, res, mode, '/logs', 'Call logs', (ctx) => logsView(ctx, query, result, emails));
  });

  router.get('/logs.csv', async (req, res) => {
    const query = queryOf(req);
    const caller: Caller = await callerOf(deps, req, mode);
    const filters = logFilters(query);
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
