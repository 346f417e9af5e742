/**
 * The checkout's refusals, as the service's one error type (server/domain/errors.ts): a link
 * that leads nowhere or no longer takes payments, a form the customer must correct.
 * `refusalView` and `refusalJson` show each as the page and its script read it, in the
 * customer's language; the routes answer them in one place (server/checkout/routes.ts).
 */
import { ApiError } from '../domain/errors.js';
import { canonicalMsisdn } from '../domain/msisdn.js';
import type { Translator } from '../i18n/translator.js';
import { networkOf } from '../operators/number-prefixes.js';
import type { CheckoutView } from './page.js';

export const linkNotFound = () =>
  new ApiError(404, 'resource_not_found', 'This link does not lead to a payment.');

/** A link never paid whose time ran out: 410, like a closed link, nothing charged. */
export const linkExpired = () =>
  new ApiError(410, 'resource_not_found', 'This payment link has expired. No money was taken.');

/** The link's service was made inactive or deleted before the customer paid. */
export const linkClosed = () =>
  new ApiError(410, 'service_inactive', 'This merchant no longer takes payments through this link.');

export const invalidNumber = () =>
  new ApiError(400, 'invalid_msisdn', 'The number is not a Mobile Money number.', { param: 'msisdn' });

export const noOperator = () =>
  new ApiError(400, 'invalid_field', 'No operator was chosen.', { param: 'payment_method' });

/** What the customer reads for each refusal, in their language. */
function words(t: Translator, refusal: ApiError, typed?: Typed): string {
  if (refusal.status === 404) return t.t('checkout.notFound');
  if (refusal.code === 'service_inactive') return t.t('checkout.closed');
  if (refusal.status === 410) return t.t('checkout.expired');
  if (refusal.code === 'invalid_msisdn') return t.t('checkout.invalidNumber');
  if (refusal.code === 'network_mismatch') {
    const msisdn = canonicalMsisdn(typed?.msisdn ?? '');
    const network = msisdn ? networkOf(msisdn) : null;
    return t.t('checkout.networkMismatch', {
      network: network === 'orange_money' ? 'Orange Money' : 'MTN Mobile Money',
    });
  }
  return t.t('checkout.noOperator');
}

/** What the customer typed, given back in the form a refusal shows again. */
export interface Typed {
  msisdn: string;
  method: string | undefined;
}

/** The page a refusal shows: the form again with the message beside its field, or a page of its own. */
export function refusalView(t: Translator, refusal: ApiError, typed?: Typed): CheckoutView {
  if (refusal.status === 404) return { kind: 'not_found' };
  if (refusal.code === 'service_inactive') return { kind: 'closed' };
  if (refusal.status === 410) return { kind: 'expired' };
  return {
    kind: 'form',
    error: words(t, refusal, typed),
    msisdn: typed?.msisdn ?? '',
    method: typed?.method,
  };
}

/**
 * A refusal as the page's script reads it: a state of the link (`status`, shown in place of the
 * form or, for the status poll, of the status) or a fault of the form (`error`, shown beside
 * the number field).
 */
export function refusalJson(
  t: Translator,
  refusal: ApiError,
  poll: boolean,
  typed?: Typed,
): { status?: string; error?: string; text: string } {
  const text = words(t, refusal, typed);
  if (refusal.status === 404) return poll ? { status: 'not_found', text } : { error: 'not_found', text };
  if (refusal.code === 'service_inactive') return { status: 'closed', text };
  if (refusal.status === 410) return { status: 'expired', text };
  // The script shows the text beside the number for any fault of the form.
  return { error: 'invalid_msisdn', text };
}
