import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../server/webhooks/signature.js';

const secret = 'whsec_8wqXbq1c5tV0pH3nLr2sJm7aKe4fYd9Z';

/** What an integrator writes from the contract's description alone. */
function receiverVerifies(header: string, rawBody: string, key: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const [, t, v1] = match;
  const expected = createHmac('sha256', key).update(`${t}.${rawBody}`).digest('hex');
  return expected === v1;
}

describe('signWebhook', () => {
  it('matches a known vector computed with openssl', () => {
    // printf '%s' '1700000000.{"id":"evt_1","event":"payment.completed"}' | openssl dgst -sha256 -hmac "$secret"
    const body = '{"id":"evt_1","event":"payment.completed"}';
    expect(signWebhook(body, secret, 1_700_000_000)).toBe(
      't=1700000000,v1=3dfd05699407762efebb9083f0cb33a669daabe5504672a869ac00a820acaa0b',
    );
  });

  it('signs the UTF-8 bytes of a body with non-ASCII characters', () => {
    // Same openssl command, body '{"note":"Café ✓"}'
    expect(signWebhook('{"note":"Café ✓"}', secret, 1_700_000_000)).toBe(
      't=1700000000,v1=6afb9c43feab9c821af794b1f67c3fda92a3db6e438ca7778cce9ded2e0ec222',
    );
  });

  it('is verified by an independent implementation of the documented scheme', () => {
    const body = JSON.stringify({
      id: 'evt_2',
      event: 'payout.failed',
      data: { transaction_id: 'po_1', amount: 5000, currency: 'XAF', status: 'failed' },
      timestamp: '2024-05-01T12:00:00Z',
    });
    const header = signWebhook(body, secret, 1_714_564_800);
    expect(header.startsWith('t=1714564800,v1=')).toBe(true);
    expect(receiverVerifies(header, body, secret)).toBe(true);
  });

  it('produces a signature that fails verification when the body, the time or the secret changes', () => {
    const body = '{"amount":5000}';
    const header = signWebhook(body, secret, 1_700_000_000);
    expect(receiverVerifies(header, '{"amount":50000}', secret)).toBe(false);
    expect(receiverVerifies(header.replace('t=1700000000', 't=1700000001'), body, secret)).toBe(false);
    expect(receiverVerifies(header, body, generateWebhookSecret())).toBe(false);
  });

  it('refuses a timestamp that is not whole Unix seconds', () => {
    expect(() => signWebhook('{}', secret, 1.5)).toThrow(RangeError);
    expect(() => signWebhook('{}', secret, -1)).toThrow(RangeError);
    expect(() => signWebhook('{}', secret, Number.NaN)).toThrow(RangeError);
  });

  it('refuses an empty secret', () => {
    expect(() => signWebhook('{}', '', 1_700_000_000)).toThrow(RangeError);
  });
});

describe('generateWebhookSecret', () => {
  it('has the format the contract documents', () => {
    for (let i = 0; i < 200; i++) {
      expect(generateWebhookSecret()).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    }
  });

  it('never repeats', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateWebhookSecret()));
    expect(secrets.size).toBe(1000);
  });

  it('uses the whole base62 alphabet', () => {
    // 32,000 characters, about 516 expected of each: missing one has a probability far below 1e-100.
    const seen = new Set(Array.from({ length: 1000 }, () => generateWebhookSecret().slice(6)).join(''));
    expect(seen.size).toBe(62);
  });

  it('rejects the bytes that would bias the alphabet instead of reducing them modulo 62', () => {
    // 248..255 would map to '0'..'7' a second time if kept: they must be skipped.
    let draws = 0;
    const source = (size: number): Uint8Array => {
      draws++;
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = i % 2 === 0 ? 248 + ((i / 2) % 8) : 61;
      return bytes;
    };
    // Every other byte is rejected, so one draw of 40 bytes yields only 20 characters.
    expect(generateWebhookSecret(source)).toBe(`whsec_${'z'.repeat(32)}`);
    expect(draws).toBe(2);
  });

  it('maps accepted bytes to base62 characters in order', () => {
    const source = (size: number): Uint8Array => Uint8Array.from({ length: size }, (_, i) => (i * 7) % 248);
    const expected = Array.from({ length: 32 }, (_, i) =>
      '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'.charAt(((i * 7) % 248) % 62),
    ).join('');
    expect(generateWebhookSecret(source)).toBe(`whsec_${expected}`);
  });
});
