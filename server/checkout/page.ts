import type { PaymentRow } from '../storage/rows.js';
import { escapeHtml, formatAmount } from './format.js';
import { checkoutScript } from './script.js';

export type CheckoutView =
  | { kind: 'form'; error?: string; msisdn?: string; method?: string }
  | { kind: 'status' }
  | { kind: 'not_found' }
  | { kind: 'expired' }
  | { kind: 'closed' };

/** A link whose service was made inactive or deleted before the customer paid. */
export const closedText = 'This merchant no longer takes payments through this link. No money was taken.';

const styles = `
:root { color-scheme: light; --ink: #14213d; --muted: #4a5568; --accent: #0b5cad; --ok: #146c2e; --bad: #a4161a; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f4f6fa; }
main { max-width: 28rem; margin: 0 auto; padding: 1.5rem 1rem; }
.card { background: #fff; border-radius: 12px; padding: 1.5rem; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
.merchant { color: var(--muted); margin: 0 0 1rem; }
.amount { font-size: 2rem; font-weight: 700; margin: 0 0 1.25rem; }
label, legend { display: block; font-weight: 600; margin-bottom: .35rem; }
input[type=tel] { width: 100%; font-size: 1.1rem; padding: .7rem .8rem; border: 2px solid #7a869a; border-radius: 8px; }
fieldset { border: 0; padding: 0; margin: 1rem 0; }
.choice { display: flex; align-items: center; gap: .5rem; padding: .6rem .75rem; border: 2px solid #c3cad6; border-radius: 8px; margin-bottom: .5rem; }
.choice input { width: 1.2rem; height: 1.2rem; }
button { width: 100%; font-size: 1.1rem; font-weight: 700; padding: .85rem; border: 0; border-radius: 8px; background: var(--accent); color: #fff; cursor: pointer; }
button[disabled] { background: #5b6b80; cursor: progress; }
:focus-visible { outline: 3px solid #ffb703; outline-offset: 2px; }
.test-mode { background: #fff3bf; color: #5c3c00; border: 2px dashed #b08900; border-radius: 8px; padding: .5rem .75rem; font-weight: 700; margin: 0 0 1rem; }
.details { color: var(--muted); font-size: .95rem; margin: 0 0 1rem; }
.details dt { font-weight: 600; float: left; clear: left; margin-right: .35rem; }
.details dd { margin: 0; }
.hint { color: var(--muted); font-size: .9rem; margin: .35rem 0 0; }
.error { color: var(--bad); font-weight: 600; margin: .5rem 0 0; }
.status { font-size: 1.25rem; font-weight: 700; margin: .5rem 0; }
.status[data-status=success] { color: var(--ok); }
.status[data-status=failed], .status[data-status=expired] { color: var(--bad); }
`;

