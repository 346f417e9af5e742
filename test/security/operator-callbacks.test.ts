/**
 * Attack: the operator callback URLs are unauthenticated by nature (operators cannot send our
 * keys). A flood of them from one address is refused past a limit; a burst of callbacks for one
 * pending movement asks the operator about it a bounded number of times, one at a time, and
 * costs the database no write per callback. Against a real server and the MTN simulator, whose
 * status checks are counted by reference; on either engine.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../server/storage/store.js';
import { type LiveHarness, live, operatorRefOf, startLive } from '../live/support.js';
import { sandbox } from '../support/fixtures.js';
import { type TestServer, useTestServer } from '../support/server.js';

/** A POST from a chosen loopback source address (127.0.0.0/8 all reach the listener). */
function postFrom(
  localAddress: string,
  url: string,
): Promise<{ status: number; retryAfter?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'] as string | undefined,
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end('{"status":"SUCCESSFUL"}');
  });
}

/** The server's store, counting the units of work (writes) it is asked to run, by name. */
function countWrites(server: TestServer): { units: string[]; restore(): void } {
  const deps = server.service.deps;
  const original = deps.store;
  const units: string[] = [];
  deps.store = new Proxy(original, {
    get(target, property) {
      if (property === 'run') {
        return (unit: { name: string }, ...rest: unknown[]) => {
          units.push(unit.name);
          return (target.run as (...args: unknown[]) => unknown).call(target, unit, ...rest);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Store;
  return { units, restore: () => (deps.store = original) };
}

describe('callbacks are limited per source address', () => {
  const server = useTestServer({ OPERATOR_CALLBACK_LIMIT: '5', OPERATOR_CALLBACK_WINDOW_MS: '60000' });

  it('past the limit an address gets 429 rate_limited with Retry-After; another address does not', async () => {
    const url = `${server.url.replace(/\/v1$/, '')}/operator-callbacks/mtn-momo/pay_0VcEAAAAAAAAAAAAAAAAAAAA/6f1c1a5e-2b3d-4c5e-8f90-123456789abc`;
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await postFrom('127.0.0.3', url));
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204, 204, 204, 429, 429, 429]);
    const refused = answers[5] as { retryAfter?: string; body: string };
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(refused.body).error.code).toBe('rate_limited');
    expect((await postFrom('127.0.0.4', url)).status).toBe(204);
  });
});

describe('a burst of callbacks for one movement', () => {
  let harness: LiveHarness;
  let server: TestServer;
  let callbackUrl: string;
  let reference: string;
  let paymentId: string;

  beforeAll(async () => {
    harness = await startLive({ env: { OPERATOR_CALLBACK_LIMIT: '100000' } });
    server = harness.server;
    const service = await live(server, 'POST', '/services', { name: 'Callback shop' });
    const payment = await live(server, 'POST', '/payments', {
      amount: 5000,
      currency: 'XAF',
      customer_msisdn: sandbox.mtn.neverSettles,
      payment_method: 'mtn_momo',
      service_id: service.body.data.service_id,
    });
    expect(payment.status, payment.text).toBe(202);
    paymentId = payment.body.data.transaction_id;
    reference = (await operatorRefOf(server, 'payments', paymentId)).ref;
    callbackUrl = `${server.url.replace(/\/v1$/, '')}/operator-callbacks/mtn-momo/${paymentId}/${reference}`;
    await server.settle(); // asked once: still pending, next look in one poll interval
  });
  afterAll(() => harness.close());

  const burst = async (count: number) => {
    const answers = await Promise.all(
      Array.from({ length: count }, () => fetch(callbackUrl, { method: 'PUT', body: '{}' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(count).fill(204));
  };
  /** Waits for the passes the callbacks asked for (this one runs after them, finding nothing due). */
  const passesDone = () => server.service.settlement.runOnce();
  const statusChecks = () => harness.mtnSim.statusChecks.get(reference) ?? 0;

  it('200 callbacks at once, long before its next check: one status check, and no write but its claim and outcome', async () => {
    const checksBefore = statusChecks();
    const writes = countWrites(server);
    try {
      await burst(200);
      // Asked by the pass the callbacks woke, though its next check was a poll interval away.
      await expect.poll(statusChecks).toBe(checksBefore + 1);
      await passesDone();
    } finally {
      writes.restore();
    }
    expect(statusChecks()).toBe(checksBefore + 1);
    expect(writes.units.length).toBeLessThanOrEqual(2);
    expect(writes.units.every((name) => name.startsWith('settlement.'))).toBe(true);
  });

  it('bursts of 50 once it is due again: one status check per burst, and only its claim and outcome written', async () => {
    const checksBefore = statusChecks();
    const writes = countWrites(server);
    try {
      for (let round = 1; round <= 5; round++) {
        server.clock.advance(1000); // past the next look: the pass the callbacks ask for finds it due
        await burst(50);
        // Asked by the pass the callbacks woke (no pass of the test's runs before this).
        await expect.poll(statusChecks).toBe(checksBefore + round);
        await passesDone();
      }
    } finally {
      writes.restore();
    }
    expect(statusChecks() - checksBefore).toBe(5);
    // Per burst: the pass's claim and the outcome it applied; nothing per callback.
    expect(writes.units.length).toBeLessThanOrEqual(10);
    expect(writes.units.every((name) => name.startsWith('settlement.'))).toBe(true);
  });
});
