/**
 * The `webhooks` section: a backlog of deliveries drained, then a steady stream, on a running
 * server; then, for information, a backlog of settlements after a restart (docs/benchmarks.md,
 * "Webhooks"). The receiver and the statistics are in ../webhooks.ts.
 */
import { join } from 'node:path';
import { type Api, type Credentials, call, paymentBody, waitUntilSettled } from '../api.js';
import type { Bench } from '../context.js';
import { runPaced } from '../paced.js';
import { ms, progress, round } from '../report.js';
import { createAccount } from '../seed.js';
import { startApi } from '../servers.js';
import {
  createPayments,
  type DeliveryStats,
  deliveryStats,
  type Receiver,
  startReceiver,
} from '../webhooks.js';

export interface WebhookResult {
  /** A backlog of deliveries on a running server, drained once its receiver answers again. */
  burst: DeliveryStats & { peakRssMb: number; cpuMsPerDelivery: number };
  steady: DeliveryStats & { rate: number };
  /** Information: a backlog of settlements, settled and delivered by a server just restarted. */
  restart: DeliveryStats;
}

const webhookEnv = {
  SANDBOX_SETTLE_MS: '0',
  WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
  SETTLEMENT_POLL_MS: '10',
  WEBHOOK_POLL_MS: '10',
  // The stalled receiver holds its first deliveries while the backlog builds: they must
  // not time out (a timed-out delivery is sent again, and would count twice).
  WEBHOOK_TIMEOUT_MS: '60000',
};

/** What the phases share: the running server, its account, the receiver and the payment sent. */
interface WebhookRun {
  bench: Bench;
  api: Api;
  database: { DATABASE_PATH: string };
  credentials: Credentials;
  receiver: Receiver;
  body: string;
}

export async function webhooksSection(bench: Bench): Promise<WebhookResult> {
  progress(`\nWebhooks: ${bench.plan.webhookEvents} events delivered to a local receiver`);
  const receiver = await startReceiver();
  const database = { DATABASE_PATH: join(bench.work, 'webhooks.db') };
  const credentials = await createAccount(bench, database);
  const api = await startApi(bench, 'api, webhooks', database, credentials, webhookEnv);
  const service = await call<{ service_id: string }>(api, 'POST', '/services', {
    name: 'Bench shop',
    type: 'website',
  });
  await call(api, 'POST', '/webhook-endpoints', { url: receiver.url, events: ['payment.completed'] });
  const run: WebhookRun = {
    bench,
    api,
    database,
    credentials,
    receiver,
    body: paymentBody(service.service_id),
  };
  const burst = await drainBacklog(run);
  const steady = await steadyStream(run);
  await api.proc.stop();
  const restart = await afterRestart(run);
  await receiver.close();
  return { burst, steady, restart };
}

/** The backlog of deliveries (judged): the receiver stalls while payments settle, then answers. */
async function drainBacklog({ bench, api, receiver, body }: WebhookRun): Promise<WebhookResult['burst']> {
  const events = bench.plan.webhookEvents;
  // Warm-up, as every throughput scenario has: the server has settled and delivered before.
  await createPayments(api.apiUrl, api.headers, body, events, 16, 'bench-wh-warm');
  await receiver.waitFor(events, 180_000);
  // The receiver stalls: it holds the deliveries in flight (the endpoint's concurrency) and
  // the rest wait in the outbox while the payments are made and settle...
  receiver.clear();
  receiver.hold();
  await createPayments(api.apiUrl, api.headers, body, events, 16, 'bench-wh-backlog');
  await waitUntilSettled(api, 60_000);
  progress(`  receiver stalled: ${receiver.heldCount()} deliveries held, the rest waiting in the outbox`);
  // ...then answers again, and the backlog drains.
  api.proc.resetWindow();
  const cpuBefore = api.proc.cpuMs();
  receiver.release();
  await receiver.waitFor(events, 180_000);
  const burst = {
    ...deliveryStats(receiver.receipts, receiver.duplicates()),
    peakRssMb: round(api.proc.windowPeakKb() / 1024, 1),
    cpuMsPerDelivery: round((api.proc.cpuMs() - cpuBefore) / events),
  };
  progress(
    `  backlog of ${burst.events} deliveries: ${Math.round(burst.deliveriesPerSecond)} deliveries/s, ${burst.cpuMsPerDelivery} ms of server CPU each`,
  );
  return burst;
}

/** A steady stream of payments, settled and delivered as they come. */
async function steadyStream({ bench, api, receiver, body }: WebhookRun): Promise<WebhookResult['steady']> {
  const { plan } = bench;
  receiver.clear();
  const paced = await runPaced({
    title: 'POST /payments (webhooks, steady)',
    origin: api.origin,
    request: { method: 'POST', path: '/v1/payments', headers: api.headers, body, uniqueIdempotencyKey: true },
    rate: plan.steadyRate,
    durationS: plan.steadyDurationS,
  });
  await receiver.waitFor(paced.ok, 60_000);
  const steady = { ...deliveryStats(receiver.receipts, receiver.duplicates()), rate: plan.steadyRate };
  progress(
    `  steady ${plan.steadyRate} payments/s: ${steady.events} events, delay p50 ${ms(steady.delayMs.p50)} ms p99 ${ms(steady.delayMs.p99)} ms max ${ms(steady.delayMs.max)} ms`,
  );
  return steady;
}

/**
 * Information: payments made while both workers sleep (their first pass is a minute away), then
 * a restart with fast workers: a cold server settles them all and delivers.
 */
async function afterRestart({
  bench,
  database,
  credentials,
  receiver,
  body,
}: WebhookRun): Promise<DeliveryStats> {
  const events = bench.plan.webhookEvents;
  receiver.clear();
  let api = await startApi(bench, 'api, webhooks (workers asleep)', database, credentials, {
    ...webhookEnv,
    SETTLEMENT_POLL_MS: '60000',
    WEBHOOK_POLL_MS: '60000',
  });
  await createPayments(api.apiUrl, api.headers, body, events, 16, 'bench-wh-restart');
  await api.proc.stop();
  api = await startApi(bench, 'api, webhooks (restarted)', database, credentials, webhookEnv);
  await receiver.waitFor(events, 180_000);
  const restart = deliveryStats(receiver.receipts, receiver.duplicates());
  progress(
    `  after a restart, ${restart.events} settlements at once: ${Math.round(restart.settlementsPerSecond)} settlements/s, ${Math.round(restart.deliveriesPerSecond)} deliveries/s`,
  );
  await api.proc.stop();
  return restart;
}
