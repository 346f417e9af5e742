/**
 * The five account lists answer with their page rendered where it was read (on SQLite the
 * reader thread, server/domain/lists.ts) and sent as JSON text (`sendRendered`). Production
 * sends that text as it is; with response validation on, as in every other test, it goes
 * through `res.json` for the contract validator. Both ways must answer alike, byte for byte:
 * the same server answers each list both ways here (its `validateResponses` switched between
 * the two requests), with the data unchanged in between.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, fund, successNumber } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const serviceId = await createService(server);
  await fund(server, 5000);
  await server.request('POST', '/payments', {
    body: {
      amount: 1500,
      currency: 'XAF',
      customer_msisdn: successNumber,
      payment_method: 'mtn_momo',
      service_id: serviceId,
      return_url: 'https://shop.example/back',
    },
  });
  await server.request('POST', '/payments/initiate', {
    body: { amount: 900, currency: 'XAF', service_id: serviceId, reference: 'order "7" \u00e9\u2028' },
  });
  await server.request('POST', '/payouts', {
    body: { amount: 700, recipient_msisdn: successNumber, payout_type: 'withdrawal' },
  });
  await server.flushLogs();
});
afterAll(() => server.close());

/** Runs `work` with the server answering as production does (`validated` off) or through `res.json`. */
async function answering<T>(validated: boolean, work: () => Promise<T>): Promise<T> {
  const config = server.service.deps.config as { validateResponses: boolean };
  const before = config.validateResponses;
  config.validateResponses = validated;
  try {
    return await work();
  } finally {
    config.validateResponses = before;
  }
}

const answer = (path: string, query: Record<string, string>, validated: boolean) =>
  answering(validated, () => server.request('GET', path, { query }));

describe('a list page sent as rendered JSON text', () => {
  for (const [path, query] of [
    ['/payments', { limit: '10' }],
    ['/payments', { limit: '1', flow: 'hosted' }],
    ['/payouts', { limit: '10' }],
    ['/topups', { limit: '10' }],
    ['/services', { limit: '10' }],
    // POSTs only: the GETs of this test are logged as it runs.
    ['/logs', { limit: '5', method: 'POST' }],
  ] as const) {
    it(`GET ${path}?${new URLSearchParams(query)} answers the same bytes and headers as res.json`, async () => {
      const sent = await answer(path, query, false);
      const checked = await answer(path, query, true);
      expect(sent.status).toBe(200);
      expect(sent.body.status).toBe('success');
      expect(sent.body.data.items.length).toBeGreaterThan(0);
      expect(sent.text).toBe(checked.text);
      for (const header of ['content-type', 'content-length', 'etag']) {
        expect(sent.headers.get(header), header).toBe(checked.headers.get(header));
      }
      expect(sent.headers.get('content-type')).toBe('application/json; charset=utf-8');
    });
  }

  it('answers HEAD with the headers of GET and no body', async () => {
    await answering(false, async () => {
      const head = await fetch(`${server.service.apiUrl}/payments?limit=10`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${server.test.key}`, 'x-api-user': server.test.apiUser },
      });
      const get = await server.request('GET', '/payments', { query: { limit: '10' } });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    });
  });
});
