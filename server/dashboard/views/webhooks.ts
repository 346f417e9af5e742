import { eventNameValues } from '../../../generated/openapi.js';
import type { endpointDeliveries } from '../../domain/dashboard-views.js';
import type { Translator } from '../../i18n/translator.js';
import type { Page } from '../../storage/pagination.js';
import type { AttemptRow, WebhookEndpointRow } from '../../storage/rows.js';
import { can } from '../auth.js';
import { onceField } from '../form-once.js';
import { type Html, html } from '../html.js';
import { th } from '../i18n.js';
import { badge, pager, table, when } from './components.js';
import { base, csrfInput, type PageContext, postButton } from './layout.js';

type Deliveries = Awaited<ReturnType<typeof endpointDeliveries>>;

/** One delivery attempt: when, what the endpoint answered, how long it took, what failed. */
export function attemptLine(t: Translator, a: AttemptRow): Html {
  return th(t, 'deliveries.attempt', {
    at: when(t, a.attempted_at),
    response:
      a.response_status === null
        ? t.t('deliveries.noAnswer')
        : t.t('deliveries.http', { status: String(a.response_status) }),
    ms: a.duration_ms,
    error: a.error ? html`<code>${a.error}</code>` : 'none',
  });
}

const eventList = (t: Translator, events: string | null) =>
  events ? html`<code>${(JSON.parse(events) as string[]).join(', ')}</code>` : t.t('webhooks.allEvents');

