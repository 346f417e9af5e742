/**
 * Whether each live operator product is reached: found by the start-up probe (one token each),
 * kept current by every later call, and shown by GET /v1/healthz, which stays 200 whatever the
 * operators do (docs/decisions/0041-operators-connected.md).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addUser, httpSignIn, origin } from '../dashboard/support.js';
import { sandbox } from '../support/fixtures.js';
import { decodeEntities } from '../support/html-form.js';
import { freePort } from '../support/ports.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { fundLive, type LiveHarness, live, startLive } from './support.js';

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

async function harness(env: Record<string, string> = {}): Promise<LiveHarness> {
  const h = await startLive({ env });
  closing.push(() => h.close());
  return h;
}

// biome-ignore lint/suspicious/noExplicitAny: the answer is read field by field
async function connections(server: TestServer): Promise<any[]> {
  const health = await server.raw('GET', '/healthz', { as: null });
  expect(health.status).toBe(200);
  expect(health.body.data).toMatchObject({ service: 'ok', database: 'ok' });
  return health.body.data.operators;
}

const entry = <T extends { name: string; product: string }>(list: T[], name: string, product: string) =>
  list.find((e) => e.name === name && e.product === product);

describe('operator connections', () => {
  it('the start-up probe finds every configured product connected, and healthz lists them', async () => {
    const { server } = await harness();
    expect((await connections(server)).map((e) => e.state)).toEqual(Array(4).fill('checking'));
    await server.service.probeOperators();
    const list = await connections(server);
    expect(list.map((e) => `${e.name}/${e.product}/${e.environment}/${e.state}`)).toEqual([
      'mtn_momo/collection/mtncameroon/connected',
      'mtn_momo/disbursement/mtncameroon/connected',
      'orange_money/collection/null/connected',
      'orange_money/disbursement/null/connected',
    ]);
    for (const e of list) {
      expect(Date.parse(e.last_success_at)).not.toBeNaN();
      expect(e.last_error).toBeNull();
    }
  });

  it('a wrong key is a 401 from the token endpoint: failing, named, no secret shown, healthz still 200', async () => {
    const wrongKey = 'wrong-collection-key-0123456789abcdef';
    const h = await harness({ MTN_MOMO_COLLECTION_API_KEY: wrongKey });
    await h.server.service.probeOperators();
    const list = await connections(h.server);
    const collection = entry(list, 'mtn_momo', 'collection');
    expect(collection).toMatchObject({ state: 'failing', last_success_at: null });
    expect(collection.last_error).toMatchObject({ code: 'auth' });
    expect(collection.last_error.message).toMatch(/collection token: HTTP 401, the operator refused/);
    expect(entry(list, 'mtn_momo', 'disbursement')).toMatchObject({ state: 'connected' });
    const text = JSON.stringify(list);
    for (const secret of [wrongKey, h.mtnSim.credentials.collection.subscriptionKey, h.mtnSim.url]) {
      expect(text).not.toContain(secret);
    }
  });

  it('an unreachable operator and one that answers too late say so', async () => {
    const closedPort = await freePort();
    const h = await harness({ ORANGE_MONEY_BASE_URL: `http://127.0.0.1:${closedPort}` });
    h.mtnSim.faults.slowMs = 1500; // OPERATOR_TIMEOUT_MS is 1000
    await h.server.service.probeOperators();
    h.mtnSim.faults.slowMs = 0;
    const list = await connections(h.server);
    for (const product of ['collection', 'disbursement']) {
      const orange = entry(list, 'orange_money', product);
      expect(orange).toMatchObject({ state: 'failing', last_error: { code: 'network' } });
      expect(orange.last_error.message).toMatch(/could not be reached/);
      const mtn = entry(list, 'mtn_momo', product);
      expect(mtn).toMatchObject({ state: 'failing', last_error: { code: 'timeout' } });
      expect(mtn.last_error.message).toMatch(/no answer within 1000 ms/);
    }
  });

  it('every later call updates the state: a product failing at start is connected once a call succeeds', async () => {
    const h = await harness();
    h.mtnSim.faults.tokenFail500 = 1;
    await h.server.service.probeOperators();
    const before = entry(await connections(h.server), 'mtn_momo', 'collection');
    const disbursement = entry(await connections(h.server), 'mtn_momo', 'disbursement');
    // One of the two products' token requests got the 500.
    const failed = before.state === 'failing' ? before : disbursement;
    expect(failed).toMatchObject({ state: 'failing', last_error: { code: 'http_5xx' } });
    await fundLive(h.server); // a collection: a token, the request and its status checks
    if (failed.product === 'disbursement') {
      const payout = await live(h.server, 'POST', '/payouts', {
        amount: 100,
        recipient_msisdn: sandbox.mtn.succeeds,
        payout_type: 'withdrawal',
      });
      expect(payout.status).toBe(202);
    }
    const after = entry(await connections(h.server), 'mtn_momo', failed.product);
    expect(after.state).toBe('connected');
    expect(Date.parse(after.last_success_at)).not.toBeNaN();
    // The error stays shown, with when it happened, after the product recovered.
    expect(after.last_error).toMatchObject({ code: 'http_5xx' });
  });

  it('operators without settings are listed as not configured', async () => {
    const server = await startTestServer();
    closing.push(() => server.close());
    await server.service.probeOperators();
    expect((await connections(server)).map((e) => `${e.name}/${e.product}/${e.state}`)).toEqual([
      'mtn_momo/collection/not_configured',
      'mtn_momo/disbursement/not_configured',
      'orange_money/collection/not_configured',
      'orange_money/disbursement/not_configured',
    ]);
  });

  it("the dashboard's overview shows each product's state, last success and last error", async () => {
    const h = await harness({ MTN_MOMO_COLLECTION_API_KEY: 'wrong-collection-key-0123456789abcdef' });
    await h.server.service.probeOperators();
    const { cookie } = await httpSignIn(h.server, await addUser(h.server));
    const page = async (language: string) => {
      const response = await fetch(`${origin(h.server)}/dashboard/live`, {
        headers: { cookie, 'accept-language': language },
      });
      expect(response.status).toBe(200);
      const text = decodeEntities(await response.text());
      return text.slice(text.indexOf('id="operators"'), text.indexOf('id="recent-payments"'));
    };
    const english = await page('en');
    const rows = english.split('<tr>').slice(2);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/MTN Mobile Money.*Collection.*mtncameroon.*failing.*Credentials refused/s);
    expect(rows[0]).toContain('collection token: HTTP 401, the operator refused the credentials');
    expect(rows[1]).toMatch(/MTN Mobile Money.*Disbursement.*connected.*<time/s);
    expect(rows[2]).toMatch(/Orange Money.*Collection.*connected/s);
    const french = await page('fr');
    expect(french).toMatch(/Opérateurs en production.*en échec.*Identifiants refusés.*connecté/s);
  });
});
