import {
  paymentFlowValues,
  paymentStatusValues,
  payoutStatusValues,
  payoutTypeValues,
} from '../../../generated/openapi.js';
import type { overview, TimelineEvent } from '../../domain/dashboard-views.js';
import { dayOf, type Translator } from '../../i18n/translator.js';
import type { OperatorConnection } from '../../operators/operator-health.js';
import type { Page } from '../../storage/pagination.js';
import type {
  LedgerRow,
  ListedPaymentRow,
  ListedPayoutRow,
  ListedTopupRow,
  PaymentRow,
  PayoutRow,
  ServiceRow,
  TopupRow,
} from '../../storage/rows.js';
import { can } from '../auth.js';
import { onceInput } from '../form-once.js';
import { type Html, html } from '../html.js';
import { th } from '../i18n.js';
import { bankRecipient, payoutBatchFact } from './bank-batches.js';
import { ratesTable, volumeChart } from './chart.js';
import {
  badge,
  choices,
  csvLink,
  type FilterField,
  filters,
  label,
  pager,
  table,
  when,
} from './components.js';
import { base, csrfInput, type PageContext } from './layout.js';
import { serviceFilter, serviceLabel } from './services.js';
import { attemptLine } from './webhooks.js';

type Overview = Awaited<ReturnType<typeof overview>>;
type Query = Record<string, string | undefined>;

const link = (ctx: PageContext, kind: string, id: string) =>
  html`<a href="${base(ctx.mode)}/${kind}/${id}"><code>${id}</code></a>`;

/** The account's services by id: what the pages show instead of a `svc_` id. */
export type Services = ReadonlyMap<string, ServiceRow>;

export const servicesById = (services: ServiceRow[]): Services => new Map(services.map((s) => [s.id, s]));

function paymentRows(ctx: PageContext, rows: ListedPaymentRow[], services: Services): Html[] {
  const { t } = ctx;
  return rows.map(
    (p) =>
      html`<tr><td>${link(ctx, 'payments', p.id)}</td><td class="num">${t.money(p.amount, p.currency)}</td><td>${badge(t, p.status)}</td><td class="hide-phone">${serviceLabel(t, services.get(p.service_id), p.service_id)}</td><td class="hide-phone">${label(t, 'flow', p.flow)}</td><td class="hide-phone">${p.customer_msisdn ?? ''}</td><td>${when(t, p.created_at)}</td></tr>`,
  );
}
const paymentHead = (t: Translator) =>
  html`<tr><th scope="col">${t.t('payments.payment')}</th><th scope="col" class="num">${t.t('col.amount')}</th><th scope="col">${t.t('col.status')}</th><th scope="col" class="hide-phone">${t.t('fact.service')}</th><th scope="col" class="hide-phone">${t.t('payments.flow')}</th><th scope="col" class="hide-phone">${t.t('payments.customer')}</th><th scope="col">${t.t('col.created')}</th></tr>`;

function payoutRows(ctx: PageContext, rows: ListedPayoutRow[]): Html[] {
  const { t } = ctx;
  return rows.map(
    (p) =>
      html`<tr><td>${link(ctx, 'payouts', p.id)}</td><td class="num">${t.money(p.amount, p.currency)}</td><td>${badge(t, p.status)}</td><td class="hide-phone">${label(t, 'payoutType', p.payout_type)}</td><td class="hide-phone">${p.recipient_msisdn ?? p.recipient_wallet_id ?? ''}</td><td>${when(t, p.created_at)}</td></tr>`,
  );
}
const payoutHead = (t: Translator) =>
  html`<tr><th scope="col">${t.t('payouts.payout')}</th><th scope="col" class="num">${t.t('col.amount')}</th><th scope="col">${t.t('col.status')}</th><th scope="col" class="hide-phone">${t.t('col.type')}</th><th scope="col" class="hide-phone">${t.t('payouts.recipient')}</th><th scope="col">${t.t('col.created')}</th></tr>`;

