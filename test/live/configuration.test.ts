import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { ChildServerStartError, startChildServer } from '../support/child-server.js';
import { sandbox } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';
import { live, liveBalance, settleUntil, statusOf } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'live-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fullMtn = {
  MTN_MOMO_BASE_URL: 'https://sandbox.momodeveloper.mtn.com',
  MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox',
  MTN_MOMO_COLLECTION_SUBSCRIPTION_KEY: 'c-sub',
  MTN_MOMO_COLLECTION_API_USER: 'c-user',
  MTN_MOMO_COLLECTION_API_KEY: 'c-key',
  MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: 'd-sub',
  MTN_MOMO_DISBURSEMENT_API_USER: 'd-user',
  MTN_MOMO_DISBURSEMENT_API_KEY: 'd-key',
};

describe('operator configuration', () => {
  it('reads a complete MTN MoMo configuration', () => {
    const config = loadConfig({
      ...fullMtn,
      MTN_MOMO_CALLBACK_URL: 'https://api.example.com/operator-callbacks/mtn-momo',
    });
    expect(config.mtnMomo).toMatchObject({
      baseUrl: 'https://sandbox.momodeveloper.mtn.com',
      targetEnvironment: 'sandbox',
      collection: { subscriptionKey: 'c-sub', apiUser: 'c-user', apiKey: 'c-key' },
      disbursement: { subscriptionKey: 'd-sub', apiUser: 'd-user', apiKey: 'd-key' },
      callbackUrl: 'https://api.example.com/operator-callbacks/mtn-momo',
    });
    expect(config.orangeMoney).toBeNull();
  });

  it('refuses a partial configuration, naming every missing variable', () => {
    const { MTN_MOMO_DISBURSEMENT_API_KEY: _key, MTN_MOMO_TARGET_ENVIRONMENT: _env, ...partial } = fullMtn;
    let error: unknown;
    try {
      loadConfig({ ...partial, ORANGE_MONEY_CLIENT_ID: 'x' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('MTN_MOMO_TARGET_ENVIRONMENT');
    expect(message).toContain('MTN_MOMO_DISBURSEMENT_API_KEY');
    expect(message).not.toContain('MTN_MOMO_COLLECTION_API_KEY,');
    expect(message).toContain('ORANGE_MONEY_CLIENT_SECRET');
  });

  it('a callback URL alone is a partial configuration; production wants https', () => {
    expect(() => loadConfig({ MTN_MOMO_CALLBACK_URL: 'https://x.example/cb' })).toThrow(/MTN_MOMO_BASE_URL/);
    expect(() =>
      loadConfig({ ...fullMtn, NODE_ENV: 'production', MTN_MOMO_BASE_URL: 'http://momo.example' }),
    ).toThrow(/MTN_MOMO_BASE_URL must be an https URL/);
  });

  it('npm start with a partial configuration stops before listening and says what is missing', async () => {
    const { MTN_MOMO_COLLECTION_API_KEY: _key, ...partial } = fullMtn;
    const started = startChildServer({ dbPath: join(dir, 'partial.db'), env: partial, name: 'partial' });
    await expect(started).rejects.toBeInstanceOf(ChildServerStartError);
    const error = (await started.catch((err) => err)) as ChildServerStartError;
    expect(error.output).toContain('MTN MoMo is partly configured: set MTN_MOMO_COLLECTION_API_KEY');
    expect(error.code).toBe(1);
  });

  it('with no operator configured, live money keeps failing clearly with operator_error', async () => {
    const server = await startTestServer();
    try {
      const service = (await live(server, 'POST', '/services', { name: 'Shop' })).body.data.service_id;
      const payment = await live(server, 'POST', '/payments', {
        amount: 100,
        currency: 'XAF',
        customer_msisdn: sandbox.orange.succeeds,
        payment_method: 'orange_money',
        service_id: service,
      });
      expect(payment.status).toBe(202);
      const path = `/payments/${payment.body.data.transaction_id}`;
      await settleUntil(server, async () => (await statusOf(server, path)) !== 'initiated');
      expect((await live(server, 'GET', path)).body.data).toMatchObject({
        status: 'failed',
        failure_code: 'operator_error',
      });
      expect(await liveBalance(server)).toBe(0);
    } finally {
      await server.close();
    }
  });
});
