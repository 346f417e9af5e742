import type { PayoutCreate } from '../../../generated/openapi.js';
import type { PayoutPreview } from '../../domain/payouts.js';
import type { Translator } from '../../i18n/translator.js';
import type { PayoutRow } from '../../storage/rows.js';
import { bulkMaxBytes, bulkMaxLines } from '../csv.js';
import { type Html, html } from '../html.js';
import { th } from '../i18n.js';
import { badge, label, table } from './components.js';
import { base, csrfInput, type PageContext } from './layout.js';

/** The payout form's fields as typed. */
export interface PayoutForm {
  recipient: string;
  amount: string;
  currency: string;
  reference: string;
  type: string;
}

/** One line of a bulk upload: as checked, as sent, or why it is refused (line 0: the whole file). */
export interface BulkLine {
  line: number;
  input?: PayoutCreate;
  preview?: PayoutPreview;
  sent?: Pick<PayoutRow, 'id' | 'amount' | 'currency' | 'status'> & { replayed: boolean };
  reason?: string;
}

const recipientOf = (input: PayoutCreate) => input.recipient_msisdn ?? input.recipient_wallet_id ?? '';

/** Where a payout goes: the network its number routes to, or none for a wallet. */
function networkText(t: Translator, preview: PayoutPreview): string {
  if (preview.network) return label(t, 'method', preview.network);
  return preview.recipient.startsWith('wal_')
    ? t.t('moneyOut.walletNetwork')
    : t.t('moneyOut.unknownNetwork');
}

const liveWarning = (ctx: PageContext) =>
  ctx.mode === 'live' ? html`<p class="flash flash-error">${ctx.t.t('moneyOut.live')}</p>` : '';

const problem = (text: string | undefined) =>
  text ? html`<p class="flash flash-error" role="alert" id="form-error">${text}</p>` : '';

export function payoutFormView(ctx: PageContext, form: PayoutForm, error?: string): Html {
  const { t } = ctx;
  const type = form.type || 'withdrawal';
  const option = (value: string) =>
    html`<option value="${value}"${value === type ? html` selected` : ''}>${label(t, 'payoutType', value)}</option>`;
  return html`${liveWarning(ctx)}${problem(error)}<p>${t.t('moneyOut.intro')}</p>
<form method="post" action="${base(ctx.mode)}/payouts/new" class="card">${csrfInput(ctx.csrf)}
<div class="field"><label for="payout-recipient">${t.t('moneyOut.recipient')}</label>
<input id="payout-recipient" name="recipient" required maxlength="40" autocomplete="off" value="${form.recipient}" aria-describedby="payout-recipient-hint">
<p class="muted" id="payout-recipient-hint">${t.t('moneyOut.recipientHint')}</p></div>
<div class="field"><label for="payout-amount">${t.t('moneyOut.amount')}</label>
<input id="payout-amount" name="amount" type="number" inputmode="numeric" min="1" required value="${form.amount}"></div>
<div class="field"><label for="payout-currency">${t.t('moneyOut.currency')}</label>
<input id="payout-currency" name="currency" maxlength="3" required value="${form.currency}"></div>
<div class="field"><label for="payout-type">${t.t('col.type')}</label>
<select id="payout-type" name="type">${option('withdrawal')}${option('transfer')}</select></div>
<div class="field"><label for="payout-reference">${t.t('moneyOut.reference')}</label>
<input id="payout-reference" name="reference" maxlength="64" value="${form.reference}"></div>
<button type="submit" id="payout-review">${t.t('moneyOut.review')}</button></form>
<p><a href="${base(ctx.mode)}/payouts/bulk">${t.t('moneyOut.bulk')}</a></p>`;
}

/**
 * What the payout will do, and the form that sends it: its fields as checked, and the
 * idempotency key generated for this page, so sending it twice sends one payout.
 */