function topupRows(ctx: PageContext, rows: ListedTopupRow[]): Html[] {
  const { t } = ctx;
  return rows.map(
    (tu) =>
      html`<tr><td>${link(ctx, 'topups', tu.id)}</td><td class="num">${t.money(tu.amount, tu.currency)}</td><td>${badge(t, tu.status)}</td><td class="hide-phone">${tu.payer_msisdn}</td><td>${when(t, tu.created_at)}</td></tr>`,
  );
}
const topupHead = (t: Translator) =>
  html`<tr><th scope="col">${t.t('topups.topup')}</th><th scope="col" class="num">${t.t('col.amount')}</th><th scope="col">${t.t('col.status')}</th><th scope="col" class="hide-phone">${t.t('topups.payer')}</th><th scope="col">${t.t('col.created')}</th></tr>`;

/** A day for a date input: `YYYY-MM-DD` in the account's zone. */
const dayInput = (t: Translator, ms: number) => dayOf(ms, t.timeZone);

/** A connection state's badge, in the colours of the movement states it resembles. */
const stateBadge: Record<OperatorConnection['state'], string> = {
  connected: 'success',
  failing: 'failed',
  checking: 'pending',
  not_configured: 'disabled',
};

/**
 * Whether this server reaches each live operator product: its state, last success and last
 * error (server/operators/operator-health.ts); the error's words are the operator's, untranslated.
 */
function operatorsSection(t: Translator, operators: readonly OperatorConnection[]): Html {
  const rows = operators.map(
    (o) =>
      html`<tr><td>${label(t, 'method', o.name)}</td><td>${label(t, 'operatorProduct', o.product)}</td><td>${o.environment ?? ''}</td><td><span class="badge badge-${stateBadge[o.state]}">${label(t, 'operatorState', o.state)}</span></td><td>${when(t, o.lastSuccessAt)}</td><td>${o.lastError ? html`${label(t, 'operatorError', o.lastError.code)}, ${when(t, o.lastError.at)}<br><code>${o.lastError.message}</code>` : ''}</td></tr>`,
  );
  return html`<section aria-labelledby="operators"><h2 id="operators">${t.t('operators.title')}</h2><p class="muted">${t.t('operators.note')}</p>${table(
    t,
    t.t('operators.title'),
    html`<tr><th scope="col">${t.t('operators.operator')}</th><th scope="col">${t.t('operators.product')}</th><th scope="col">${t.t('operators.environment')}</th><th scope="col">${t.t('operators.state')}</th><th scope="col">${t.t('operators.lastSuccess')}</th><th scope="col">${t.t('operators.lastError')}</th></tr>`,
    rows,
  )}</section>`;
}

