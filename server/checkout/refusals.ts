/**
 * The checkout's refusals, as the service's one error type (server/domain/errors.ts): a link
 * that leads nowhere or no longer takes payments, a form the customer must correct.
 * `refusalView` and `refusalJson` show each as the page and its script read it; the routes
 * answer them in one place (server/checkout/routes.ts).
 */
import { ApiError } from '../domain/errors.js';
import { type CheckoutView, closedText, statusText } from './page.js';

export const linkNotFound = () =>
  new ApiError(404, 'resource_not_found', 'This link does not lead to a payment.');

/** A link never paid whose time ran out: 410, like a closed link, nothing charged. */
export const linkExpired = () => new ApiError(410, 'resource_not_found', statusText.expired);

/** The link's service was made inactive or deleted before the customer paid. */
export const linkClosed = () => new ApiError(410, 'service_inactive', closedText);

export const invalidNumber = () =>
  new ApiError(
    400,
    'invalid_msisdn',
    'Enter the Mobile Money number with its country code (+237 670 000 000) or its nine national digits (670 000 000).',
    { param: 'msisdn' },
  );

export const noOperator = () =>
  new ApiError(400, 'invalid_field', 'Choose your operator: MTN Mobile Money or Orange Money.', {
    param: 'payment_method',
  });

/** What the customer typed, given back in the form a refusal shows again. */
export interface Typed {
  msisdn: string;
  method: string | undefined;
}

/** The page a refusal shows: the form again with the message beside its field, or a page of its own. */
export function refusalView(refusal: ApiError, typed?: Typed): CheckoutView {
  if (refusal.status === 404) return { kind: 'not_found' };
  if (refusal.code === 'service_inactive') return { kind: 'closed' };
  if (refusal.status === 410) return { kind: 'expired' };
  return { kind: 'form', error: refusal.message, msisdn: typed?.msisdn ?? '', method: typed?.method };
}

/**
 * A refusal as the page's script reads it: a state of the link (`status`, shown in place of the
 * form or, for the status poll, of the status) or a fault of the form (`error`, shown beside
 * the number field).
 */
export function refusalJson(
  refusal: ApiError,
  poll: boolean,
): { status?: string; error?: string; text: string } {
  const text = refusal.message;
  if (refusal.status === 404) return poll ? { status: 'not_found', text } : { error: 'not_found', text };
  if (refusal.code === 'service_inactive') return { status: 'closed', text };
  if (refusal.status === 410) return { status: 'expired', text };
  // The script shows the text beside the number for any fault of the form.
  return { error: 'invalid_msisdn', text };
}
