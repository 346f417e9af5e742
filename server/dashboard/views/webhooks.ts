import { eventNameValues } from '../../../generated/openapi.js';
import type { endpointDeliveries } from '../../domain/dashboard-views.js';
import type { Page } from '../../storage/pagination.js';
import type { WebhookEndpointRow } from '../../storage/rows.js';
import { can } from '../auth.js';
import { type Html, html } from '../html.js';
import { badge, pager, table, when } from './components.js';
import { base, csrfInput, type PageContext, postButton } from './layout.js';

type Deliveries = Awaited<ReturnType<typeof endpointDeliveries>>;

function endpointForm(
  ctx: PageContext,
  action: string,
  endpoint: WebhookEndpointRow | null,
  submit: string,
): Html {
  const chosen: string[] | null = endpoint?.events ? (JSON.parse(endpoint.events) as string[]) : null;
  const boxes = eventNameValues.map(
    (name) =>
      html`<label class="check"><input type="checkbox" name="events" value="${name}"${chosen?.includes(name) ? html` checked` : ''}> ${name}</label>`,
  );
  return html`<form method="post" action="${action}" class="card">${csrfInput(ctx.csrf)}
<div class="field"><label for="endpoint-url">URL</label><input id="endpoint-url" name="url" type="url" required maxlength="2048" size="50" value="${endpoint?.url ?? ''}" aria-describedby="endpoint-url-hint">
<p class="muted" id="endpoint-url-hint">${ctx.mode === 'live' ? 'Live endpoints must be public https URLs.' : 'Sandbox endpoints may be local receivers, such as http://127.0.0.1:4000/hooks.'}</p></div>
<div class="field"><label for="endpoint-description">Description (optional)</label><input id="endpoint-description" name="description" maxlength="500" size="50" value="${endpoint?.description ?? ''}"></div>
<fieldset><legend>Events (none ticked: all events)</legend>${boxes}</fieldset>
<button type="submit">${submit}</button></form>`;
}

export function endpointsView(ctx: PageContext, result: Page<WebhookEndpointRow>): Html {
  const rows = result.items.map(
    (e) =>
      html`<tr><td><a href="${base(ctx.mode)}/webhooks/${e.id}">${e.url}</a></td><td>${badge(e.status)}</td><td class="hide-phone">${e.events ? (JSON.parse(e.events) as string[]).join(', ') : 'all events'}</td><td class="hide-phone">${e.description ?? ''}</td></tr>`,
  );
  const create = can(ctx.user.role, 'webhooks')
    ? html`<h2>Add an endpoint</h2>${endpointForm(ctx, `${base(ctx.mode)}/webhooks`, null, 'Add endpoint')}`
    : '';
  return html`${table(
    'Webhook endpoints',
    html`<tr><th scope="col">URL</th><th scope="col">Status</th><th scope="col" class="hide-phone">Events</th><th scope="col" class="hide-phone">Description</th></tr>`,
    rows,
    'No endpoint yet: add one to receive events.',
  )}${pager(`${base(ctx.mode)}/webhooks`, {}, result)}${create}`;
}

/** A secret shown once: after creating an endpoint, rotating its secret, or rotating a key. */
export function secretBox(label: string, value: string, id: string, note: string): Html {
  return html`<div class="secret" role="status"><p><strong>${label}</strong> ${note}</p>
<label for="${id}">${label}</label>
<input id="${id}" readonly value="${value}">
<p><button type="button" data-copy="${id}" hidden>Copy</button></p></div>`;
}

export function endpointView(
  ctx: PageContext,
  endpoint: WebhookEndpointRow,
  deliveries: Deliveries,
  query: Record<string, string | undefined>,
  secret?: string,
): Html {
  const path = `${base(ctx.mode)}/webhooks/${endpoint.id}`;
  const manage = can(ctx.user.role, 'webhooks');
  const rows = deliveries.items.map(
    ({ delivery, event, attempts }) =>
      html`<tr><td>${event ? html`<code>${event.event}</code> <a href="${base(ctx.mode)}/${event.transaction_id.startsWith('po_') ? 'payouts' : event.transaction_id.startsWith('tu_') ? 'topups' : 'payments'}/${event.transaction_id}">${event.transaction_id}</a>` : delivery.event_id}</td>
<td>${badge(delivery.status)}</td><td class="num">${delivery.attempts}</td>
<td>${attempts.length ? html`<ul>${attempts.map((a) => html`<li>${when(a.attempted_at)}: ${a.response_status === null ? 'no answer' : `HTTP ${a.response_status}`}, ${a.duration_ms} ms${a.error ? html`, ${a.error}` : ''}</li>`)}</ul>` : html`<span class="muted">not sent yet</span>`}</td>
<td>${manage ? postButton(ctx, `${base(ctx.mode)}/events/${delivery.event_id}/resend`, 'Resend', { secondary: true, fields: { endpoint_id: endpoint.id, back: path } }) : ''}</td></tr>`,
  );
  const actions = manage
    ? html`<div class="actions card">
${postButton(ctx, `${path}/test`, 'Send test event')}
${postButton(ctx, `${path}/status`, endpoint.status === 'enabled' ? 'Disable' : 'Enable', { secondary: true, fields: { status: endpoint.status === 'enabled' ? 'disabled' : 'enabled' } })}
${postButton(ctx, `${path}/rotate-secret`, 'Rotate signing secret', { secondary: true })}
${postButton(ctx, `${path}/delete`, 'Delete endpoint', { danger: true })}</div>`
    : '';
  return html`${secret ? secretBox('Signing secret', secret, 'endpoint-secret', 'Copy it now: it is shown only this once. Verify X-Webhook-Signature with it.') : ''}
<div class="card"><dl class="facts"><dt>URL</dt><dd>${endpoint.url}</dd><dt>Status</dt><dd>${badge(endpoint.status)}</dd><dt>Events</dt><dd>${endpoint.events ? (JSON.parse(endpoint.events) as string[]).join(', ') : 'all events'}</dd><dt>Created</dt><dd>${when(endpoint.created_at)}</dd></dl></div>
${actions}
${manage ? html`<h2>Edit</h2>${endpointForm(ctx, path, endpoint, 'Save changes')}` : ''}
<h2>Deliveries</h2>
${table(
  'Deliveries',
  html`<tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Responses</th><th scope="col"><span class="muted">Action</span></th></tr>`,
  rows,
  'Nothing was delivered to this endpoint yet.',
)}${pager(path, query, deliveries)}`;
}
