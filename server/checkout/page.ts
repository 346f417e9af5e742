import type { MessageKey } from '../i18n/en.js';
import { languageNames, locales, type Translator, utcMinute } from '../i18n/translator.js';
import type { PaymentRow } from '../storage/rows.js';
import { escapeHtml } from './format.js';
import { checkoutScript } from './script.js';

export type CheckoutView =
  | { kind: 'form'; error?: string; msisdn?: string; method?: string }
  | { kind: 'status' }
  | { kind: 'not_found' }
  | { kind: 'expired' }
  | { kind: 'closed' };

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
.languages { text-align: center; margin: 1rem 0 0; }
`;

/** Links to the page in the other languages, each named in its own language. */
function languageSwitch(t: Translator, path: string): string {
  return `<nav class="languages" aria-label="${escapeHtml(t.t('layout.language'))}">${locales
    .filter((locale) => locale !== t.locale)
    .map(
      (locale) =>
        `<a href="${escapeHtml(path)}?lang=${locale}" lang="${locale}" hreflang="${locale}" id="language-${locale}">${languageNames[locale]}</a>`,
    )
    .join(' ')}</nav>`;
}

function layout(t: Translator, path: string, title: string, nonce: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="${t.locale}">
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
${languageSwitch(t, path)}
</main>
</body>
</html>`;
}

/** What the customer reads for each state of the payment. */
const statusText: Record<PaymentRow['status'] | 'pending', MessageKey> = {
  initiated: 'checkout.initiated',
  pending: 'checkout.pending',
  success: 'checkout.success',
  failed: 'checkout.failed',
  expired: 'checkout.expired',
};

/** A link the customer has not paid yet: no charge was sent to the operator. */
export function isUnpaid(payment: PaymentRow): boolean {
  return payment.status === 'initiated' && payment.operator_ref === null;
}

/**
 * The words a customer reads for a payment's current state at `now`: a charge sent is pending,
 * and a link never paid is expired from its `expires_at` on, before the expiry worker marks it.
 */