function layout(title: string, nonce: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${styles}</style>${head}
</head>
<body>
<main>
<div class="card">
${body}
</div>
</main>
</body>
</html>`;
}

export const statusText: Record<PaymentRow['status'] | 'pending', string> = {
  initiated: 'Waiting for the customer.',
  pending: 'Approve the payment on your phone. This page updates by itself.',
  success: 'Payment received. Thank you!',
  failed: 'The payment did not go through. No money was taken.',
  expired: 'This payment link has expired. No money was taken.',
};

/** A link the customer has not paid yet: no charge was sent to the operator. */
export function isUnpaid(payment: PaymentRow): boolean {
  return payment.status === 'initiated' && payment.operator_ref === null;
}

/**
 * The words a customer reads for a payment's current state at `now`: a charge sent is pending,
 * and a link never paid is expired from its `expires_at` on, before the expiry worker marks it.
 */
export function describeStatus(payment: PaymentRow, now: number): { status: string; text: string } {
  const status =
    payment.status !== 'initiated'
      ? payment.status
      : !isUnpaid(payment)
        ? 'pending'
        : payment.expires_at <= now
          ? 'expired'
          : 'initiated';
  return { status, text: statusText[status] };
}

const finalStatuses = new Set(['success', 'failed', 'expired']);

/**
 * A pending page "updates by itself": its script polls the status; without JavaScript the
 * browser reloads the page every few seconds instead (a `<noscript>` in the head is read only
 * when scripts are off), until the payment is final and the page has no refresh left.
 */
const noScriptRefreshSeconds = 3;
const noScriptRefresh = `\n<noscript><meta http-equiv="refresh" content="${noScriptRefreshSeconds}"></noscript>`;

/**
 * The merchant's `return_url` as a link, shown once the payment is final: rendered visible on a
 * final page, hidden on the form and the pending page (the script shows it when the payment
 * ends). Only http(s) URLs are ever rendered.
 */
function returnLink(payment: PaymentRow, serviceName: string, visible: boolean): string {
  if (!payment.return_url || !/^https?:\/\//.test(payment.return_url)) return '';
  const to = serviceName ? `Back to ${escapeHtml(serviceName)}` : 'Back to the merchant';
  return `\n<p id="return"${visible ? '' : ' hidden'}><a href="${escapeHtml(payment.return_url)}" rel="noreferrer">${to}</a></p>`;
}

/** `2026-11-20 09:30 UTC`: the same for every customer, whatever their device's zone. */
function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function header(payment: PaymentRow, serviceName: string, open: boolean): string {
  const testMode =
    payment.mode === 'test'
      ? '<p class="test-mode" id="test-mode" role="note">Test mode: a sandbox payment, no real money moves.</p>\n'
      : '';
  const details = [
    payment.reference ? `<dt>Reference</dt><dd id="reference">${escapeHtml(payment.reference)}</dd>` : '',
    open ? `<dt>Link valid until</dt><dd id="expires-at">${utcMinute(payment.expires_at)}</dd>` : '',
  ].join('');
  return `${testMode}<h1>Pay with Mobile Money</h1>
<p class="merchant">To <strong>${escapeHtml(serviceName)}</strong></p>
<p class="amount" id="amount">${escapeHtml(formatAmount(payment.amount, payment.currency))}</p>${details ? `\n<dl class="details">${details}</dl>` : ''}`;
}

export function renderCheckout(
  view: CheckoutView,
  context: { nonce: string; now: number; token?: string; payment?: PaymentRow; serviceName?: string },
): string {
  const { nonce } = context;
  if (view.kind === 'not_found') {
    return layout(
      'Payment link not found',
      nonce,
      `<h1>Payment link not found</h1>
<p>This link does not lead to a payment. Check that you copied the whole link, or ask the merchant for a new one.</p>`,
    );
  }
  const payment = context.payment as PaymentRow;
  const top = header(payment, context.serviceName ?? '', view.kind === 'form');
  if (view.kind === 'closed') {
    return layout(
      'Payment link closed',
      nonce,
      `${top}<p class="status" data-status="closed" role="status">${closedText}</p>
<p>Ask the merchant how else to pay.</p>${returnLink(payment, context.serviceName ?? '', true)}`,
    );
  }
  if (view.kind === 'expired') {
    return layout(
      'Payment link expired',
      nonce,
      `${top}<p class="status" data-status="expired" role="status">${statusText.expired}</p>
<p>Ask the merchant for a new payment link.</p>${returnLink(payment, context.serviceName ?? '', true)}`,
    );
  }
  if (view.kind === 'status') {
    const { status, text } = describeStatus(payment, context.now);
    const pending = status === 'pending';
    const script = pending ? `<script nonce="${nonce}">${checkoutScript}</script>` : '';
    return layout(
      'Payment status',
      nonce,
      `${top}<p class="status" id="status" data-status="${status}" role="status" aria-live="polite">${text}</p>${returnLink(payment, context.serviceName ?? '', finalStatuses.has(status))}${script}`,
      pending ? noScriptRefresh : '',
    );
  }
  const method = view.method ?? payment.payment_method ?? 'mtn_momo';
  const msisdn = view.msisdn ?? payment.customer_msisdn ?? '';
  const error = view.error
    ? `<p class="error" id="msisdn-error" role="alert">${escapeHtml(view.error)}</p>`
    : '<p class="error" id="msisdn-error" role="alert" hidden></p>';
  const choice = (value: string, label: string) =>
    `<label class="choice"><input type="radio" name="payment_method" value="${value}"${method === value ? ' checked' : ''}> ${label}</label>`;
  return layout(
    `Pay ${formatAmount(payment.amount, payment.currency)}`,
    nonce,
    `${top}<form method="post" action="/checkout/${escapeHtml(context.token ?? '')}/pay" id="pay-form" novalidate>
<label for="msisdn">Mobile Money phone number</label>
<input type="tel" id="msisdn" name="msisdn" inputmode="tel" autocomplete="tel" required
  aria-describedby="msisdn-hint msisdn-error"${view.error ? ' aria-invalid="true"' : ''} value="${escapeHtml(msisdn)}">
<p class="hint" id="msisdn-hint">With the country code, for example 237 670 000 000.</p>
${error}
<fieldset>
<legend>Operator</legend>
${choice('mtn_momo', 'MTN Mobile Money')}
${choice('orange_money', 'Orange Money')}
</fieldset>
<button type="submit" id="pay">Pay ${escapeHtml(formatAmount(payment.amount, payment.currency))}</button>
</form>${returnLink(payment, context.serviceName ?? '', false)}
<script nonce="${nonce}">${checkoutScript}</script>`,
  );
}
