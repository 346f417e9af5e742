/**
 * The webhook sender's polls on a quiet server: a poll reads whether anything is due and claims
 * (a write transaction, the write lock taken) only when something is. Once a delivery is due,
 * the next poll claims and sends it.
 *
 * The sender runs on its timer here, every 10 ms, over the test server's store, which notes the
 * name of every unit it is asked to run and counts its reads. Everything waited for is a
 * condition.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Deps } from '../../server/domain/context.js';
import { createLogger } from '../../server/observability/logger.js';
import { createMetrics } from '../../server/observability/metrics.js';
import type { Store } from '../../server/storage/store.js';
import { startWebhookWorker } from '../../server/workers/webhook-worker.js';
import { type ControlledReceiver, startControlledReceiver, until } from '../security/webhooks-support.js';
import { createService, sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The store, with the names of the units it was asked to run and a count of its reads. */
function counted(store: Store) {
  const units: string[] = [];
  let reads = 0;
  const proxy = new Proxy(store, {
    get(target, property) {
      if (property === 'run') {
        return (unit: { name: string }, ...rest: unknown[]) => {
          units.push(unit.name);
          return (target.run as (...args: unknown[]) => unknown).call(target, unit, ...rest);
        };
      }
      if (property === 'read') {
        return (...args: unknown[]) => {
          reads += 1;
          return (target.read as (...args: unknown[]) => unknown).apply(target, args);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, units, reads: () => reads };
}

describe('the webhook sender on its timer', () => {
  let server: TestServer;
  let receiver: ControlledReceiver;

  it('asks for no write transaction while nothing is due, and claims and sends once something is', async () => {
    server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true', WEBHOOK_POLL_MS: '10' });
    cleanups.push(() => server.close());
    receiver = await startControlledReceiver();
    cleanups.push(() => receiver.close());
    const created = await server.raw('POST', '/webhook-endpoints', {
      body: { url: receiver.url, events: ['payment.completed'] },
    });
    expect(created.status, created.text).toBe(201);

    const seen = counted(server.service.deps.store);
    const deps: Deps = { ...server.service.deps, store: seen.store };
    const metrics = createMetrics({ outboxDepth: async () => 0, processMetrics: false });
    const worker = startWebhookWorker(deps, createLogger({ level: 'silent' }), metrics, {
      autostart: true,
    });
    cleanups.push(() => worker.stop());

    await until(() => seen.reads() >= 5, 'five polls of the idle sender');
    expect(seen.units.filter((name) => name === 'webhooks.claim')).toEqual([]);

    const service = await createService(server);
    const payment = await server.raw('POST', '/payments', {
      headers: { 'idempotency-key': 'idle-polls-1' },
      body: {
        amount: 2500,
        currency: 'XAF',
        customer_msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
        service_id: service,
      },
    });
    expect(payment.status, payment.text).toBe(202);
    await server.settle();

    await until(() => receiver.hits.length === 1, 'the delivery of payment.completed');
    expect(JSON.parse(receiver.hits[0]?.body ?? '{}')).toMatchObject({
      event: 'payment.completed',
      data: { transaction_id: payment.body.data.transaction_id },
    });
    expect(seen.units).toContain('webhooks.claim');
  });
});
