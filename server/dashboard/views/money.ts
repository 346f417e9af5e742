import {
  paymentFlowValues,
  paymentStatusValues,
  payoutStatusValues,
  payoutTypeValues,
} from '../../../generated/openapi.js';
import type { overview, TimelineEvent } from '../../domain/dashboard-views.js';
import type { Page } from '../../storage/pagination.js';
import type {
  LedgerRow,
  ListedPaymentRow,
  ListedPayoutRow,
  ListedTopupRow,
  PaymentRow,
  PayoutRow,
  TopupRow,
} from '../../storage/rows.js';
import { can } from '../auth.js';
import { type Html, html } from '../html.js';
import { bankRecipient, payoutBatchFact } from './bank-batches.js';
import { volumeChart } from './chart.js';
import { badge, type FilterField, filters, money, pager, table, when } from './components.js';
import { base, csrfInput, type PageContext } from './layout.js';

type Overview = Awaited<ReturnType<typeof overview>>;
type Query = Record<string, string | undefined>;

const link = (ctx: PageContext, kind: string, id: string) =>
  html`<a href="${base(ctx.mode)}/${kind}/${id}"><code>${id}</code></a>`;

function paymentRows(ctx: PageContext, rows: ListedPaymentRow[]): Html[] {
  return rows.map(
    (p) =>
      html`<tr><td>${link(ctx, 'payments', p.id)}</td><td class="num">${money(p.amount, p.currency)}</td><td>${badge(p.status)}</td><td class="hide-phone">${p.flow}</td><td class="hide-phone">${p.customer_msisdn ?? ''}</td><td>${when(p.created_at)}</td></tr>`,
  );
}
const paymentHead = html`<tr><th scope="col">Payment</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col" class="hide-phone">Flow</th><th scope="col" class="hide-phone">Customer</th><th scope="col">Created</th></tr>`;

function payoutRows(ctx: PageContext, rows: ListedPayoutRow[]): Html[] {
  return rows.map(
    (p) =>
      html`<tr><td>${link(ctx, 'payouts', p.id)}</td><td class="num">${money(p.amount, p.currency)}</td><td>${badge(p.status)}</td><td class="hide-phone">${p.payout_type}</td><td class="hide-phone">${p.recipient_msisdn ?? p.recipient_wallet_id ?? ''}</td><td>${when(p.created_at)}</td></tr>`,
  );
}
const payoutHead = html`<tr><th scope="col">Payout</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col" class="hide-phone">Type</th><th scope="col" class="hide-phone">Recipient</th><th scope="col">Created</th></tr>`;

function topupRows(ctx: PageContext, rows: ListedTopupRow[]): Html[] {
  return rows.map(
    (t) =>
      html`<tr><td>${link(ctx, 'topups', t.id)}</td><td class="num">${money(t.amount, t.currency)}</td><td>${badge(t.status)}</td><td class="hide-phone">${t.payer_msisdn}</td><td>${when(t.created_at)}</td></tr>`,
  );
}
const topupHead = html`<tr><th scope="col">Top-up</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col" class="hide-phone">Payer</th><th scope="col">Created</th></tr>`;

export function overviewView(ctx: PageContext, data: Overview): Html {
  const balances = data.balances.map(
    (b) =>
      html`<div class="card"><p class="muted">Main balance, ${b.currency}</p><p class="figure">${money(b.available, b.currency)}</p></div>`,
  );
  const charts = [...data.volumes.entries()].map(([currency, days]) => volumeChart(currency, days));
  const failing = data.failingEndpoints.map(
    (e) =>
      html`<tr><td><a href="${base(ctx.mode)}/webhooks/${e.id}">${e.url}</a></td><td class="num">${e.failing}</td><td>${e.last_error ?? ''}</td><td>${when(e.last_failure_at)}</td></tr>`,
  );
  return html`<section aria-labelledby="balances"><h2 id="balances">Balances</h2><div class="cards">${balances}</div></section>
<section aria-labelledby="volumes"><h2 id="volumes">Volume, last 30 days</h2>${charts}</section>
<section aria-labelledby="failing"><h2 id="failing">Failing webhook endpoints</h2>${table(
    'Failing webhook endpoints',
    html`<tr><th scope="col">Endpoint</th><th scope="col" class="num">Failing deliveries (7 days)</th><th scope="col">Last error</th><th scope="col">Last attempt</th></tr>`,
    failing,
    'No endpoint is failing.',
  )}</section>
<section aria-labelledby="recent-payments"><h2 id="recent-payments">Recent payments</h2>${table('Recent payments', paymentHead, paymentRows(ctx, data.payments), 'No payment yet.')}<p><a href="${base(ctx.mode)}/payments">All payments</a></p></section>
<section aria-labelledby="recent-payouts"><h2 id="recent-payouts">Recent payouts</h2>${table('Recent payouts', payoutHead, payoutRows(ctx, data.payouts), 'No payout yet.')}<p><a href="${base(ctx.mode)}/payouts">All payouts</a></p></section>
<section aria-labelledby="report"><h2 id="report">Balance report (CSV)</h2>
<form class="filters" method="get" action="${base(ctx.mode)}/reports/balance-transactions.csv">
<div><label for="report-from">From (UTC date)</label><input id="report-from" name="from" type="date" required value="${new Date(data.now - 29 * 86_400_000).toISOString().slice(0, 10)}"></div>
<div><label for="report-to">To (UTC date, included)</label><input id="report-to" name="to" type="date" required value="${new Date(data.now).toISOString().slice(0, 10)}"></div>
<button type="submit" id="download-report">Download CSV</button></form></section>`;
}