export function overviewView(
  ctx: PageContext,
  data: Overview,
  services: Services,
  operators: readonly OperatorConnection[],
): Html {
  const { t } = ctx;
  const balances = data.balances.map(
    (b) =>
      html`<div class="card"><p class="muted">${t.t('overview.balance', { currency: b.currency })}</p><p class="figure">${t.money(b.available, b.currency)}</p></div>`,
  );
  const charts = [...data.volumes.entries()].map(([currency, days]) => volumeChart(t, currency, days));
  const failing = data.failingEndpoints.map(
    (e) =>
      html`<tr><td><a href="${base(ctx.mode)}/webhooks/${e.id}">${e.url}</a></td><td class="num">${e.failing}</td><td>${e.last_error ? html`<code>${e.last_error}</code>` : ''}</td><td>${when(t, e.last_failure_at)}</td></tr>`,
  );
  return html`<section aria-labelledby="balances"><h2 id="balances">${t.t('overview.balances')}</h2><div class="cards">${balances}</div></section>
<section aria-labelledby="volumes"><h2 id="volumes">${t.t('overview.volume')}</h2>${charts}</section>
${insight(ctx, data)}
<section aria-labelledby="failing"><h2 id="failing">${t.t('overview.failing')}</h2>${table(
    t,
    t.t('overview.failing'),
    html`<tr><th scope="col">${t.t('overview.endpoint')}</th><th scope="col" class="num">${t.t('overview.failingCount')}</th><th scope="col">${t.t('overview.lastError')}</th><th scope="col">${t.t('overview.lastAttempt')}</th></tr>`,
    failing,
    t.t('overview.noFailing'),
  )}</section>
${operatorsSection(t, operators)}
<section aria-labelledby="recent-payments"><h2 id="recent-payments">${t.t('overview.recentPayments')}</h2>${table(t, t.t('overview.recentPayments'), paymentHead(t), paymentRows(ctx, data.payments, services), t.t('overview.noPayment'))}<p><a href="${base(ctx.mode)}/payments">${t.t('overview.allPayments')}</a></p></section>
<section aria-labelledby="recent-payouts"><h2 id="recent-payouts">${t.t('overview.recentPayouts')}</h2>${table(t, t.t('overview.recentPayouts'), payoutHead(t), payoutRows(ctx, data.payouts), t.t('overview.noPayout'))}<p><a href="${base(ctx.mode)}/payouts">${t.t('overview.allPayouts')}</a></p></section>
<section aria-labelledby="report"><h2 id="report">${t.t('overview.report')}</h2>
<form class="filters" method="get" action="${base(ctx.mode)}/reports/balance-transactions.csv">
<div><label for="report-from">${t.t('filters.from')}</label><input id="report-from" name="from" type="date" required value="${dayInput(t, data.now - 29 * 86_400_000)}"></div>
<div><label for="report-to">${t.t('filters.to')}</label><input id="report-to" name="to" type="date" required value="${dayInput(t, data.now)}"></div>
<button type="submit" id="download-report">${t.t('overview.download')}</button></form></section>`;
}

/** Success and failure rates of the overview's days, by day, by service and by operator. */
function insight(ctx: PageContext, data: Overview): Html {
  const { t } = ctx;
  const { byDay, byService, byOperator } = data.rates;
  const content = byDay.length
    ? html`${ratesTable(
        t,
        'rates-day',
        t.t('insight.byDay'),
        t.t('insight.day'),
        byDay.map((r) => [t.shortDay(r.key), r]),
      )}${ratesTable(
        t,
        'rates-service',
        t.t('insight.byService'),
        t.t('insight.service'),
        byService.map((r) => [
          r.name ? html`${r.name} <code>${r.key}</code>` : html`<code>${r.key}</code>`,
          r,
        ]),
      )}${ratesTable(
        t,
        'rates-operator',
        t.t('insight.byOperator'),
        t.t('insight.operator'),
        byOperator.map((r) => [r.key ? label(t, 'method', r.key) : t.t('insight.noOperator'), r]),
      )}`
    : html`<p class="muted">${t.t('insight.none', { days: data.days })}</p>`;
  return html`<section aria-labelledby="insight"><h2 id="insight">${t.t('insight.title')}</h2><p class="muted">${t.t('insight.intro', { days: data.days })}</p>${content}</section>`;
}

const dateFilters = (t: Translator): FilterField[] => [
  { name: 'from', label: t.t('filters.from'), type: 'date' },
  { name: 'to', label: t.t('filters.to'), type: 'date' },
];

export function paymentsView(
  ctx: PageContext,
  query: Query,
  result: Page<ListedPaymentRow>,
  services: ServiceRow[],
): Html {
  const { t } = ctx;
  const path = `${base(ctx.mode)}/payments`;
  return html`${filters(
    t,
    path,
    [
      { name: 'status', label: t.t('col.status'), options: choices(t, 'status', paymentStatusValues) },
      { name: 'flow', label: t.t('payments.flow'), options: choices(t, 'flow', paymentFlowValues) },
      serviceFilter(t, services),
      ...dateFilters(t),
    ],
    query,
  )}${csvLink(t, path, query)}${table(t, t.t('payments.title'), paymentHead(t), paymentRows(ctx, result.items, servicesById(services)), t.t('payments.empty'))}${pager(t, path, query, result)}`;
}