export function payoutConfirmView(
  ctx: PageContext,
  input: PayoutCreate,
  preview: PayoutPreview,
  key: string,
): Html {
  const { t } = ctx;
  const money = (amount: number) => t.money(amount, preview.currency);
  const hidden = {
    recipient: preview.recipient,
    amount: String(input.amount),
    currency: preview.currency,
    type: input.payout_type,
    reference: input.reference ?? '',
  };
  const change = new URLSearchParams(hidden).toString();
  return html`${liveWarning(ctx)}<div class="card"><dl class="facts" id="payout-summary">
<dt>${t.t('col.amount')}</dt><dd id="confirm-amount">${money(input.amount)}</dd>
<dt>${t.t('payouts.recipient')}</dt><dd id="confirm-recipient"><code>${preview.recipient}</code></dd>
<dt>${t.t('moneyOut.network')}</dt><dd id="confirm-network">${networkText(t, preview)}</dd>
<dt>${t.t('col.type')}</dt><dd>${label(t, 'payoutType', input.payout_type)}</dd>
<dt>${t.t('moneyOut.fee')}</dt><dd id="confirm-fee">${t.t('moneyOut.noFee', { amount: money(0) })}</dd>
<dt>${t.t('moneyOut.balanceNow')}</dt><dd>${money(preview.available)}</dd>
<dt>${t.t('moneyOut.balanceAfter')}</dt><dd id="confirm-balance-after">${money(preview.balanceAfter)}</dd>
${input.reference ? html`<dt>${t.t('fact.reference')}</dt><dd>${input.reference}</dd>` : ''}
</dl></div>
<form method="post" action="${base(ctx.mode)}/payouts/send" class="actions">${csrfInput(ctx.csrf)}
${Object.entries(hidden).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<input type="hidden" name="idempotency_key" value="${key}">
<button type="submit" class="danger" id="payout-send">${t.t('moneyOut.confirm', { amount: money(input.amount) })}</button>
<a class="button secondary" href="${base(ctx.mode)}/payouts/new?${change}">${t.t('moneyOut.change')}</a></form>`;
}

const example =
  'recipient,amount,currency,reference\n+237 670 000 000,2500,XAF,salary-0042\n690000000,1000,XAF,';

/** The upload form (a file, or its lines pasted), and the lines refused, each with its reason. */
export function bulkFormView(ctx: PageContext, csv: string, problems: BulkLine[]): Html {
  const { t } = ctx;
  const rows = problems.map(
    (p) =>
      html`<tr><th scope="row">${p.line ? t.t('bulkOut.line', { line: p.line }) : '-'}</th><td>${p.reason ?? ''}</td></tr>`,
  );
  const refused = problems.length
    ? html`<div role="alert" id="bulk-refused"><p class="flash flash-error">${t.t('bulkOut.refused', { count: problems.length })}</p>${table(
        t,
        t.t('bulkOut.reason'),
        html`<tr><th scope="col">${t.t('bulkOut.lineHead')}</th><th scope="col">${t.t('bulkOut.reason')}</th></tr>`,
        rows,
      )}</div>`
    : '';
  return html`${liveWarning(ctx)}${refused}<p>${th(t, 'bulkOut.intro', {
    lines: bulkMaxLines,
    kib: bulkMaxBytes / 1024,
    required: html`<code>recipient</code>, <code>amount</code>`,
    optional: html`<code>currency</code>, <code>reference</code>, <code>type</code>`,
  })}</p>
<p>${t.t('bulkOut.example')}</p><pre class="card"><code>${example}</code></pre>
<form method="post" action="${base(ctx.mode)}/payouts/bulk" enctype="multipart/form-data" class="card">${csrfInput(ctx.csrf)}
<div class="field"><label for="bulk-file">${t.t('bulkOut.file')}</label><input id="bulk-file" name="file" type="file" accept=".csv,text/csv"></div>
<div class="field"><label for="bulk-csv">${t.t('bulkOut.paste')}</label><textarea id="bulk-csv" name="csv" rows="8" cols="60" class="mono">${csv}</textarea></div>
<button type="submit" id="bulk-check">${t.t('bulkOut.check')}</button></form>`;
}

