import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MtnMomoSimulator, startMtnMomoSimulator } from '../../scripts/simulators/mtn-momo-simulator.js';
import { runAdmin } from '../support/admin.js';
import { sandbox } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';
import { live, settleUntil, statusOf } from './support.js';

/**
 * The README's MTN sandbox steps against the simulator as MTN's sandbox: subscription keys in,
 * `npm run admin -- mtn-sandbox-credentials` creates the API users and keys, the printed
 * variables connect live mode, and a payment in EUR settles.
 */
let sim: MtnMomoSimulator;

beforeAll(async () => {
  sim = await startMtnMomoSimulator({ settleMs: 0, targetEnvironment: 'sandbox' });
});
afterAll(() => sim.close());

const provision = (keys: { collection: string; disbursement: string }) =>
  runAdmin(
    [
      'mtn-sandbox-credentials',
      '--collection-key',
      keys.collection,
      '--disbursement-key',
      keys.disbursement,
      '--base-url',
      sim.url,
      '--callback-url',
      'https://shop.example.com/operator-callbacks/mtn-momo',
    ],
    {},
  );

/** The `export NAME=value` lines a command printed, as variables. */
function exported(out: string): Record<string, string> {
  return Object.fromEntries(
    [...out.matchAll(/^export ([A-Z_]+)=(.*)$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
}

describe('npm run admin -- mtn-sandbox-credentials', () => {
  it('creates an API user and key per product and prints variables that connect live mode', async () => {
    const { code, out } = await provision({
      collection: sim.credentials.collection.subscriptionKey,
      disbursement: sim.credentials.disbursement.subscriptionKey,
    });
    expect(code).toBe(0);
    const env = exported(out);
    expect(env).toMatchObject({
      MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
      MTN_MOMO_BASE_URL: sim.url,
      MTN_MOMO_COLLECTION_SUBSCRIPTION_KEY: sim.credentials.collection.subscriptionKey,
      MTN_MOMO_CALLBACK_URL: 'https://shop.example.com/operator-callbacks/mtn-momo',
    });
    expect(env.MTN_MOMO_COLLECTION_API_USER).not.toBe(sim.credentials.collection.apiUser);
    expect(env.MTN_MOMO_DISBURSEMENT_API_USER).not.toBe(env.MTN_MOMO_COLLECTION_API_USER);
    expect(out).toContain('EUR');

    const { MTN_MOMO_CALLBACK_URL: _callback, ...connect } = env;
    const server = await startTestServer({ ...connect, OPERATOR_TIMEOUT_MS: '1000' });
    try {
      const service = (await live(server, 'POST', '/services', { name: 'Shop' })).body.data.service_id;
      const tokens = sim.tokensIssued.collection;
      const payment = await live(server, 'POST', '/payments', {
        amount: 500,
        currency: 'EUR',
        customer_msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
        service_id: service,
      });
      expect(payment.status).toBe(202);
      const id = payment.body.data.transaction_id;
      await settleUntil(server, async () => (await statusOf(server, `/payments/${id}`)) === 'success');
      expect(sim.tokensIssued.collection).toBeGreaterThan(tokens);
    } finally {
      await server.close();
    }
  });

  it('a wrong subscription key exits 1 saying MTN refused it, printing no variables', async () => {
    const { code, out } = await provision({ collection: 'not-a-key', disbursement: 'not-a-key' });
    expect(code).toBe(1);
    expect(out).toContain('subscription key');
    expect(out).not.toContain('export ');
  });
});
