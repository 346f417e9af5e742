import type { AppliedStatement, BankBatch } from '../../domain/bank-batches.js';
import type { Translator } from '../../i18n/translator.js';
import type { PayoutRow } from '../../storage/rows.js';
import { type Html, html } from '../html.js';
import { badge, csvLink, table, when } from './components.js';
import { base, csrfInput, type PageContext, postButton } from './layout.js';

const batchLink = (ctx: PageContext, id: string) =>
  html`<a href="${base(ctx.mode)}/bank-batches/${id}"><code>${id}</code></a>`;

/** A bank payout's account: its holder and IBAN. */
export const bankRecipient = (payout: PayoutRow) =>
  payout.recipient_iban ? `${payout.recipient_name} (${payout.recipient_iban})` : null;

/** Where a payout stands in the bank rail: its batch, once batched. */
export function payoutBatchFact(ctx: PageContext, payout: PayoutRow): Html | null {
  if (!payout.recipient_iban) return null;
  return payout.bank_batch_id
    ? batchLink(ctx, payout.bank_batch_id)
    : html`<span>${ctx.t.t('bank.waiting')}</span>`;
}

/** The batches, newest first, and the button that batches the waiting bank payouts now. */
export function bankBatchesView(ctx: PageContext, batches: BankBatch[], canAct: boolean): Html {
  const { t } = ctx;
  const rows = batches.map(
    ({ batch, pendingCount, statements }) => html`<tr>
<td>${batchLink(ctx, batch.id)}</td><td>${when(t, batch.created_at)}</td><td>${batch.payout_count}</td>
<td>${t.money(batch.control_sum, batch.currency)}</td><td>${pendingCount}</td><td>${statements.length}</td></tr>`,
  );
  return html`<p>${t.t('bank.intro')}</p>
${canAct ? postButton(ctx, `${base(ctx.mode)}/bank-batches`, t.t('bank.batchNow')) : ''}
${csvLink(t, `${base(ctx.mode)}/bank-batches`, {})}
${table(
  t,
  t.t('nav.bankBatches'),
  html`<tr><th scope="col">${t.t('bank.batch')}</th><th scope="col">${t.t('col.created')}</th><th scope="col">${t.t('bank.payouts')}</th><th scope="col">${t.t('bank.controlSum')}</th><th scope="col">${t.t('bank.pending')}</th><th scope="col">${t.t('bank.statements')}</th></tr>`,
  rows,
  t.t('bank.noBatch'),
)}`;
}

/** One batch: its file, its payouts, its statements, and the statement upload. */
export function bankBatchDetail(
  ctx: PageContext,
  view: BankBatch,
  payouts: PayoutRow[],
  canAct: boolean,
): Html {
  const { t } = ctx;
  const { batch } = view;
  const at = `${base(ctx.mode)}/bank-batches/${batch.id}`;
  const payoutRows = payouts.map(
    (payout) => html`<tr>
<td><a href="${base(ctx.mode)}/payouts/${payout.id}"><code>${payout.id}</code></a></td>
<td>${t.money(payout.amount, payout.currency)}</td><td>${payout.recipient_name} <code>${payout.recipient_iban}</code></td>
<td>${badge(t, payout.status)}</td><td>${payout.failure_code ?? ''}</td></tr>`,
  );
  const statementRows = view.statements.map(
    (statement) =>
      html`<tr><td><code>${statement.message_id}</code></td><td>${statement.applied}</td><td>${when(t, statement.received_at)}</td></tr>`,
  );
  const downloads = canAct
    ? html`<p><a href="${at}/file" download>${t.t('bank.downloadFile')}</a>${
        ctx.mode === 'test'
          ? html` · <a href="${at}/sandbox-statement" download>${t.t('bank.sandboxStatement')}</a>`
          : ''
      }</p>`
    : '';
  const upload = canAct
    ? html`<form method="post" action="${at}/statements">${csrfInput(ctx.csrf)}
<label for="statement">${t.t('bank.statementLabel')}</label>
<textarea id="statement" name="statement" rows="8" required></textarea>
<button type="submit">${t.t('bank.apply')}</button></form>`
    : '';
  return html`<div class="card"><dl class="facts">
<dt>${t.t('bank.payouts')}</dt><dd>${batch.payout_count}</dd>
<dt>${t.t('bank.controlSum')}</dt><dd>${t.money(batch.control_sum, batch.currency)}</dd>
<dt>${t.t('bank.stillPending')}</dt><dd>${view.pendingCount}</dd>
<dt>${t.t('bank.file')}</dt><dd>pain.001.001.03</dd>
<dt>${t.t('col.created')}</dt><dd>${when(t, batch.created_at)}</dd></dl>${downloads}</div>
<section aria-labelledby="payouts-title"><h2 id="payouts-title">${t.t('bank.payouts')}</h2>${table(
    t,
    t.t('bank.payoutsOfBatch'),
    html`<tr><th scope="col">${t.t('bank.payout')}</th><th scope="col">${t.t('col.amount')}</th><th scope="col">${t.t('bank.account')}</th><th scope="col">${t.t('col.status')}</th><th scope="col">${t.t('bank.failure')}</th></tr>`,
    payoutRows,
  )}</section>
<section aria-labelledby="statements-title"><h2 id="statements-title">${t.t('bank.statements')}</h2>${table(
    t,
    t.t('bank.statementsApplied'),
    html`<tr><th scope="col">${t.t('bank.message')}</th><th scope="col">${t.t('bank.settled')}</th><th scope="col">${t.t('bank.received')}</th></tr>`,
    statementRows,
    t.t('bank.noStatement'),
  )}${upload}</section>`;
}

/** What an upload did, in a sentence. */
export function statementSummary(t: Translator, applied: AppliedStatement): string {
  const counts = new Map<string, number>();
  for (const entry of applied.entries) counts.set(entry.outcome, (counts.get(entry.outcome) ?? 0) + 1);
  const outcomes = [...counts]
    .map(([outcome, count]) => t.t('bank.outcomeCount', { count, outcome }))
    .join(', ');
  return t.t('bank.summary', { id: applied.messageId, applied: applied.applied, outcomes });
}
