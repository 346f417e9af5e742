/**
 * kill -9 around the operator call, in live mode against the MTN MoMo and Orange Money
 * simulators: the server (a child process, `node dist/server/main.js`) SIGKILLs itself at a named
 * point (`FAULT_KILL_AT`, server/operators/fault-points.ts) and is restarted on the same database
 * (the SQLite file, or with `TEST_DATABASE=postgres` a fresh PostgreSQL database of the run's
 * cluster):
 *
 * - between our commit and the operator call: the request never reached the operator; after the
 *   restart its status is asked (MTN 404 / no Orange payToken) and the same request is sent, once;
 * - between the operator's answer and anything we commit after it: the operator has it; after
 *   the restart its status is asked and nothing is sent again;
 * - between a final status and the settlement's commit: the restart asks again and settles once.
 *
 * Each movement settles exactly once, the operator saw exactly one request for it, a client
 * retrying with its Idempotency-Key gets the same movement, and every balance equals its ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MtnMomoSimulator, startMtnMomoSimulator } from '../../scripts/simulators/mtn-momo-simulator.js';
import {
  type OrangeMoneySimulator,
  startOrangeMoneySimulator,
} from '../../scripts/simulators/orange-money-simulator.js';
import { mtnEnv, orangeEnv } from '../live/support.js';
import { type ChildServer, callApi, type DatabaseTarget, startChildServer } from '../support/child-server.js';
import { startFundedServer } from './support/funded-server.js';
import { tempFolder, waitUntil } from './support/load.js';
import { readMoney } from './support/money.js';

const folder = tempFolder('live-crash-');
let database: DatabaseTarget;
let mtnSim: MtnMomoSimulator;
let orangeSim: OrangeMoneySimulator;
let liveAs: { apiUser: string; testKey: string };
let serviceId: string;
let running: ChildServer | undefined;

/** The live server's settings: the simulators, and where it dies (`FAULT_KILL_AT`), if anywhere. */
function liveEnv(faultAt?: string): Record<string, string> {
  return {
    ...mtnEnv(mtnSim),
    ...orangeEnv(orangeSim),
    OPERATOR_TIMEOUT_MS: '300',
    ...(faultAt ? { FAULT_KILL_AT: faultAt } : {}),
  };
}

async function start(faultAt?: string): Promise<ChildServer> {
  running = await startChildServer({
    ...database,
    name: faultAt ? `server (dies at ${faultAt})` : 'server',
    env: liveEnv(faultAt),
  });
  return running;
}

async function get(server: ChildServer, path: string) {
  return (await callApi(server.url, liveAs, 'GET', path)).body.data;
}

async function settledStatus(server: ChildServer, path: string): Promise<string> {
  let status = '';
  await waitUntil(
    async () => {
      status = (await get(server, path)).status;
      return status !== 'initiated' && status !== 'pending';
    },
    15_000,
    () => `${path} still ${status}`,
  );
  return status;
}

async function balance(server: ChildServer): Promise<number> {
  const data = await get(server, '/balance');
  return (
    (data.balances as Array<{ currency: string; available: number }>).find((b) => b.currency === 'XAF')
      ?.available ?? 0
  );
}

/** POSTs; the server may die before answering (the call then rejects). */
async function postDying(server: ChildServer, path: string, body: unknown, key: string) {
  const answer = await callApi(server.url, liveAs, 'POST', path, { body, idempotencyKey: key }).catch(
    () => null,
  );
  return answer;
}

async function moneyProblems(): Promise<string[]> {
  return (await readMoney(database)).problems;
}

beforeAll(async () => {
  mtnSim = await startMtnMomoSimulator({ settleMs: 0 });
  orangeSim = await startOrangeMoneySimulator({ settleMs: 0 });
  // A live account funded by a top-up that succeeded at the MTN simulator.
  const funded = await startFundedServer({
    dir: folder.dir,
    name: 'live-crash',
    env: liveEnv(),
    funding: 100_000,
    live: true,
  });
  ({ database, serviceId, as: liveAs } = funded);
  await funded.server.stop();
}, 60_000);

afterAll(async () => {
  await running?.kill();
  await Promise.all([mtnSim?.close(), orangeSim?.close()]);
  folder.remove();
});

