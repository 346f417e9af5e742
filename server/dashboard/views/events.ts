import { eventNameValues } from '../../../generated/openapi.js';
import type { eventsWithDeliveries } from '../../domain/dashboard-views.js';
import type { ServiceRow } from '../../storage/rows.js';
import { can } from '../auth.js';
import { onceField } from '../form-once.js';
import { type Html, html } from '../html.js';
import { th } from '../i18n.js';
import { badge, choices, type FilterField, filters, pager, table, when } from './components.js';
import { base, type PageContext, postButton } from './layout.js';
import { serviceLabel } from './services.js';

type Events = Awaited<ReturnType<typeof eventsWithDeliveries>>;

/** The page of the movement an event is about, by its id's prefix. */
function movementPath(ctx: PageContext, id: string): string {
  const kind = id.startsWith('po_') ? 'payouts' : id.startsWith('tu_') ? 'topups' : 'payments';
  return `${base(ctx.mode)}/${kind}/${id}`;
}

/** The service an event's payload names, if any. */
function serviceOf(payload: string): string | null {
  const data = (JSON.parse(payload) as { data?: { service_id?: unknown } }).data;
  return typeof data?.service_id === 'string' ? data.service_id : null;
}

export function eventsView(
  ctx: PageContext,
  query: Record<string, string | undefined>,
  events: Events,
  services: ServiceRow[],
): Html {
  const { t } = ctx;
  const path = `${base(ctx.mode)}/events`;
  const byId = new Map(services.map((s) => [s.id, s]));
  const resend = can(ctx.user.role, 'webhooks');
  const rows = events.items.map(({ event, deliveries }) => {
    const serviceId = serviceOf(event.payload);
    const sent = deliveries.map(
      ({ delivery, endpoint }) =>
        html`<li>${th(t, 'events.delivery', {
          url: html`<code>${endpoint?.url ?? delivery.endpoint_id}</code>`,
          status: badge(t, delivery.status),
          count: delivery.attempts,
          code:
            delivery.last_response_status === null
              ? t.t('deliveries.noAnswer')
              : t.t('deliveries.http', { status: String(delivery.last_response_status) }),
        })}</li>`,
    );
    return html`<tr id="event-${event.id}"><td>${when(t, event.created_at)}</td><td><code>${event.event}</code><br><code class="muted">${event.id}</code></td>
<td><a href="${movementPath(ctx, event.transaction_id)}"><code>${event.transaction_id}</code></a>${serviceId ? html`<br>${serviceLabel(t, byId.get(serviceId), serviceId)}` : ''}</td>
<td>${sent.length ? html`<ul class="plain">${sent}</ul>` : html`<span class="muted">${t.t('timeline.noEndpoint')}</span>`}</td>
${resend ? html`<td>${postButton(ctx, `${base(ctx.mode)}/events/${event.id}/resend`, t.t('deliveries.resend'), { secondary: true, fields: { back: ctx.path, ...onceField() } })}</td>` : ''}</tr>`;
  });
  const fields: FilterField[] = [
    { name: 'event', label: t.t('col.event'), options: choices(t, 'event', eventNameValues) },
    { name: 'transaction_id', label: t.t('events.transaction') },
    { name: 'from', label: t.t('filters.from'), type: 'date' },
    { name: 'to', label: t.t('filters.to'), type: 'date' },
  ];
  return html`<p>${t.t('events.intro')}</p>
${filters(t, path, fields, query)}
${table(
  t,
  t.t('events.title'),
  html`<tr><th scope="col">${t.t('col.time')}</th><th scope="col">${t.t('col.event')}</th><th scope="col">${t.t('events.transaction')}</th><th scope="col">${t.t('webhooks.deliveries')}</th>${resend ? html`<th scope="col">${t.t('col.action')}</th>` : ''}</tr>`,
  rows,
  t.t('events.empty'),
)}${pager(t, path, query, events)}`;
}
