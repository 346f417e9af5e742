/**
 * The five account lists answer with their page rendered where it was read (on SQLite the
 * reader thread, server/domain/lists.ts) and sent as JSON text (`sendJson`). Production
 * sends that text as it is; with response validation on, as in every other test, it goes
 * through `res.json` for the contract validator, which wraps it on each response. Both ways
 * must answer alike, byte for byte: each list is asked of the test server (responses validated)
 * and of a second service on the same database without response validation, as production
 * runs, with the data unchanged in between.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../server/service.js';
import { raw } from '../support/api.js';
import { createService, fund, sandbox } from '../support/fixtures.js';
import { startServiceOn, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let production: RunningService;

beforeAll(async () => {
  server = await startTestServer();
  const serviceId = await createService(server);
  await fund(server, 5000);
  await server.raw('POST', '/payments', {
    body: {
      amount: 1500,
      currency: 'XAF',
      customer_msisdn: sandbox.mtn.succeeds,
      payment_method: 'mtn_momo',
      service_id: serviceId,
      return_url: 'https://shop.example/back',
    },
  });
  await server.raw('POST', '/payments/initiate', {
    body: { amount: 900, currency: 'XAF', service_id: serviceId, reference: 'order "7" \u00e9\u2028' },
  });
  await server.raw('POST', '/payouts', {
    body: { amount: 700, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal' },
  });
  await server.flushLogs();
  // Its links (a payment's checkout_url) name the test server, as every instance of one
  // deployment names the same public address.
  production = await startServiceOn(server, {
    VALIDATE_RESPONSES: 'false',
    PUBLIC_URL: new URL(server.service.apiUrl).origin,
  });
});
afterAll(async () => {
  await production?.close();
  await server.close();
});

/** A list as production answers it (`validated` off: the text as rendered) or through `res.json`. */
async function answer(path: string, query: Record<string, string>, validated: boolean, method = 'GET') {
  const apiUrl = validated ? server.service.apiUrl : production.apiUrl;
  return raw(apiUrl, method, path, { as: server.test, query });
}

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
    const head = await answer('/payments', { limit: '10' }, false, 'HEAD');
    const get = await answer('/payments', { limit: '10' }, false);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
  });
});
