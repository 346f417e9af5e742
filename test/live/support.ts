/**
 * Live mode against the operator simulators: an MTN MoMo and an Orange Money simulator on
 * 127.0.0.1, and a real server configured with nothing but their MTN_MOMO_* and
 * ORANGE_MONEY_* variables (callbacks pointing back at the server, on 127.0.0.1 too).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type MtnMomoSimulator,
  mtnEnv,
  startMtnMomoSimulator,
} from '../../scripts/simulators/mtn-momo-simulator.js';

export { mtnEnv };

import {
  type OrangeMoneySimulator,
  startOrangeMoneySimulator,
} from '../../scripts/simulators/orange-money-simulator.js';
import { sandbox } from '../support/fixtures.js';
import { onFreePort } from '../support/ports.js';
import { reconcile, startTestServer, type TestServer } from '../support/server.js';

export function orangeEnv(sim: OrangeMoneySimulator, callbackBase?: string): Record<string, string> {
  return {
    ORANGE_MONEY_BASE_URL: sim.url,
    ORANGE_MONEY_CLIENT_ID: sim.credentials.clientId,
    ORANGE_MONEY_CLIENT_SECRET: sim.credentials.clientSecret,
    ORANGE_MONEY_AUTH_TOKEN: sim.credentials.authToken,
    ORANGE_MONEY_CHANNEL_MSISDN: sim.credentials.channelMsisdn,
    ORANGE_MONEY_PIN: sim.credentials.pin,
    ...(callbackBase ? { ORANGE_MONEY_NOTIFY_URL: `${callbackBase}/operator-callbacks/orange-money` } : {}),
  };
}

export interface LiveHarness {
  server: TestServer;
  mtnSim: MtnMomoSimulator;
  orangeSim: OrangeMoneySimulator;
  close(): Promise<void>;
}

/** The token the live servers' /metrics asks for (it is not public). */
export const liveMetricsToken = 'live-tests-metrics-token';

export async function startLive(
  options: { env?: Record<string, string>; settleMs?: number; tokenLifetimeSeconds?: number } = {},
): Promise<LiveHarness> {
  const simOptions = {
    settleMs: options.settleMs ?? 0,
    ...(options.tokenLifetimeSeconds ? { tokenLifetimeSeconds: options.tokenLifetimeSeconds } : {}),
  };
  const mtnSim = await startMtnMomoSimulator(simOptions);
  const orangeSim = await startOrangeMoneySimulator(simOptions);
  // The callback URLs name the server's port, so it is chosen before the server listens.
  const server = await onFreePort(
    (port) => {
      const base = `http://127.0.0.1:${port}`;
      return startTestServer({
        PORT: String(port),
        OPERATOR_TIMEOUT_MS: '1000',
        METRICS_TOKEN: liveMetricsToken,
        ...mtnEnv(mtnSim, base),
        ...orangeEnv(orangeSim, base),
        ...(options.env ?? {}),
      });
    },
    (err) => (err as { code?: string }).code === 'EADDRINUSE',
  );
  return {
    server,
    mtnSim,
    orangeSim,
    async close() {
      await server.close();
      await Promise.all([mtnSim.close(), orangeSim.close()]);
    },
  };
}

/** A live-key call. */
export function live(server: TestServer, method: string, path: string, body?: unknown) {
  return server.raw(method, path, { as: server.live, ...(body === undefined ? {} : { body }) });
}

export async function liveBalance(server: TestServer, currency = 'XAF'): Promise<number> {
  const response = await live(server, 'GET', '/balance');
  const entry = (response.body.data.balances as Array<{ currency: string; available: number }>).find(
    (b) => b.currency === currency,
  );
  return entry?.available ?? 0;
}

/**
 * The ledger after a run: every balance equals the sum of its entries, and no movement was
 * credited, debited or reversed twice (one entry per type and source).
 */
export async function expectLedgerSound(server: TestServer): Promise<void> {
  for (const row of await reconcile(server)) expect(row.available).toBe(row.ledger_sum);
  const entries: Array<{ type: string; source_id: string }> = [];
  let cursor: string | undefined;
  do {
    const page = await server.raw('GET', '/balance/transactions', {
      as: server.live,
      query: { limit: 100, ...(cursor ? { cursor } : {}) },
    });
    entries.push(...page.body.data.items);
    cursor = page.body.data.has_more ? page.body.data.next_cursor : undefined;
  } while (cursor);
  const keys = entries.map((e) => `${e.type}:${e.source_id}`);
  expect(new Set(keys).size).toBe(keys.length);
}