function lineRows(t: Translator, lines: BulkLine[], result: (line: BulkLine) => Html | string): Html[] {
  return lines.map((line) => {
    const input = line.input as PayoutCreate;
    const currency = line.preview?.currency ?? line.sent?.currency ?? input.currency ?? '';
    return html`<tr><th scope="row">${line.line}</th><td><code>${line.preview?.recipient ?? recipientOf(input)}</code></td><td class="num">${currency ? t.money(input.amount, currency) : input.amount}</td><td>${input.reference ?? ''}</td><td>${result(line)}</td></tr>`;
  });
}

const lineHead = (t: Translator, last: string) =>
  html`<tr><th scope="col">${t.t('bulkOut.lineHead')}</th><th scope="col">${t.t('payouts.recipient')}</th><th scope="col" class="num">${t.t('col.amount')}</th><th scope="col">${t.t('fact.reference')}</th><th scope="col">${last}</th></tr>`;

/** The checked upload: its count and total per currency, each line, and the form that sends them. */
export function bulkConfirmView(ctx: PageContext, csv: string, uploadId: string, lines: BulkLine[]): Html {
  const { t } = ctx;
  const byCurrency = new Map<string, { count: number; total: number; available: number; after: number }>();
  for (const line of lines) {
    const preview = line.preview as PayoutPreview;
    const sum = byCurrency.get(preview.currency) ?? {
      count: 0,
      total: 0,
      available: preview.available,
      after: 0,
    };
    sum.count += 1;
    sum.total += (line.input as PayoutCreate).amount;
    sum.after = preview.balanceAfter;
    byCurrency.set(preview.currency, sum);
  }
  const summary = [...byCurrency].map(
    ([currency, s]) =>
      html`<p class="figure" id="bulk-summary-${currency}">${t.t('bulkOut.summary', {
        count: s.count,
        total: t.money(s.total, currency),
        available: t.money(s.available, currency),
        after: t.money(s.after, currency),
      })}</p>`,
  );
  return html`${liveWarning(ctx)}<div class="card">${summary}</div>
${table(
  t,
  t.t('bulkOut.confirmTitle'),
  lineHead(t, t.t('moneyOut.network')),
  lineRows(t, lines, (line) => networkText(t, line.preview as PayoutPreview)),
)}
<form method="post" action="${base(ctx.mode)}/payouts/bulk/send" class="actions">${csrfInput(ctx.csrf)}
<input type="hidden" name="upload_id" value="${uploadId}"><input type="hidden" name="csv" value="${csv}">
<button type="submit" class="danger" id="bulk-send">${t.t('bulkOut.send', { count: lines.length })}</button>
<a class="button secondary" href="${base(ctx.mode)}/payouts/bulk">${t.t('moneyOut.change')}</a></form>
<p class="muted">${t.t('bulkOut.again')}</p>`;
}

/** What sending did, line by line: each payout (sent now or before), or why it was refused. */
export function bulkSentView(ctx: PageContext, lines: BulkLine[]): Html {
  const { t } = ctx;
  const sent = lines.filter((line) => line.sent).length;
  const result = (line: BulkLine) =>
    line.sent
      ? html`<a href="${base(ctx.mode)}/payouts/${line.sent.id}"><code>${line.sent.id}</code></a> ${badge(t, line.sent.status)}`
      : (line.reason ?? '');
  return html`<p class="flash ${sent === lines.length ? 'flash-ok' : 'flash-error'}" role="status" id="bulk-result">${t.t('bulkOut.sent', { sent, refused: lines.length - sent })}</p>
${table(t, t.t('bulkOut.sentTitle'), lineHead(t, t.t('bulkOut.result')), lineRows(t, lines, result))}
<p><a href="${base(ctx.mode)}/payouts">${t.t('payouts.title')}</a></p>`;
}
