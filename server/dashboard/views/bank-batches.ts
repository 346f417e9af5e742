import type { AppliedStatement, BankBatch } from '../../domain/bank-batches.js';
import type { PayoutRow } from '../../storage/rows.js';
import { type Html, html } from '../html.js';
import { badge, money, table, when } from './components.js';
import { base, csrfInput, type PageContext, postButton } from './layout.js';

const batchLink = (ctx: PageContext, id: string) =>
  html`<a href="${base(ctx.mode)}/bank-batches/${id}"><code>${id}</code></a>`;

/** A bank payout's account: its holder and IBAN. */
export const bankRecipient = (payout: PayoutRow) =>
  payout.recipient_iban ? `${payout.recipient_name} (${payout.recipient_iban})` : null;

/** Where a payout stands in the bank rail: its batch, once batched. */
export function payoutBatchFact(ctx: PageContext, payout: PayoutRow): Html | null {
  if (!payout.recipient_iban) return null;
  return payout.bank_batch_id ? batchLink(ctx, payout.bank_batch_id) : html`<span>waiting for a batch</span>`;
}

/** The batches, newest first, and the button that batches the waiting bank payouts now. */
export function bankBatchesView(ctx: PageContext, batches: BankBatch[], canAct: boolean): Html {
  const rows = batches.map(
    ({ batch, pendingCount, statements }) => html`<tr>
<td>${batchLink(ctx, batch.id)}</td><td>${when(batch.created_at)}</td><td>${batch.payout_count}</td>
<td>${money(batch.control_sum, batch.currency)}</td><td>${pendingCount}</td><td>${statements.length}</td></tr>`,
  );
  return html`<p>Bank payouts travel in batches: each is one ISO 20022 pain.001 file for your bank, settled when its camt.054 statement is uploaded.</p>
${canAct ? postButton(ctx, `${base(ctx.mode)}/bank-batches`, 'Batch the waiting bank payouts now') : ''}
${table(
  'Bank batches',
  html`<tr><th scope="col">Batch</th><th scope="col">Created</th><th scope="col">Payouts</th><th scope="col">Control sum</th><th scope="col">Pending</th><th scope="col">Statements</th></tr>`,
  rows,
  'No batch yet.',
)}`;
}

/** One batch: its file, its payouts, its statements, and the statement upload. */
export function bankBatchDetail(
  ctx: PageContext,
  view: BankBatch,
  payouts: PayoutRow[],
  canAct: boolean,
): Html {
  const { batch } = view;
  const at = `${base(ctx.mode)}/bank-batches/${batch.id}`;
  const payoutRows = payouts.map(
    (payout) => html`<tr>
<td><a href="${base(ctx.mode)}/payouts/${payout.id}"><code>${payout.id}</code></a></td>
<td>${money(payout.amount, payout.currency)}</td><td>${payout.recipient_name} <code>${payout.recipient_iban}</code></td>
<td>${badge(payout.status)}</td><td>${payout.failure_code ?? ''}</td></tr>`,
  );
  const statementRows = view.statements.map(
    (statement) =>
      html`<tr><td><code>${statement.message_id}</code></td><td>${statement.applied}</td><td>${when(statement.received_at)}</td></tr>`,
  );
  const downloads = canAct
    ? html`<p><a href="${at}/file" download>Download the pain.001 file</a>${
        ctx.mode === 'test'
          ? html` · <a href="${at}/sandbox-statement" download>The sandbox bank's camt.054 for it</a>`
          : ''
      }</p>`
    : '';
  const upload = canAct
    ? html`<form method="post" action="${at}/statements">${csrfInput(ctx.csrf)}
<label for="statement">The bank's camt.054 statement (XML)</label>
<textarea id="statement" name="statement" rows="8" required></textarea>
<button type="submit">Apply the statement</button></form>`
    : '';
  return html`<div class="card"><dl class="facts">
<dt>Payouts</dt><dd>${batch.payout_count}</dd>
<dt>Control sum</dt><dd>${money(batch.control_sum, batch.currency)}</dd>
<dt>Still pending</dt><dd>${view.pendingCount}</dd>
<dt>File</dt><dd>pain.001.001.03</dd>
<dt>Created</dt><dd>${when(batch.created_at)}</dd></dl>${downloads}</div>
<section aria-labelledby="payouts-title"><h2 id="payouts-title">Payouts</h2>${table(
    'Payouts of the batch',
    html`<tr><th scope="col">Payout</th><th scope="col">Amount</th><th scope="col">Account</th><th scope="col">Status</th><th scope="col">Failure</th></tr>`,
    payoutRows,
  )}</section>
<section aria-labelledby="statements-title"><h2 id="statements-title">Statements</h2>${table(
    'Statements applied',
    html`<tr><th scope="col">Message</th><th scope="col">Payouts settled</th><th scope="col">Received</th></tr>`,
    statementRows,
    'No statement yet.',
  )}${upload}</section>`;
}

/** What an upload did, in a sentence. */
export function statementSummary(applied: AppliedStatement): string {
  const counts = new Map<string, number>();
  for (const entry of applied.entries) counts.set(entry.outcome, (counts.get(entry.outcome) ?? 0) + 1);
  const parts = [...counts].map(([outcome, count]) => `${count} ${outcome.replace('_', ' ')}`);
  return `Statement ${applied.messageId}: ${applied.applied} payout(s) settled${parts.length ? ` (${parts.join(', ')})` : ''}.`;
}