/** Runs settlement passes (real time, manual clock moved by `stepMs`) until `done` or a deadline. */
export async function settleUntil(
  server: TestServer,
  done: () => Promise<boolean>,
  { stepMs = 1000, timeoutMs = 10_000 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('did not settle in time');
    await server.settle(stepMs);
  }
}

export async function statusOf(server: TestServer, path: string): Promise<string> {
  return (await live(server, 'GET', path)).body.data.status;
}

/** Our operator reference (and Orange payToken) of a live movement, as committed. */
export async function operatorRefOf(
  server: TestServer,
  table: 'payments' | 'topups' | 'payouts',
  id: string,
): Promise<{ ref: string; token: string | null }> {
  const row = await server.service.deps.store.read(async (tx) =>
    tx[table].get(server.account.accountId, 'live', id),
  );
  if (!row?.operator_ref) throw new Error(`${table} ${id} has no operator reference`);
  return { ref: row.operator_ref, token: row.operator_token };
}

/**
 * Funds the live Main Balance with a settled MTN top-up, so every payout test of a file has
 * money whatever order the tests run in (vitest shuffles them).
 */
export async function fundLive(server: TestServer, amount = 1_000_000): Promise<void> {
  const created = await live(server, 'POST', '/topups', {
    amount,
    currency: 'XAF',
    payer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo',
  });
  if (created.status !== 202) throw new Error(`fundLive: ${created.status} ${created.text}`);
  const path = `/topups/${created.body.data.transaction_id}`;
  await settleUntil(server, async () => (await statusOf(server, path)) === 'success');
}

/** A live-mode file's harness, its live balance funded, and a service to pay through. */
export interface LiveShop extends LiveHarness {
  serviceId: string;
  /** A live payment of `amount` XAF from `msisdn` through the shop's service, by `method`. */
  pay(msisdn: string, amount?: number): ReturnType<typeof live>;
  /** Settles until the movement at `path` has left initiated and pending; returns it. */
  // biome-ignore lint/suspicious/noExplicitAny: movements are read field by field, as `live` gives them
  settled(path: string): Promise<any>;
  /**
   * A live payout to a number the operator never settles: pending and debited at first, then
   * failed `operator_timeout` at the payout timeout, and the amount back on the balance.
   */
  expectPayoutTimesOut(payout: {
    amount: number;
    recipient_msisdn: string;
    payout_type: string;
  }): Promise<void>;
}

/**
 * The set-up the live payment files share, run before the file's tests (`beforeAll`) and
 * closed after them: the simulators and a server (`startLive`), the live balance funded with
 * `fundLive`, whatever order the tests run in, and a service.
 */
export function liveShop(method: 'mtn_momo' | 'orange_money'): LiveShop {
  const shop = {
    serviceId: '',
    pay: (msisdn: string, amount = 5000) =>
      live(shop.server, 'POST', '/payments', {
        amount,
        currency: 'XAF',
        customer_msisdn: msisdn,
        payment_method: method,
        service_id: shop.serviceId,
      }),
    async settled(path: string) {
      await settleUntil(
        shop.server,
        async () => !['initiated', 'pending'].includes(await statusOf(shop.server, path)),
      );
      return (await live(shop.server, 'GET', path)).body.data;
    },
    async expectPayoutTimesOut(payout) {
      const before = await liveBalance(shop.server);
      const id = (await live(shop.server, 'POST', '/payouts', payout)).body.data.transaction_id;
      await shop.server.settle(1000);
      expect(await statusOf(shop.server, `/payouts/${id}`)).toBe('pending');
      expect(await liveBalance(shop.server)).toBe(before - payout.amount);
      await shop.server.settle(400_000);
      expect((await live(shop.server, 'GET', `/payouts/${id}`)).body.data).toMatchObject({
        status: 'failed',
        failure_code: 'operator_timeout',
      });
      expect(await liveBalance(shop.server)).toBe(before);
    },
  } as LiveShop;
  beforeAll(async () => {
    Object.assign(shop, await startLive());
    await fundLive(shop.server);
    shop.serviceId = (
      await live(shop.server, 'POST', '/services', { name: 'Live shop' })
    ).body.data.service_id;
  });
  afterAll(() => shop.close());
  return shop;
}