export function describeStatus(
  t: Translator,
  payment: PaymentRow,
  now: number,
): { status: string; text: string } {
  const status =
    payment.status !== 'initiated'
      ? payment.status
      : !isUnpaid(payment)
        ? 'pending'
        : payment.expires_at <= now
          ? 'expired'
          : 'initiated';
  return { status, text: t.t(statusText[status]) };
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
function returnLink(t: Translator, payment: PaymentRow, serviceName: string, visible: boolean): string {
  if (!payment.return_url || !/^https?:\/\//.test(payment.return_url)) return '';
  const to = escapeHtml(
    serviceName ? t.t('checkout.backTo', { merchant: serviceName }) : t.t('checkout.backToMerchant'),
  );
  return `\n<p id="return"${visible ? '' : ' hidden'}><a href="${escapeHtml(payment.return_url)}" rel="noreferrer">${to}</a></p>`;
}

/**
 * When the link stops working: in Cameroon's time (the customer's, whatever their phone's zone
 * says), in their language, with the UTC time on hover.
 */
function expiry(t: Translator, ms: number): string {
  return `<time datetime="${new Date(ms).toISOString()}" title="${utcMinute(ms)}">${escapeHtml(t.dateTime(ms))}</time>`;
}

function header(t: Translator, payment: PaymentRow, serviceName: string, open: boolean): string {
  const testMode =
    payment.mode === 'test'
      ? `<p class="test-mode" id="test-mode" role="note">${escapeHtml(t.t('checkout.testMode'))}</p>\n`
      : '';
  const details = [
    payment.reference
      ? `<dt>${escapeHtml(t.t('checkout.reference'))}</dt><dd id="reference">${escapeHtml(payment.reference)}</dd>`
      : '',
    open
      ? `<dt>${escapeHtml(t.t('checkout.validUntil'))}</dt><dd id="expires-at">${expiry(t, payment.expires_at)}</dd>`
      : '',
  ].join('');
  const merchant = { serviceName };
  const to = t
    .parts('checkout.to', { merchant })
    .map((part) =>
      part === merchant ? `<strong>${escapeHtml(serviceName)}</strong>` : escapeHtml(String(part)),
    )
    .join('');
  return `${testMode}<h1>${escapeHtml(t.t('checkout.heading'))}</h1>
<p class="merchant">${to}</p>
<p class="amount" id="amount">${escapeHtml(t.money(payment.amount, payment.currency))}</p>${details ? `\n<dl class="details">${details}</dl>` : ''}`;
}

export interface CheckoutContext {
  nonce: string;
  now: number;
  /** The page's language and formats. */
  t: Translator;
  token?: string;
  payment?: PaymentRow;
  serviceName?: string;
}

export function renderCheckout(view: CheckoutView, context: CheckoutContext): string {
  const { nonce, t } = context;
  const text = (key: MessageKey, values?: Record<string, unknown>) => escapeHtml(t.t(key, values));
  const path = `/checkout/${context.token ?? ''}`;
  const page = (title: string, body: string, head = '') => layout(t, path, title, nonce, body, head);
  if (view.kind === 'not_found') {
    return page(
      t.t('checkout.notFoundTitle'),
      `<h1>${text('checkout.notFoundTitle')}</h1>
<p>${text('checkout.notFound')}</p>`,
    );
  }
  const payment = context.payment as PaymentRow;
  const serviceName = context.serviceName ?? '';
  const top = header(t, payment, serviceName, view.kind === 'form');
  if (view.kind === 'closed') {
    return page(
      t.t('checkout.closedTitle'),
      `${top}<p class="status" data-status="closed" role="status">${text('checkout.closed')}</p>
<p>${text('checkout.askOtherWay')}</p>${returnLink(t, payment, serviceName, true)}`,
    );
  }
  if (view.kind === 'expired') {
    return page(
      t.t('checkout.expiredTitle'),
      `${top}<p class="status" data-status="expired" role="status">${text('checkout.expired')}</p>
<p>${text('checkout.askNewLink')}</p>${returnLink(t, payment, serviceName, true)}`,
    );
  }
  if (view.kind === 'status') {
    const { status, text: said } = describeStatus(t, payment, context.now);
    const pending = status === 'pending';
    const script = pending ? `<script nonce="${nonce}">${checkoutScript}</script>` : '';
    return page(
      t.t('checkout.statusTitle'),
      `${top}<p class="status" id="status" data-status="${status}" role="status" aria-live="polite">${escapeHtml(said)}</p>${returnLink(t, payment, serviceName, finalStatuses.has(status))}${script}`,
      pending ? noScriptRefresh : '',
    );
  }
  const method = view.method ?? payment.payment_method ?? 'mtn_momo';
  const msisdn = view.msisdn ?? payment.customer_msisdn ?? '';
  const error = view.error
    ? `<p class="error" id="msisdn-error" role="alert">${escapeHtml(view.error)}</p>`
    : '<p class="error" id="msisdn-error" role="alert" hidden></p>';
  const choice = (value: 'mtn_momo' | 'orange_money') =>
    `<label class="choice"><input type="radio" name="payment_method" value="${value}"${method === value ? ' checked' : ''}> ${text(`method.${value}`)}</label>`;
  const amount = t.money(payment.amount, payment.currency);
  return page(
    t.t('checkout.payTitle', { amount }),
    `${top}<form method="post" action="/checkout/${escapeHtml(context.token ?? '')}/pay" id="pay-form" novalidate data-sending="${text('checkout.sending')}" data-offline="${text('checkout.offline')}">
<label for="msisdn">${text('checkout.number')}</label>
<input type="tel" id="msisdn" name="msisdn" inputmode="tel" autocomplete="tel" required
  aria-describedby="msisdn-hint msisdn-error"${view.error ? ' aria-invalid="true"' : ''} value="${escapeHtml(msisdn)}">
<p class="hint" id="msisdn-hint">${text('checkout.numberHint')}</p>
${error}
<fieldset>
<legend>${text('checkout.operator')}</legend>
${choice('mtn_momo')}
${choice('orange_money')}
</fieldset>
<button type="submit" id="pay">${text('checkout.pay', { amount })}</button>
</form>${returnLink(t, payment, serviceName, false)}
<script nonce="${nonce}">${checkoutScript}</script>`,
  );
}