const dateFilters: FilterField[] = [
  { name: 'from', label: 'From (UTC date)', type: 'date' },
  { name: 'to', label: 'To (UTC date)', type: 'date' },
];

export function paymentsView(ctx: PageContext, query: Query, result: Page<ListedPaymentRow>): Html {
  const path = `${base(ctx.mode)}/payments`;
  return html`${filters(
    path,
    [
      { name: 'status', label: 'Status', options: paymentStatusValues },
      { name: 'flow', label: 'Flow', options: paymentFlowValues },
      { name: 'service_id', label: 'Service id' },
      ...dateFilters,
    ],
    query,
  )}${table('Payments', paymentHead, paymentRows(ctx, result.items), 'No payment matches.')}${pager(path, query, result)}`;
}

export function payoutsView(
  ctx: PageContext,
  query: Query,
  result: Page<ListedPayoutRow>,
  refunds: boolean,
): Html {
  const path = `${base(ctx.mode)}/${refunds ? 'refunds' : 'payouts'}`;
  const fields: FilterField[] = [
    { name: 'status', label: 'Status', options: payoutStatusValues },
    ...(refunds ? [] : [{ name: 'payout_type', label: 'Type', options: payoutTypeValues }]),
    { name: 'payment_id', label: 'Payment id' },
    ...(refunds ? [] : [{ name: 'bulk_id', label: 'Bulk id' }]),
    ...dateFilters,
  ];
  return html`${filters(path, fields, query)}${table(
    refunds ? 'Refunds' : 'Payouts',
    payoutHead,
    payoutRows(ctx, result.items),
    refunds ? 'No refund matches.' : 'No payout matches.',
  )}${pager(path, query, result)}`;
}

export function topupsView(ctx: PageContext, query: Query, result: Page<ListedTopupRow>): Html {
  const path = `${base(ctx.mode)}/topups`;
  return html`${filters(
    path,
    [
      // A top-up's states are a payment's (the contract's listTopups filters by PaymentStatus).
      { name: 'status', label: 'Status', options: paymentStatusValues },
      ...dateFilters,
    ],
    query,
  )}${table('Top-ups', topupHead, topupRows(ctx, result.items), 'No top-up matches.')}${pager(path, query, result)}`;
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
): Html {
  const items: Array<{ at: number; body: Html }> = [
    { at: movement.created_at, body: html`<strong>Created</strong>` },
  ];
  if (movement.completed_at !== null) {
    items.push({
      at: movement.completed_at,
      body: html`<strong>Became ${badge(movement.status)}</strong>${movement.failure_code ? html` (${movement.failure_code})` : ''}`,
    });
  }
  for (const entry of data.ledger) {
    items.push({
      at: entry.created_at,
      body: html`<strong>Ledger: ${entry.type}</strong> ${entry.amount > 0 ? '+' : ''}${money(entry.amount, entry.currency)}, balance after ${money(entry.balance_after, entry.currency)} <code>${entry.id}</code>`,
    });
  }
  for (const { event, deliveries } of data.events) {
    const attempts = deliveries.map(
      ({ delivery, endpoint, attempts }) =>
        html`<li>To ${endpoint?.url ?? delivery.endpoint_id}: ${badge(delivery.status)} after ${delivery.attempts} attempt(s)
<ul>${attempts.map(
          (a) =>
            html`<li>${when(a.attempted_at)}: ${a.response_status === null ? 'no answer' : `HTTP ${a.response_status}`}, ${a.duration_ms} ms${a.error ? html`, ${a.error}` : ''}</li>`,
        )}</ul>
${can(ctx.user.role, 'webhooks') ? html`<form method="post" action="${base(ctx.mode)}/events/${event.id}/resend">${csrfInput(ctx.csrf)}<input type="hidden" name="endpoint_id" value="${delivery.endpoint_id}"><button type="submit" class="secondary">Resend to this endpoint</button></form>` : ''}</li>`,
    );
    items.push({
      at: event.created_at,
      body: html`<strong>Event ${event.event}</strong> <code>${event.id}</code>${deliveries.length ? html`<ul>${attempts}</ul>` : html` <span class="muted">(no endpoint subscribed)</span>`}`,
    });
  }
  items.sort((a, b) => a.at - b.at);
  return html`<ol class="timeline">${items.map((item) => html`<li>${when(item.at)} · ${item.body}</li>`)}</ol>`;
}

