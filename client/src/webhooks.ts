import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './contract.js';
import { WebhookVerificationError } from './errors.js';

/** An event as delivered to your webhook endpoint; `event` is one of the contract's event names. */
export type WebhookEvent = components['schemas']['Event'];

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
