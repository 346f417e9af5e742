import type { serviceVolumes } from '../../domain/dashboard-views.js';
import type { Translator } from '../../i18n/translator.js';
import type { Page } from '../../storage/pagination.js';
import type { ServiceRow } from '../../storage/rows.js';
import { can } from '../auth.js';
import { type Html, html } from '../html.js';
import { badge, type FilterField, filters, label, pager, table } from './components.js';
import { base, csrfInput, type PageContext, postButton } from './layout.js';

type Volume = Awaited<ReturnType<typeof serviceVolumes>>[number];

/** A service as the pages name it: its name, and its state when it takes no payments. */
export function serviceLabel(t: Translator, service: ServiceRow | undefined, id: string): string {
  if (!service) return id;
  return service.status === 'active'
    ? service.name
    : t.t('services.nameWithStatus', { name: service.name, status: label(t, 'status', service.status) });
}

/** The lists' service filter: a choice among the account's services, by name. */
export function serviceFilter(t: Translator, services: ServiceRow[]): FilterField {
  return {
    name: 'service_id',
    label: t.t('fact.service'),
    options: services.map((s) => [s.id, serviceLabel(t, s, s.id)] as const),
  };
}

/** Count and amount of a service's successful payments, one line per currency. */
function volumeOf(t: Translator, volumes: Volume[]): Html | string {
  if (volumes.length === 0) return t.t('services.noVolume');
  return html`${volumes.map(
    (v, i) =>
      html`${i ? html`<br>` : ''}${t.t('services.volume', { count: v.count, amount: t.money(v.amount, v.currency) })}`,
  )}`;
}

function manage(ctx: PageContext, service: ServiceRow): Html {
  const { t } = ctx;
  const path = `${base(ctx.mode)}/services/${service.id}`;
  const id = `rename-${service.id}`;
  return html`<form method="post" action="${path}/rename" class="inline">${csrfInput(ctx.csrf)}<label for="${id}" class="visually-hidden">${t.t('services.renameLabel', { name: service.name })}</label><input id="${id}" name="name" required maxlength="100" size="20" value="${service.name}"><button type="submit" class="secondary">${t.t('services.rename')}</button></form>
${postButton(ctx, `${path}/status`, t.t(service.status === 'active' ? 'services.deactivate' : 'services.reactivate'), { secondary: service.status !== 'active', danger: service.status === 'active', fields: { status: service.status === 'active' ? 'inactive' : 'active' } })}`;
}

export function servicesView(
  ctx: PageContext,
  period: Record<string, string | undefined>,
  services: Page<ServiceRow>,
  volumes: Volume[],
): Html {
  const { t } = ctx;
  const path = `${base(ctx.mode)}/services`;
  const canManage = can(ctx.user.role, 'services');
  const rows = services.items.map(
    (s) =>
      html`<tr id="service-${s.id}"><td><strong>${s.name}</strong><br><code>${s.id}</code></td><td>${badge(t, s.status)}</td><td class="num">${volumeOf(
        t,
        volumes.filter((v) => v.service_id === s.id),
      )}</td>${canManage ? html`<td>${manage(ctx, s)}</td>` : ''}</tr>`,
  );
  const create = canManage
    ? html`<h2 id="create-service">${t.t('services.create')}</h2><form method="post" action="${path}" class="card">${csrfInput(ctx.csrf)}
<div class="field"><label for="service-name">${t.t('services.name')}</label><input id="service-name" name="name" required maxlength="100" size="40" aria-describedby="service-name-hint"><p class="muted" id="service-name-hint">${t.t('services.nameHint')}</p></div>
<div class="field"><label for="service-description">${t.t('webhooks.description')}</label><input id="service-description" name="description" maxlength="500" size="40"></div>
<button type="submit" id="create-service-button">${t.t('services.createSubmit')}</button></form>`
    : html`<p class="muted">${t.t('services.readOnly')}</p>`;
  const periodFields: FilterField[] = [
    { name: 'from', label: t.t('filters.from'), type: 'date' },
    { name: 'to', label: t.t('filters.to'), type: 'date' },
  ];
  return html`<p>${t.t('services.intro')}</p>
${filters(t, path, periodFields, period)}
${table(
  t,
  t.t('services.title'),
  html`<tr><th scope="col">${t.t('services.name')}</th><th scope="col">${t.t('col.status')}</th><th scope="col" class="num">${t.t('services.volumeHead')}</th>${canManage ? html`<th scope="col">${t.t('col.action')}</th>` : ''}</tr>`,
  rows,
  t.t('services.empty'),
)}${pager(t, path, period, services)}${create}`;
}
