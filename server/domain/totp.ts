/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA-1, 30-second steps,
 * six digits, what every authenticator app reads from an `otpauth://` URI. Pure: no storage,
 * no clock of its own (docs/decisions/0045-two-step-sign-in.md).
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto';

/** Seconds per step, and the digits of a code, as authenticator apps assume by default. */
const totpStepSeconds = 30;
const digits = 6;
/** Steps either side of now a code is still accepted: a phone's clock a little off, a slow typist. */
const driftSteps = 1;

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, as `otpauth://` URIs carry secrets. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(buffer << (5 - bits)) & 31];
  return out;
}

/** Reads base32 (any case, spaces and padding ignored); undefined for any other character. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = base32Alphabet.indexOf(char);
    if (value < 0) return undefined;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length), in base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The step a time (ms since the epoch) falls in. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / totpStepSeconds);
}

/** The code of one step (RFC 4226 section 5.3: dynamic truncation, then the last six digits). */
export function totpCode(secret: Buffer, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, '0');
}

/**
 * The step whose code `code` is, among now and one step either side, later than `lastStep`
 * (RFC 6238 section 5.2: a code is accepted once, so a code seen over a shoulder or replayed
 * from a form does not sign in again); undefined when none. Spaces in the code are ignored.
 */
export function matchingStep(
  secretBase32: string,
  code: string,
  nowMs: number,
  lastStep: number | null,
): number | undefined {
  const typed = code.replace(/\s/g, '');
  const secret = base32Decode(secretBase32);
  if (!secret || !/^\d{6}$/.test(typed)) return undefined;
  const now = totpStep(nowMs);
  for (let step = now - driftSteps; step <= now + driftSteps; step++) {
    if (lastStep !== null && step <= lastStep) continue;
    if (totpCode(secret, step) === typed) return step;
  }
  return undefined;
}

/**
 * What an authenticator app scans: issuer and account label, the secret, and RFC 6238's defaults
 * spelt out. Percent-encoded throughout (a space as %20: some apps read a `+` as a plus).
 */
export function otpauthUri(issuer: string, accountName: string, secretBase32: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(accountName)}`;
  const query = Object.entries({
    secret: secretBase32,
    issuer,
    algorithm: 'SHA1',
    digits: String(digits),
    period: String(totpStepSeconds),
  })
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
  return `otpauth://totp/${label}?${query}`;
}

/** How many recovery codes a user gets at a time. */
const recoveryCodeCount = 10;
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * One-use recovery codes, for a lost phone: ten groups `xxxxx-xxxxx` of an alphabet without
 * look-alikes (no 0/o, 1/l/i), about 49 bits each, so a stored SHA-256 is enough.
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const chars = Array.from({ length: 10 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]).join(
      '',
    );
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A typed recovery code as stored: lower case, the dash and spaces ignored; undefined when it cannot be one. */
export function recoveryCodeKey(typed: string): string | undefined {
  const clean = typed.replace(/[\s-]/g, '').toLowerCase();
  return /^[a-z2-9]{10}$/.test(clean) ? clean : undefined;
}