describe.each([
  ['mtn_momo', '237670000000', '237670000007'],
  ['orange_money', '237690000000', '237690000007'],
])('live %s, kill -9 around the operator call', (method, payer, recipient) => {
  /** What the operator's simulator recorded for `amount`: its reference and how many times it was sent. */
  const sentWith = (amount: number): Array<{ ref: string; sends: number }> =>
    method === 'mtn_momo'
      ? [...mtnSim.requests.values()]
          .filter((r) => r.amount === String(amount))
          .map((r) => ({ ref: r.referenceId, sends: r.posts }))
      : [...orangeSim.paidByOrder().values()]
          .filter((r) => r.amount === String(amount))
          .map((r) => ({ ref: r.orderId as string, sends: r.pays }));
  const requestsFor = (ref: string): number =>
    method === 'mtn_momo'
      ? (mtnSim.requests.get(ref)?.posts ?? 0)
      : (orangeSim.paidByOrder().get(ref)?.pays ?? 0);

  it('killed between our commit and the operator call: after restart the payment is sent once and credited once', async () => {
    const key = `crash-a-${method}`;
    const body = {
      amount: 1111,
      currency: 'XAF',
      customer_msisdn: payer,
      payment_method: method,
      service_id: serviceId,
    };
    // The server that will die answers reads as any other until it reaches its fault point.
    const dying = await start('before_operator_call');
    const before = await balance(dying);
    expect(await postDying(dying, '/payments', body, key)).toBeNull();
    await dying.kill();

    const server = await start();
    const retried = await callApi(server.url, liveAs, 'POST', '/payments', { body, idempotencyKey: key });
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const id = retried.body.data.transaction_id;
    expect(await settledStatus(server, `/payments/${id}`)).toBe('success');
    expect(await balance(server)).toBe(before + 1111);
    const list = await get(server, '/payments?limit=100');
    const mine = (list.items as Array<{ amount: number; payment_method: string }>).filter(
      (p) => p.amount === 1111 && p.payment_method === method,
    );
    expect(mine).toHaveLength(1);
    await server.stop();
    expect(sentWith(1111).map((r) => r.sends)).toEqual([1]);
    expect(await moneyProblems()).toEqual([]);
  }, 60_000);

  it('killed between the operator accepting a payout and our next commit: it settles once, never sent twice', async () => {
    const key = `crash-b-${method}`;
    const body = { amount: 2222, recipient_msisdn: recipient, payout_type: 'withdrawal' };
    const dying = await start('after_operator_answer');
    const before = await balance(dying);
    expect(await postDying(dying, '/payouts', body, key)).toBeNull();
    await dying.kill();
    // The premise: the operator has the payout. The server dies as soon as its call ends, and
    // on a busy machine that can be before the simulator (in this process) has recorded the
    // request the call sent: wait for the record, not for time.
    await expect
      .poll(() => sentWith(2222), { timeout: 15_000, interval: 20 })
      .toEqual([{ ref: expect.any(String), sends: 1 }]);
    const [sentBefore] = sentWith(2222);

    const server = await start();
    const retried = await callApi(server.url, liveAs, 'POST', '/payouts', { body, idempotencyKey: key });
    expect(retried.status).toBe(202);
    const id = retried.body.data.transaction_id;
    expect(await settledStatus(server, `/payouts/${id}`)).toBe('success');
    expect(await balance(server)).toBe(before - 2222);
    await server.stop();
    expect(requestsFor(sentBefore?.ref as string)).toBe(1);
    expect(await moneyProblems()).toEqual([]);
  }, 60_000);

  it('killed between a final status and the settlement commit: after restart it is credited once', async () => {
    const dying = await start('after_operator_status');
    const before = await balance(dying);
    const created = await callApi(dying.url, liveAs, 'POST', '/payments', {
      body: {
        amount: 3333,
        currency: 'XAF',
        customer_msisdn: payer,
        payment_method: method,
        service_id: serviceId,
      },
    });
    expect(created.status).toBe(202);
    await waitUntil(
      () => !dying.alive(),
      15_000,
      () => `the server never reached a final status:\n${dying.output().slice(-3000)}`,
    );
    await dying.kill();
    const server = await start();
    const id = created.body.data.transaction_id;
    expect(await settledStatus(server, `/payments/${id}`)).toBe('success');
    expect(await balance(server)).toBe(before + 3333);
    const events = await get(server, `/events?transaction_id=${id}`);
    expect((events.items as Array<{ event: string }>).map((e) => e.event)).toEqual(['payment.completed']);
    await server.stop();
    expect(await moneyProblems()).toEqual([]);
  }, 60_000);
});
