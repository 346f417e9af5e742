import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './contract.js';
import { WebhookVerificationError } from './errors.js';

type ContractEvent = components['schemas']['Event'];
type EventData = components['schemas']['EventData'];
/** One of the contract's event names, e.g. `'payment.completed'`. */
type Name = components['schemas']['EventName'];

type StatusOf<N extends Name> = N extends `${string}.completed`
  ? 'success'
  : N extends `${string}.failed`
    ? 'failed'
    : 'expired';

type DataOf<N extends Name> = Omit<EventData, 'status' | 'failure_code'> & {
  status: StatusOf<N>;
  failure_code: N extends `${string}.failed` ? NonNullable<EventData['failure_code']> : null;
} & (N extends `refund.${string}`
    ? { payment_id: string; service_id: string }
    : N extends `payout.${string}` | `topup.${string}`
      ? unknown
      : { payment_id?: null });

/**
 * The event named `N`, its `data` narrowed to what that event carries: `status` and
 * `failure_code` follow the name, and refund events always name their `payment_id` and
 * `service_id`.
 *
 * @example
 * ```ts
 * function onRefund(event: WebhookEventOf<'refund.completed'>) {
 *   markRefunded(event.data.payment_id, event.data.amount); // payment_id: string
 * }
 * ```
 */
export type WebhookEventOf<N extends Name> = Omit<ContractEvent, 'event' | 'data'> & {
  event: N;
  data: DataOf<N>;
};

/**
 * An event as delivered to your webhook endpoint: a union over the contract's event names, so
 * checking `event.event` narrows `event.data`.
 *
 * @example
 * ```ts
 * const event = verifyWebhook(body, signature, secret);
 * if (event.event === 'refund.failed') retryRefund(event.data.payment_id, event.data.failure_code);
 * ```
 */
export type WebhookEvent = { [N in Name]: WebhookEventOf<N> }[Name];

export interface VerifyWebhookOptions {
  /** How far the signature's timestamp may be from now, in seconds, either way. Default 300. */
  toleranceSeconds?: number;
  /** The current time; for tests. Default now. */
  now?: Date;
}

const signatureBytes = 32;

/**
 * Checks that a webhook delivery comes from the API and is recent, then returns its event.
 * `X-Webhook-Signature` is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, with
 * several `v1` allowed (during a secret rotation); one must match, compared in constant time.
 * Pass the raw body exactly as received, before any JSON parsing: re-serialised JSON does not
 * match. De-duplicate on the event's `id`: delivery is at least once.
 *
 * @throws {WebhookVerificationError} with `reason` `malformed_header`,
 * `timestamp_out_of_tolerance`, `signature_mismatch` or `malformed_payload`.
 *
 * @example
 * ```ts
 * app.post('/webhooks/payments', express.raw({ type: 'application/json' }), (req, res) => {
 *   try {
 *     const event = verifyWebhook(req.body, req.get('X-Webhook-Signature') ?? '', process.env.WEBHOOK_SECRET!);
 *     if (event.event === 'payment.completed') fulfilOrder(event.data.reference, event.data.amount);
 *     res.sendStatus(200);
 *   } catch (error) {
 *     if (error instanceof WebhookVerificationError) res.status(400).send(error.reason);
 *     else throw error;
 *   }
 * });
 * ```
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const { toleranceSeconds = 300, now = new Date() } = options;
  const { timestamp, signatures } = parseSignatureHeader(signatureHeader);

  // The signature first: a timestamp error then always means a genuine but stale delivery.
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const matches = signatures.some(
    (signature) => signature.length === expected.length && timingSafeEqual(signature, expected),
  );
  if (!matches) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      "No v1 signature matches the body: check the endpoint's secret, and pass the raw body, unparsed.",
    );
  }

  const ageSeconds = Math.abs(Math.floor(now.getTime() / 1000) - timestamp);
  if (ageSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature is valid but its timestamp is ${ageSeconds} s from now, more than the ${toleranceSeconds} s allowed: ` +
        'a replayed delivery, or a clock out of sync.',
    );
  }

  return parseEvent(body);
}

function parseSignatureHeader(header: string): { timestamp: number; signatures: Buffer[] } {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value, ...rest] = part.trim().split('=');
    if (rest.length > 0 || value === undefined) return malformed(header);
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return malformed(header);
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!new RegExp(`^[0-9a-fA-F]{${signatureBytes * 2}}$`).test(value)) return malformed(header);
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (v0, v2, ...) are ignored, so that new ones can be added without breaking you.
  }
  if (timestamp === undefined || signatures.length === 0) return malformed(header);
  return { timestamp, signatures };
}

function malformed(header: string): never {
  const shown = header.length > 120 ? `${header.slice(0, 120)}...` : header;
  throw new WebhookVerificationError(
    'malformed_header',
    `X-Webhook-Signature is not "t=<unix seconds>,v1=<64 hex digits>": ${JSON.stringify(shown)}`,
  );
}

function parseEvent(body: Buffer): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('malformed_payload', 'The signed body is not JSON.');
  }
  if (
    typeof event !== 'object' ||
    event === null ||
    !('id' in event && typeof event.id === 'string') ||
    !('event' in event && typeof event.event === 'string') ||
    !('data' in event && typeof event.data === 'object' && event.data !== null)
  ) {
    throw new WebhookVerificationError(
      'malformed_payload',
      'The signed body is not an event (id, event, data).',
    );
  }
  return event as WebhookEvent;
}

export interface TestHeaderOptions {
  /** The exact body your test will post: a string, or an event serialised with `JSON.stringify`. */
  payload: string;
  /** The endpoint secret your handler verifies with (any `whsec_...` string in tests). */
  secret: string;
  /** Unix seconds of the signature. Default now; an old one makes `timestamp_out_of_tolerance`. */
  timestamp?: number;
}

/**
 * Builds the `X-Webhook-Signature` header the API would send with `payload`, so that your own
 * tests can post a signed delivery to your webhook handler and have `verifyWebhook` accept it,
 * with no API involved. Sign exactly the bytes you post.
 *
 * @example
 * ```ts
 * const payload = JSON.stringify({
 *   id: 'evt_test', event: 'payment.completed', mode: 'test', timestamp: new Date().toISOString(),
 *   data: { transaction_id: 'pay_test', amount: 2500, currency: 'XAF', status: 'success',
 *     reference: 'order-1042', failure_code: null, service_id: 'svc_test', payment_id: null },
 * });
 * const signature = generateTestHeader({ payload, secret: 'whsec_test' });
 * await fetch('http://127.0.0.1:8080/webhooks/payments', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
 *   body: payload,
 * });
 * ```
 */
export function generateTestHeader(options: TestHeaderOptions): string {
  const { payload, secret, timestamp = Math.floor(Date.now() / 1000) } = options;
  if (!Number.isInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp must be whole Unix seconds (got ${timestamp})`);
  }
  const v1 = createHmac('sha256', secret).update(`${timestamp}.`).update(payload, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}