export function paymentDetail(
  ctx: PageContext,
  payment: PaymentRow,
  data: { ledger: LedgerRow[]; events: TimelineEvent[] },
  refunds: ListedPayoutRow[],
): Html {
  const remaining = payment.amount - payment.refunded_amount;
  let refund: Html;
  if (payment.status !== 'success' || remaining <= 0) {
    refund = html`<p class="muted">${payment.status !== 'success' ? `Only successful payments can be refunded; this one is ${payment.status}.` : 'This payment is fully refunded.'}</p>`;
  } else if (!can(ctx.user.role, 'refund')) {
    refund = html`<p class="muted">Only an owner can refund a payment.</p>`;
  } else {
    refund = html`<form method="post" action="${base(ctx.mode)}/payments/${payment.id}/refund" class="card">
${csrfInput(ctx.csrf)}
<div class="field"><label for="refund-amount">Amount to refund (at most ${money(remaining, payment.currency)})</label>
<input id="refund-amount" name="amount" type="number" inputmode="numeric" min="1" max="${remaining}" value="${remaining}" required></div>
<div class="field"><label for="refund-reference">Reference (optional)</label><input id="refund-reference" name="reference" maxlength="100"></div>
<button type="submit" class="danger" id="refund-button">Refund ${payment.customer_msisdn ?? ''}</button></form>`;
  }
  return html`<div class="card">${facts([
    ['Amount', money(payment.amount, payment.currency)],
    ['Status', badge(payment.status)],
    ['Refunded', money(payment.refunded_amount, payment.currency)],
    ['Flow', payment.flow],
    ['Customer', payment.customer_msisdn],
    ['Method', payment.payment_method],
    ['Service', payment.service_id],
    ['Reference', payment.reference],
    ['Created', when(payment.created_at)],
  ])}</div>
<section aria-labelledby="refund-title"><h2 id="refund-title">Refund</h2>${refund}
${refunds.length ? table('Refunds of this payment', payoutHead, payoutRows(ctx, refunds)) : ''}</section>
<section aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2>${timeline(ctx, payment, data)}</section>`;
}

export function payoutDetail(
  ctx: PageContext,
  payout: PayoutRow,
  data: { ledger: LedgerRow[]; events: TimelineEvent[] },
): Html {
  return html`<div class="card">${facts([
    ['Amount', money(payout.amount, payout.currency)],
    ['Status', badge(payout.status)],
    ['Type', payout.payout_type],
    ['Recipient', payout.recipient_msisdn ?? payout.recipient_wallet_id ?? bankRecipient(payout)],
    ['Bank batch', payoutBatchFact(ctx, payout)],
    ['Refund of', payout.payment_id ? link(ctx, 'payments', payout.payment_id) : null],
    ['Bulk', payout.bulk_id],
    ['Reference', payout.reference],
    ['Created', when(payout.created_at)],
  ])}</div>
<section aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2>${timeline(ctx, payout, data)}</section>`;
}

export function topupDetail(
  ctx: PageContext,
  topup: TopupRow,
  data: { ledger: LedgerRow[]; events: TimelineEvent[] },
): Html {
  return html`<div class="card">${facts([
    ['Amount', money(topup.amount, topup.currency)],
    ['Status', badge(topup.status)],
    ['Payer', topup.payer_msisdn],
    ['Method', topup.payment_method],
    ['Reference', topup.reference],
    ['Created', when(topup.created_at)],
  ])}</div>
<section aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2>${timeline(ctx, topup, data)}</section>`;
}