export function payoutsView(
  ctx: PageContext,
  query: Query,
  result: Page<ListedPayoutRow>,
  refunds: boolean,
): Html {
  const { t } = ctx;
  const path = `${base(ctx.mode)}/${refunds ? 'refunds' : 'payouts'}`;
  const fields: FilterField[] = [
    { name: 'status', label: t.t('col.status'), options: choices(t, 'status', payoutStatusValues) },
    ...(refunds
      ? []
      : [
          {
            name: 'payout_type',
            label: t.t('col.type'),
            options: choices(t, 'payoutType', payoutTypeValues),
          },
        ]),
    { name: 'payment_id', label: t.t('payouts.paymentId') },
    ...(refunds ? [] : [{ name: 'bulk_id', label: t.t('payouts.bulkId') }]),
    ...dateFilters(t),
  ];
  const send =
    !refunds && can(ctx.user.role, 'payout')
      ? html`<p class="actions"><a class="button" href="${path}/new" id="new-payout">${t.t('moneyOut.send')}</a><a class="button secondary" href="${path}/bulk" id="new-bulk">${t.t('moneyOut.bulk')}</a></p>`
      : '';
  return html`${send}${filters(t, path, fields, query)}${csvLink(t, path, query)}${table(
    t,
    t.t(refunds ? 'refunds.title' : 'payouts.title'),
    payoutHead(t),
    payoutRows(ctx, result.items),
    t.t(refunds ? 'refunds.empty' : 'payouts.empty'),
  )}${pager(t, path, query, result)}`;
}

export function topupsView(ctx: PageContext, query: Query, result: Page<ListedTopupRow>): Html {
  const { t } = ctx;
  const path = `${base(ctx.mode)}/topups`;
  return html`${filters(
    t,
    path,
    [
      // A top-up's states are a payment's (the contract's listTopups filters by PaymentStatus).
      { name: 'status', label: t.t('col.status'), options: choices(t, 'status', paymentStatusValues) },
      ...dateFilters(t),
    ],
    query,
  )}${csvLink(t, path, query)}${table(t, t.t('topups.title'), topupHead(t), topupRows(ctx, result.items), t.t('topups.empty'))}${pager(t, path, query, result)}`;
}

