import {
  pathsLogsGetParametersQueryMethodValues,
  pathsLogsGetParametersQueryStatus_classValues,
} from '../../../generated/openapi.js';
import type { Translator } from '../../i18n/translator.js';
import type { Page } from '../../storage/pagination.js';
import type { CallLogRow } from '../../storage/rows.js';
import { type Html, html } from '../html.js';
import { badge, csvHref, type FilterField, filters, pager, table, when } from './components.js';
import { base, type PageContext } from './layout.js';

const same = (values: readonly string[]) => values.map((v) => [v, v] as const);

const logFilterFields = (t: Translator): FilterField[] => [
  { name: 'method', label: t.t('logs.method'), options: same(pathsLogsGetParametersQueryMethodValues) },
  { name: 'path', label: t.t('logs.path') },
  { name: 'status', label: t.t('logs.statusCode') },
  {
    name: 'status_class',
    label: t.t('logs.statusClass'),
    options: same(pathsLogsGetParametersQueryStatus_classValues),
  },
  { name: 'error_code', label: t.t('logs.errorCode') },
  { name: 'request_id', label: t.t('logs.requestId') },
  { name: 'from', label: t.t('filters.from'), type: 'date' },
  { name: 'to', label: t.t('filters.to'), type: 'date' },
];

export function logsView(
  ctx: PageContext,
  query: Record<string, string | undefined>,
  result: Page<CallLogRow>,
  emails: Map<string, string>,
): Html {
  const { t } = ctx;
  const path = `${base(ctx.mode)}/logs`;
  const rows = result.items.map(
    (log) =>
      html`<tr><td>${when(t, log.created_at)}</td><td>${log.method}</td><td><code>${log.path}</code></td><td>${badge(t, String(log.status))}</td><td class="num hide-phone">${log.duration_ms}</td><td class="hide-phone">${log.error_code ?? ''}</td><td>${log.user_id ? t.t('logs.dashboardUser', { email: emails.get(log.user_id) ?? log.user_id }) : (log.key_id ?? '')}</td><td class="hide-phone"><code>${log.request_id}</code></td></tr>`,
  );
  return html`${filters(t, path, logFilterFields(t), query)}
<p><a class="button secondary" id="download-logs" href="${csvHref(path, query)}" download>${t.t('logs.download')}</a></p>
${table(
  t,
  t.t('logs.title'),
  html`<tr><th scope="col">${t.t('col.time')}</th><th scope="col">${t.t('logs.method')}</th><th scope="col">${t.t('logs.path')}</th><th scope="col">${t.t('col.status')}</th><th scope="col" class="num hide-phone">${t.t('logs.ms')}</th><th scope="col" class="hide-phone">${t.t('logs.error')}</th><th scope="col">${t.t('logs.keyOrUser')}</th><th scope="col" class="hide-phone">${t.t('logs.requestId')}</th></tr>`,
  rows,
  t.t('logs.empty'),
)}${pager(t, path, query, result)}`;
}
