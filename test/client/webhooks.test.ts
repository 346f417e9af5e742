/**
 * `verifyWebhook` against deliveries signed here, independently, with a few lines of
 * node:crypto, as the contract describes the signature.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from '../../client/src/index.js';

const secret = 'whsec_8wqXbq1c5tV0pH3nLr2sJm7aKe4fYd9Z';
const t = 1_763_631_005;
const now = new Date(t * 1000);

const body = JSON.stringify({
  id: 'evt_YvLIaWnufPjfE2zzW9C0854C',
  event: 'payment.completed',
  data: {
    transaction_id: 'pay_26ckKthu9SR4AlZ0MBzSvYzU',
    amount: 2500,
    currency: 'XAF',
    status: 'success',
    reference: 'order-1042',
    failure_code: null,
  },
  timestamp: '2026-11-20T09:30:04.000Z',
  mode: 'test',
});

function hmac(payload: string, key: string, timestamp: number): string {
  return createHmac('sha256', key).update(`${timestamp}.${payload}`).digest('hex');
}

function signed(payload: string, key = secret, timestamp = t): string {
  return `t=${timestamp},v1=${hmac(payload, key, timestamp)}`;
}

function reasonOf(run: () => unknown): WebhookVerificationFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  throw new Error('verifyWebhook accepted the delivery');
}

describe('verifyWebhook', () => {
  it('returns the event of a genuine delivery', () => {
    const event = verifyWebhook(body, signed(body), secret, { now });
    expect(event).toEqual(JSON.parse(body));
    expect(event.event).toBe('payment.completed');
    expect(event.data.transaction_id).toBe('pay_26ckKthu9SR4AlZ0MBzSvYzU');
  });

  it('accepts the raw body as bytes', () => {
    const bytes = new TextEncoder().encode(body);
    expect(verifyWebhook(bytes, signed(body), secret, { now }).id).toBe('evt_YvLIaWnufPjfE2zzW9C0854C');
  });

  it('verifies bytes as sent, non-ASCII included', () => {
    const accented = body.replace('order-1042', 'commande-été');
    expect(verifyWebhook(Buffer.from(accented), signed(accented), secret, { now }).data.reference).toBe(
      'commande-été',
    );
  });

  it('accepts a delivery when any of several v1 signatures matches', () => {
    const header = `t=${t},v1=${hmac(body, 'whsec_old', t)},v1=${hmac(body, secret, t)}`;
    expect(verifyWebhook(body, header, secret, { now }).id).toBe('evt_YvLIaWnufPjfE2zzW9C0854C');
  });

  it('ignores signature schemes it does not know, and spaces around parts', () => {
    const header = `t=${t}, v0=abc, v1=${hmac(body, secret, t)}`;
    expect(verifyWebhook(body, header, secret, { now }).mode).toBe('test');
  });

  it('rejects a tampered body', () => {
    const tampered = body.replace('2500', '25000');
    expect(reasonOf(() => verifyWebhook(tampered, signed(body), secret, { now }))).toBe('signature_mismatch');
  });

  it('rejects a body re-serialised after parsing', () => {
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    expect(reasonOf(() => verifyWebhook(reserialised, signed(body), secret, { now }))).toBe(
      'signature_mismatch',
    );
  });

  it('rejects a signature made with another secret', () => {
    expect(reasonOf(() => verifyWebhook(body, signed(body, 'whsec_someone_else'), secret, { now }))).toBe(
      'signature_mismatch',
    );
  });

  it('rejects a timestamp changed after signing', () => {
    const header = `t=${t + 1},v1=${hmac(body, secret, t)}`;
    expect(reasonOf(() => verifyWebhook(body, header, secret, { now }))).toBe('signature_mismatch');
  });

  it('accepts a delivery up to toleranceSeconds old (300 by default), and rejects it after', () => {
    const header = signed(body);
    expect(verifyWebhook(body, header, secret, { now: new Date((t + 300) * 1000) }).id).toBeDefined();
    expect(reasonOf(() => verifyWebhook(body, header, secret, { now: new Date((t + 301) * 1000) }))).toBe(
      'timestamp_out_of_tolerance',
    );
    expect(reasonOf(() => verifyWebhook(body, header, secret, { now: new Date((t - 301) * 1000) }))).toBe(
      'timestamp_out_of_tolerance',
    );
  });

  it('honours a custom toleranceSeconds', () => {
    const later = { now: new Date((t + 60) * 1000) };
    expect(
      reasonOf(() => verifyWebhook(body, signed(body), secret, { ...later, toleranceSeconds: 30 })),
    ).toBe('timestamp_out_of_tolerance');
    expect(verifyWebhook(body, signed(body), secret, { ...later, toleranceSeconds: 60 }).id).toBeDefined();
  });

  it('checks against the current time by default', () => {
    const fresh = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(body, signed(body, secret, fresh), secret).id).toBeDefined();
    expect(reasonOf(() => verifyWebhook(body, signed(body), secret))).toBe('timestamp_out_of_tolerance');
  });

  it.each([
    ['an empty header', ''],
    ['a header without parts', 'garbage'],
    ['no timestamp', `v1=${hmac(body, secret, t)}`],
    ['no v1 signature', `t=${t}`],
    ['a timestamp that is not a number', `t=soon,v1=${hmac(body, secret, t)}`],
    ['two timestamps', `t=${t},t=${t},v1=${hmac(body, secret, t)}`],
    ['a v1 that is not hex', `t=${t},v1=${'z'.repeat(64)}`],
    ['a v1 of the wrong length', `t=${t},v1=${hmac(body, secret, t).slice(0, 40)}`],
    ['a part without a value', `t=${t},v1`],
  ])('rejects a malformed header: %s', (_name, header) => {
    expect(reasonOf(() => verifyWebhook(body, header, secret, { now }))).toBe('malformed_header');
  });

  it('rejects a genuinely signed body that is not an event', () => {
    expect(reasonOf(() => verifyWebhook('not json', signed('not json'), secret, { now }))).toBe(
      'malformed_payload',
    );
    expect(reasonOf(() => verifyWebhook('[1,2]', signed('[1,2]'), secret, { now }))).toBe(
      'malformed_payload',
    );
  });
});