function facts(entries: Array<[string, unknown]>): Html {
  return html`<dl class="facts">${entries
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;
}

/** State changes, ledger entries, events and every delivery attempt, in time order. */
function timeline(
  ctx: PageContext,
  movement: { created_at: number; completed_at: number | null; status: string; failure_code: string | null },
  data: { ledger: LedgerRow[]; events: TimelineEvent[] },
  refunds: ListedPayoutRow[] = [],
): Html {
  const { t } = ctx;
  const items: Array<{ at: number; body: Html }> = [
    { at: movement.created_at, body: html`<strong>${t.t('timeline.created')}</strong>` },
  ];
  if (movement.completed_at !== null) {
    items.push({
      at: movement.completed_at,
      body: html`<strong>${th(t, 'timeline.became', { status: badge(t, movement.status) })}</strong>${movement.failure_code ? html` (<code>${movement.failure_code}</code>)` : ''}`,
    });
  }
  // A payment's refunds: their own steps, and their entries and events marked as theirs.
  const refundIds = new Set(refunds.map((r) => r.id));
  const of = (sourceId: string) =>
    refundIds.has(sourceId)
      ? html`<span class="tag">${th(t, 'timeline.ofRefund', { id: link(ctx, 'payouts', sourceId) })}</span> `
      : '';
  for (const refund of refunds) {
    items.push({
      at: refund.created_at,
      body: html`${of(refund.id)}<strong>${t.t('timeline.refundCreated', { amount: t.money(refund.amount, refund.currency) })}</strong>`,
    });
    if (refund.completed_at !== null) {
      items.push({
        at: refund.completed_at,
        body: html`${of(refund.id)}<strong>${th(t, 'timeline.became', { status: badge(t, refund.status) })}</strong>`,
      });
    }
  }
  for (const entry of data.ledger) {
    items.push({
      at: entry.created_at,
      body: html`${of(entry.source_id)}<strong>${t.t('timeline.ledger', { type: label(t, 'ledger', entry.type) })}</strong> ${t.t('timeline.ledgerAmount', { amount: `${entry.amount > 0 ? '+' : ''}${t.money(entry.amount, entry.currency)}`, balance: t.money(entry.balance_after, entry.currency) })} <code>${entry.id}</code>`,
    });
  }
  for (const { event, deliveries } of data.events) {
    const attempts = deliveries.map(
      ({ delivery, endpoint, attempts }) =>
        html`<li>${th(t, 'timeline.delivery', { url: endpoint?.url ?? delivery.endpoint_id, status: badge(t, delivery.status), count: delivery.attempts })}
<ul>${attempts.map((a) => html`<li>${attemptLine(t, a)}</li>`)}</ul>
${can(ctx.user.role, 'webhooks') ? html`<form method="post" action="${base(ctx.mode)}/events/${event.id}/resend">${csrfInput(ctx.csrf)}${onceInput()}<input type="hidden" name="endpoint_id" value="${delivery.endpoint_id}"><input type="hidden" name="back" value="${ctx.path}"><button type="submit" class="secondary">${t.t('timeline.resend')}</button></form>` : ''}</li>`,
    );
    items.push({
      at: event.created_at,
      body: html`${of(event.transaction_id)}<strong>${th(t, 'timeline.event', { name: html`<code>${event.event}</code>` })}</strong> <code>${event.id}</code>${deliveries.length ? html`<ul>${attempts}</ul>` : html` <span class="muted">${t.t('timeline.noEndpoint')}</span>`}`,
    });
  }
  items.sort((a, b) => a.at - b.at);
  return html`<ol class="timeline">${items.map((item) => html`<li>${when(t, item.at)} · ${item.body}</li>`)}</ol>`;
}

export function paymentDetail(
  ctx: PageContext,
  payment: PaymentRow,
  data: { ledger: LedgerRow[]; events: TimelineEvent[] },
  refunds: ListedPayoutRow[],
  service: ServiceRow | undefined,
): Html {
  const { t } = ctx;
  const remaining = payment.amount - payment.refunded_amount;
  let refund: Html;
  if (payment.status !== 'success' || remaining <= 0) {
    refund = html`<p class="muted">${payment.status !== 'success' ? t.t('refund.onlySuccessful', { status: label(t, 'status', payment.status) }) : t.t('refund.full')}</p>`;
  } else if (!can(ctx.user.role, 'refund')) {
    refund = html`<p class="muted">${t.t('refund.ownerOnly')}</p>`;
  } else {
    refund = html`<form method="post" action="${base(ctx.mode)}/payments/${payment.id}/refund" class="card">
${csrfInput(ctx.csrf)}${onceInput()}
<div class="field"><label for="refund-amount">${t.t('refund.amount', { max: t.money(remaining, payment.currency) })}</label>
<input id="refund-amount" name="amount" type="number" inputmode="numeric" min="1" max="${remaining}" value="${remaining}" required></div>
<div class="field"><label for="refund-reference">${t.t('refund.reference')}</label><input id="refund-reference" name="reference" maxlength="100"></div>
<button type="submit" class="danger" id="refund-button" data-refund-label="${refundLabel(t, payment, null)}" data-currency="${payment.currency}" data-locale="${t.tag}">${refundLabel(t, payment, remaining)}</button></form>`;
  }
  return html`<div class="card">${facts([
    [t.t('col.amount'), t.money(payment.amount, payment.currency)],
    [t.t('col.status'), badge(t, payment.status)],
    [t.t('fact.refunded'), t.money(payment.refunded_amount, payment.currency)],
    [t.t('payments.flow'), label(t, 'flow', payment.flow)],
    [t.t('payments.customer'), payment.customer_msisdn],
    [t.t('fact.method'), payment.payment_method ? label(t, 'method', payment.payment_method) : null],
    [t.t('fact.service'), serviceLabel(t, service, payment.service_id)],
    [t.t('fact.reference'), payment.reference],
    [t.t('col.created'), when(t, payment.created_at)],
  ])}</div>
<section aria-labelledby="refund-title"><h2 id="refund-title">${t.t('refund.heading')}</h2>${refund}
${refunds.length ? table(t, t.t('refund.table'), payoutHead(t), payoutRows(ctx, refunds)) : ''}</section>
<section aria-labelledby="timeline-title"><h2 id="timeline-title">${t.t('timeline.heading')}</h2>${timeline(ctx, payment, data, refunds)}</section>`;
}

/**
 * What the refund button refunds: the amount, the payment (its reference, else its id) and to
 * whom. Without an amount, the words with `{amount}` left for the page's script to fill in as
 * the amount field changes (views/script.ts).
 */
function refundLabel(t: Translator, payment: PaymentRow, amount: number | null): string {
  return t.t('refund.submitWhat', {
    amount: amount === null ? '{amount}' : t.money(amount, payment.currency),
    payment: payment.reference ?? payment.id,
    customer: payment.customer_msisdn ?? '-',
  });
}

export function payoutDetail(
  ctx: PageContext,
  payout: PayoutRow,
  data: { ledger: LedgerRow[]; events: TimelineEvent[] },
): Html {
  const { t } = ctx;
  return html`<div class="card">${facts([
    [t.t('col.amount'), t.money(payout.amount, payout.currency)],
    [t.t('col.status'), badge(t, payout.status)],
    [t.t('col.type'), label(t, 'payoutType', payout.payout_type)],
    [
      t.t('payouts.recipient'),
      payout.recipient_msisdn ?? payout.recipient_wallet_id ?? bankRecipient(payout),
    ],
    [t.t('fact.bankBatch'), payoutBatchFact(ctx, payout)],
    [t.t('fact.refundOf'), payout.payment_id ? link(ctx, 'payments', payout.payment_id) : null],
    [t.t('fact.bulk'), payout.bulk_id],
    [t.t('fact.reference'), payout.reference],
    [t.t('col.created'), when(t, payout.created_at)],
  ])}</div>
<section aria-labelledby="timeline-title"><h2 id="timeline-title">${t.t('timeline.heading')}</h2>${timeline(ctx, payout, data)}</section>`;
}

export function topupDetail(
  ctx: PageContext,
  topup: TopupRow,
  data: { ledger: LedgerRow[]; events: TimelineEvent[] },
): Html {
  const { t } = ctx;
  return html`<div class="card">${facts([
    [t.t('col.amount'), t.money(topup.amount, topup.currency)],
    [t.t('col.status'), badge(t, topup.status)],
    [t.t('topups.payer'), topup.payer_msisdn],
    [t.t('fact.method'), topup.payment_method ? label(t, 'method', topup.payment_method) : null],
    [t.t('fact.reference'), topup.reference],
    [t.t('col.created'), when(t, topup.created_at)],
  ])}</div>
<section aria-labelledby="timeline-title"><h2 id="timeline-title">${t.t('timeline.heading')}</h2>${timeline(ctx, topup, data)}</section>`;
}

/** What the search box found: the movements a reference or a phone number matched, by kind. */
export function searchView(
  ctx: PageContext,
  found: { q: string; payments: ListedPaymentRow[]; payouts: ListedPayoutRow[]; topups: ListedTopupRow[] },
  services: Services,
): Html {
  const { t } = ctx;
  if (found.payments.length + found.payouts.length + found.topups.length === 0) {
    return html`<p class="muted" id="search-none">${t.t('search.none', { q: found.q })}</p>`;
  }
  const section = (title: string, id: string, rows: Html[], head: Html) =>
    rows.length
      ? html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${table(t, title, head, rows)}</section>`
      : '';
  return html`${section(t.t('payments.title'), 'found-payments', paymentRows(ctx, found.payments, services), paymentHead(t))}
${section(t.t('payouts.title'), 'found-payouts', payoutRows(ctx, found.payouts), payoutHead(t))}
${section(t.t('topups.title'), 'found-topups', topupRows(ctx, found.topups), topupHead(t))}`;
}
