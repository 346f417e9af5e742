/**
 * Webhook signatures: what lets a receiver prove that a delivery came from us and was not
 * replayed from long ago. The scheme is the contract's (`X-Webhook-Signature`, see
 * openapi.yaml, "Webhooks"): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 */
import { createHmac, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_PREFIX = 'whsec_';
const SECRET_LENGTH = 32;
// The largest multiple of 62 that fits in a byte: bytes at or above it are rejected, so that
// `byte % 62` is uniform (keeping them would make the first 8 characters slightly likelier).
const UNBIASED_BYTE_LIMIT = 256 - (256 % BASE62.length);

/**
 * Signs one delivery. The timestamp is part of the signed string so that a receiver that
 * rejects old timestamps also rejects replays of captured deliveries. The HMAC key is the
 * whole secret string as shown to the integrator (`whsec_` prefix included), so they can
 * verify with the value they stored, untouched.
 *
 * @param rawBody the exact bytes sent as the request body (as a UTF-8 string): sign what you send
 * @param secret the endpoint's signing secret
 * @param timestampSeconds the signing time in whole Unix seconds
 * @returns the value of the `X-Webhook-Signature` header
 * @example
 * const body = JSON.stringify(event);
 * const header = signWebhook(body, endpoint.secret, Math.floor(Date.now() / 1000));
 * // header: 't=1700000000,v1=5f0c...'
 */
export function signWebhook(rawBody: string, secret: string, timestampSeconds: number): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`timestampSeconds must be a non-negative integer, got ${timestampSeconds}`);
  }
  if (secret.length === 0) throw new RangeError('secret must not be empty');
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`, 'utf8').digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

/**
 * Signs one delivery with several secrets: `t=<t>,v1=<with the first>,v1=<with the next>...`.
 * During a rotation with an overlap the current secret comes first and the previous one after
 * it, so a receiver still holding the old secret accepts the delivery, as does one that has
 * switched (a receiver must accept the header if any `v1` matches).
 *
 * @example
 * signWebhookWithSecrets(body, [endpoint.secret, endpoint.previous_secret], nowSeconds);
 * // 't=1700000000,v1=5f0c...,v1=91ab...'
 */
export function signWebhookWithSecrets(rawBody: string, secrets: string[], timestampSeconds: number): string {
  const [first, ...rest] = secrets;
  if (first === undefined) throw new RangeError('at least one secret is needed');
  let header = signWebhook(rawBody, first, timestampSeconds);
  for (const secret of rest) {
    header += signWebhook(rawBody, secret, timestampSeconds).slice(header.indexOf(','));
  }
  return header;
}

/**
 * The secrets a delivery is signed with at `now`: the endpoint's current secret, and its
 * previous one while a rotation's overlap lasts.
 */
export function signingSecrets(
  endpoint: { secret: string; previous_secret: string | null; previous_secret_expires_at: number | null },
  now: number,
): string[] {
  const secrets = [endpoint.secret];
  if (endpoint.previous_secret !== null && (endpoint.previous_secret_expires_at ?? 0) > now) {
    secrets.push(endpoint.previous_secret);
  }
  return secrets;
}

/**
 * Creates a new endpoint signing secret: `whsec_` and 32 base62 characters (about 190 bits of
 * entropy), the format the contract documents. Characters are drawn from the operating system's
 * CSPRNG with rejection sampling, so every character is equally likely.
 *
 * @param source random bytes; only tests pass their own, to prove the sampling
 * @example
 * const secret = generateWebhookSecret(); // 'whsec_8wqXbq1c5tV0pH3nLr2sJm7aKe4fYd9Z'
 */
export function generateWebhookSecret(source: (size: number) => Uint8Array = randomBytes): string {
  let secret = SECRET_PREFIX;
  while (secret.length < SECRET_PREFIX.length + SECRET_LENGTH) {
    // A few spare bytes per draw, since about 3% are rejected.
    for (const byte of source(SECRET_LENGTH + 8)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      secret += BASE62.charAt(byte % BASE62.length);
      if (secret.length === SECRET_PREFIX.length + SECRET_LENGTH) break;
    }
  }
  return secret;
}
