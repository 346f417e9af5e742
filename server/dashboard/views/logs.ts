import {
  pathsLogsGetParametersQueryMethodValues,
  pathsLogsGetParametersQueryStatus_classValues,
} from '../../../generated/openapi.js';
import type { Page } from '../../storage/pagination.js';
import type { CallLogRow } from '../../storage/rows.js';
import { type Html, html } from '../html.js';
import { badge, filters, pager, table, when } from './components.js';
import { base, type PageContext } from './layout.js';

const logFilterFields = [
  { name: 'method', label: 'Method', options: pathsLogsGetParametersQueryMethodValues },
  { name: 'path', label: 'Path' },
  { name: 'status', label: 'Status code' },
  { name: 'status_class', label: 'Status class', options: pathsLogsGetParametersQueryStatus_classValues },
  { name: 'error_code', label: 'Error code' },
  { name: 'request_id', label: 'Request id' },
  { name: 'from', label: 'From (UTC date)', type: 'date' as const },
  { name: 'to', label: 'To (UTC date)', type: 'date' as const },
];

export function logsView(
  ctx: PageContext,
  query: Record<string, string | undefined>,
  result: Page<CallLogRow>,
  emails: Map<string, string>,
): Html {
  const path = `${base(ctx.mode)}/logs`;
  const csvQuery = new URLSearchParams(
    Object.entries(query).filter((e): e is [string, string] => e[0] !== 'cursor' && !!e[1]),
  ).toString();
  const rows = result.items.map(
    (log) =>
      html`<tr><td>${when(log.created_at)}</td><td>${log.method}</td><td><code>${log.path}</code></td><td>${badge(String(log.status))}</td><td class="num hide-phone">${log.duration_ms}</td><td class="hide-phone">${log.error_code ?? ''}</td><td>${log.user_id ? `${emails.get(log.user_id) ?? log.user_id} (dashboard)` : (log.key_id ?? '')}</td><td class="hide-phone"><code>${log.request_id}</code></td></tr>`,
  );
  return html`${filters(path, logFilterFields, query)}
<p><a class="button secondary" id="download-logs" href="${path}.csv${csvQuery ? `?${csvQuery}` : ''}" download>Download these logs as CSV</a></p>
${table(
  'Call logs',
  html`<tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col" class="num hide-phone">ms</th><th scope="col" class="hide-phone">Error</th><th scope="col">Key or user</th><th scope="col" class="hide-phone">Request id</th></tr>`,
  rows,
  'No call matches.',
)}${pager(path, query, result)}`;
}