function endpointForm(
  ctx: PageContext,
  action: string,
  endpoint: WebhookEndpointRow | null,
  submit: string,
): Html {
  const { t } = ctx;
  const chosen: string[] | null = endpoint?.events ? (JSON.parse(endpoint.events) as string[]) : null;
  const boxes = eventNameValues.map(
    (name) =>
      html`<label class="check"><input type="checkbox" name="events" value="${name}"${chosen?.includes(name) ? html` checked` : ''}> <code>${name}</code></label>`,
  );
  return html`<form method="post" action="${action}" class="card">${csrfInput(ctx.csrf)}
<div class="field"><label for="endpoint-url">${t.t('webhooks.url')}</label><input id="endpoint-url" name="url" type="url" required maxlength="2048" size="50" value="${endpoint?.url ?? ''}" aria-describedby="endpoint-url-hint">
<p class="muted" id="endpoint-url-hint">${ctx.mode === 'live' ? t.t('webhooks.liveHint') : th(t, 'webhooks.testHint', { example: html`<code>http://127.0.0.1:4000/hooks</code>` })}</p></div>
<div class="field"><label for="endpoint-description">${t.t('webhooks.description')}</label><input id="endpoint-description" name="description" maxlength="500" size="50" value="${endpoint?.description ?? ''}"></div>
<fieldset><legend>${t.t('webhooks.eventsLegend')}</legend>${boxes}</fieldset>
<button type="submit">${submit}</button></form>`;
}

export function endpointsView(ctx: PageContext, result: Page<WebhookEndpointRow>): Html {
  const { t } = ctx;
  const rows = result.items.map(
    (e) =>
      html`<tr><td><a href="${base(ctx.mode)}/webhooks/${e.id}">${e.url}</a></td><td>${badge(t, e.status)}</td><td class="hide-phone">${eventList(t, e.events)}</td><td class="hide-phone">${e.description ?? ''}</td></tr>`,
  );
  const create = can(ctx.user.role, 'webhooks')
    ? html`<h2>${t.t('webhooks.add')}</h2>${endpointForm(ctx, `${base(ctx.mode)}/webhooks`, null, t.t('webhooks.addSubmit'))}`
    : '';
  return html`${table(
    t,
    t.t('webhooks.title'),
    html`<tr><th scope="col">${t.t('webhooks.url')}</th><th scope="col">${t.t('col.status')}</th><th scope="col" class="hide-phone">${t.t('webhooks.events')}</th><th scope="col" class="hide-phone">${t.t('col.description')}</th></tr>`,
    rows,
    t.t('webhooks.empty'),
  )}${pager(t, `${base(ctx.mode)}/webhooks`, {}, result)}${create}`;
}

/** A secret shown once: after creating an endpoint, rotating its secret, or rotating a key. */
export function secretBox(t: Translator, label: string, value: string, id: string, note: string): Html {
  return html`<div class="secret" role="status"><p><strong>${label}</strong> ${note}</p>
<label for="${id}">${label}</label>
<input id="${id}" readonly value="${value}">
<p><button type="button" data-copy="${id}" hidden>${t.t('common.copy')}</button></p></div>`;
}

export function endpointView(
  ctx: PageContext,
  endpoint: WebhookEndpointRow,
  deliveries: Deliveries,
  query: Record<string, string | undefined>,
  secret?: string,
): Html {
  const { t } = ctx;
  const path = `${base(ctx.mode)}/webhooks/${endpoint.id}`;
  const manage = can(ctx.user.role, 'webhooks');
  const rows = deliveries.items.map(
    ({ delivery, event, attempts }) =>
      html`<tr><td>${event ? html`<code>${event.event}</code> <a href="${base(ctx.mode)}/${event.transaction_id.startsWith('po_') ? 'payouts' : event.transaction_id.startsWith('tu_') ? 'topups' : 'payments'}/${event.transaction_id}">${event.transaction_id}</a>` : delivery.event_id}</td>
<td>${badge(t, delivery.status)}</td><td class="num">${delivery.attempts}</td>
<td>${attempts.length ? html`<ul>${attempts.map((a) => html`<li>${attemptLine(t, a)}</li>`)}</ul>` : html`<span class="muted">${t.t('deliveries.notSent')}</span>`}</td>
<td>${manage ? postButton(ctx, `${base(ctx.mode)}/events/${delivery.event_id}/resend`, t.t('deliveries.resend'), { secondary: true, fields: { endpoint_id: endpoint.id, back: path, ...onceField() } }) : ''}</td></tr>`,
  );
  const actions = manage
    ? html`<div class="actions card">
${postButton(ctx, `${path}/test`, t.t('webhooks.sendTest'))}
${postButton(ctx, `${path}/status`, t.t(endpoint.status === 'enabled' ? 'webhooks.disable' : 'webhooks.enable'), { secondary: true, fields: { status: endpoint.status === 'enabled' ? 'disabled' : 'enabled' } })}
${postButton(ctx, `${path}/rotate-secret`, t.t('webhooks.rotate'), { secondary: true })}
${postButton(ctx, `${path}/delete`, t.t('webhooks.delete'), { danger: true })}</div>`
    : '';
  return html`${secret ? secretBox(t, t.t('webhooks.signingSecret'), secret, 'endpoint-secret', t.t('webhooks.secretNote', { header: 'X-Webhook-Signature' })) : ''}
<div class="card"><dl class="facts"><dt>${t.t('webhooks.url')}</dt><dd>${endpoint.url}</dd><dt>${t.t('col.status')}</dt><dd>${badge(t, endpoint.status)}</dd><dt>${t.t('webhooks.events')}</dt><dd>${eventList(t, endpoint.events)}</dd><dt>${t.t('col.created')}</dt><dd>${when(t, endpoint.created_at)}</dd></dl></div>
${actions}
${manage ? html`<h2>${t.t('webhooks.edit')}</h2>${endpointForm(ctx, path, endpoint, t.t('webhooks.save'))}` : ''}
<h2>${t.t('webhooks.deliveries')}</h2>
${table(
  t,
  t.t('webhooks.deliveries'),
  html`<tr><th scope="col">${t.t('col.event')}</th><th scope="col">${t.t('col.status')}</th><th scope="col" class="num">${t.t('deliveries.attempts')}</th><th scope="col">${t.t('deliveries.responses')}</th><th scope="col"><span class="muted">${t.t('col.action')}</span></th></tr>`,
  rows,
  t.t('deliveries.empty'),
)}${pager(t, path, query, deliveries)}`;
}
