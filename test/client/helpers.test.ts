/**
 * `autoPagingToArray` against a real HTTP server on 127.0.0.1 serving a list in pages, and
 * `generateTestHeader` checked by `verifyWebhook` and by an independent HMAC, as an
 * integrator's own webhook tests would use it.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  autoPagingToArray,
  generateTestHeader,
  PaymentsApiError,
  verifyWebhook,
  type WebhookVerificationError,
} from '../../client/src/index.js';
import { type Handler, pagedList as pagedListOf, sendError, useLocalServers } from './local-server.js';

const clientFor = useLocalServers();

const ids = Array.from({ length: 12 }, (_, i) => `pay_${12 - i}`);

const pagedList: Handler = pagedListOf(ids);

describe('autoPagingToArray', () => {
  it('collects every item across pages when the list is shorter than the limit', async () => {
    const { client, requests } = await clientFor(pagedList);
    const all = await autoPagingToArray(
      client,
      '/payments',
      { limit: 100 },
      { params: { query: { limit: 5 } } },
    );
    expect(all.map((p) => p.transaction_id)).toEqual(ids);
    expect(requests).toHaveLength(3);
  });

  it('stops at the limit, and fetches no page beyond the one that reached it', async () => {
    const { client, requests } = await clientFor(pagedList);
    const first = await autoPagingToArray(
      client,
      '/payments',
      { limit: 7 },
      { params: { query: { limit: 5 } } },
    );
    expect(first.map((p) => p.transaction_id)).toEqual(ids.slice(0, 7));
    expect(requests).toHaveLength(2);
  });

  it('refuses a limit that is not an integer from 1 to 10 000, before any request', async () => {
    const { client, requests } = await clientFor(pagedList);
    for (const limit of [0, -1, 1.5, 10_001, Number.NaN]) {
      await expect(autoPagingToArray(client, '/payments', { limit })).rejects.toThrow(RangeError);
    }
    expect(requests).toHaveLength(0);
  });

  it('throws a PaymentsApiError with the code when a page fails', async () => {
    const { client } = await clientFor((_request, res) => sendError(res, 401, 'invalid_api_key'));
    const failure = await autoPagingToArray(client, '/payments', { limit: 10 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsApiError);
    expect((failure as PaymentsApiError).code).toBe('invalid_api_key');
  });
});

describe('generateTestHeader', () => {
  const secret = 'whsec_own_tests';
  const payload = JSON.stringify({
    id: 'evt_test',
    event: 'refund.completed',
    mode: 'test',
    timestamp: '2026-11-20T09:30:04.000Z',
    data: {
      transaction_id: 'po_test',
      amount: 1500,
      currency: 'XAF',
      status: 'success',
      reference: null,
      failure_code: null,
      service_id: 'svc_test',
      payment_id: 'pay_test',
    },
  });

  it('signs a payload that verifyWebhook accepts, returning the typed event', () => {
    const header = generateTestHeader({ payload, secret });
    const event = verifyWebhook(payload, header, secret);
    expect(event.event).toBe('refund.completed');
    if (event.event === 'refund.completed') expect(event.data.payment_id).toBe('pay_test');
  });

  it('is the contract’s t=<seconds>,v1=<HMAC-SHA256 of "t.body">, computed independently', () => {
    const header = generateTestHeader({ payload, secret, timestamp: 1_763_631_005 });
    const expected = createHmac('sha256', secret).update(`1763631005.${payload}`).digest('hex');
    expect(header).toBe(`t=1763631005,v1=${expected}`);
  });

  it('lets tests exercise the rejections: another secret, an altered body, an old timestamp', () => {
    const header = generateTestHeader({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const reason = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return (error as WebhookVerificationError).reason;
      }
      return 'accepted';
    };
    expect(reason(() => verifyWebhook(payload, header, 'whsec_other'))).toBe('signature_mismatch');
    expect(reason(() => verifyWebhook(`${payload} `, header, secret))).toBe('signature_mismatch');
    expect(reason(() => verifyWebhook(payload, header, secret))).toBe('timestamp_out_of_tolerance');
    expect(() => generateTestHeader({ payload, secret, timestamp: -1 })).toThrow(RangeError);
  });
});
