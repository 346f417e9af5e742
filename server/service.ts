import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { type Clock, systemClock } from './domain/clock.js';
import type { Deps } from './domain/context.js';
import { type CallLog, createCallLog } from './http/call-log.js';
import { answerClientErrors } from './http/client-errors.js';
import { httpServerFor } from './http/http-server.js';
import type { Logger } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import { createSandboxBank } from './operators/bank/sandbox-bank.js';
import { connectLiveOperators } from './operators/live-operator.js';
import type { MobileMoneyOperator } from './operators/operator.js';
import { createSandboxOperator } from './operators/sandbox-operator.js';
import { openStore } from './storage/open-store.js';
import type { Mode } from './storage/rows.js';
import type { ResolveHost } from './webhooks/url-policy.js';
import { startBankBatchWorker } from './workers/bank-batch-worker.js';
import type { WakeableWorker, Worker } from './workers/polling-worker.js';
import { startRetentionWorker } from './workers/retention-worker.js';
import { startSettlementWorker } from './workers/settlement-worker.js';
import { startWebhookWorker } from './workers/webhook-worker.js';

export interface RunningService {
  /** The API's base address, with /v1. */
  apiUrl: string;
  port: number;
  deps: Deps;
  settlement: WakeableWorker;
  /** Gathers waiting bank payouts into pain.001 files (server/domain/bank-batches.ts). */
  bankBatches: Worker;
  /** Deletes expired idempotency records and call logs (server/domain/retention.ts). */
  retention: Worker;
  webhooks: Worker;
  callLog: CallLog;
  /**
   * Asks each configured live operator product for a token and logs whether it is connected;
   * start-up runs it once listening (unless `probeOperators` is off). Never rejects.
   */
  probeOperators(): Promise<void>;
  /** Stops accepting, finishes in-flight requests and background work, checkpoints the WAL. */
  close(): Promise<void>;
}

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  operators?: Partial<Record<Mode, MobileMoneyOperator>>;
  /** Background workers poll on their own; tests turn this off and call `runOnce()`. */
  autostartWorkers?: boolean;
  /**
   * Asks each configured live operator for a token once listening, and logs whether it is
   * connected (default: as `autostartWorkers`).
   */
  probeOperators?: boolean;
  /** How webhook hosts are resolved (tests: a fake resolver; default: the system's). */
  resolveHost?: ResolveHost;
}

/**
 * Opens the database, builds the app and its workers, and listens.
 *
 * @example
 * const service = await startService({ config: loadConfig(process.env), logger });
 * console.log(service.apiUrl);
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  if (!config.database) mkdirSync(dirname(config.databasePath), { recursive: true });
  const store = await openStore(config, { server: { logger } });
  const metrics = createMetrics({
    outboxDepth: () => store.read(async (tx) => tx.deliveries.pendingCount()),
  });
  const live = connectLiveOperators(config, logger, metrics.operatorCalls);
  const deps: Deps = {
    store,
    clock,
    config,
    logger,
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    operators: {
      test: options.operators?.test ?? createSandboxOperator({ settleMs: config.sandboxSettleMs, clock }),
      live: options.operators?.live ?? live.operator,
    },
    banks: { test: createSandboxBank(), live: null },
    operatorHealth: live.health,
  };
  const autostart = options.autostartWorkers ?? true;
  const callLog = createCallLog({ store, clock, logger });
  let settlement: WakeableWorker | undefined;
  let stopping = false;
  // An operator called back: a pass soon, one at most waiting however many call
  // (docs/decisions/0033-operator-callbacks-bounded.md); its failures are logged by the worker.
  const wakeSettlement = () => {
    if (!stopping) settlement?.wake();
  };
  const app = buildApp({ deps, logger, metrics, callLog: callLog.middleware, wakeSettlement });
  settlement = startSettlementWorker(deps, logger, { autostart });
  const retention = startRetentionWorker(deps, logger, { autostart });
  const bankBatches = startBankBatchWorker(deps, logger, { autostart });
  const webhooks = startWebhookWorker(deps, logger, metrics, {
    autostart,
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  });

  const server: Server = await new Promise((resolve, reject) => {
    const listening = httpServerFor(app, config.http);
    listening.once('error', reject);
    listening.listen(config.port, config.host, () => {
      listening.off('error', reject);
      resolve(listening);
    });
  });
  answerClientErrors(server, logger);
  // Listening first: an operator that is slow to answer never delays the start.
  if (options.probeOperators ?? autostart) void live.probe();
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (config.publicUrlFromListener) {
    const linkHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : host;
    deps.config = { ...config, publicUrl: `http://${linkHost}:${port}` };
  }

  let closing: Promise<void> | undefined;
  return {
    apiUrl: `http://${host}:${port}/v1`,
    port,
    deps,
    settlement,
    bankBatches,
    retention,
    webhooks,
    callLog,
    probeOperators: () => live.probe(),
    close() {
      stopping = true;
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // A client that stopped reading a response (a large one stalls on a full socket)
          // would hold the shutdown for ever: after a grace period its connection is cut.
          setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs).unref();
        });
        await Promise.all([
          settlement.stop(),
          bankBatches.stop(),
          retention.stop(),
          webhooks.stop(),
          callLog.stop(),
        ]);
        try {
          await store.checkpoint();
        } catch (err) {
          // A read-only or full disk: the WAL stays beside the file and is replayed on next open.
          logger.warn({ err }, 'could not checkpoint the WAL at shutdown');
        }
        await store.close();
      })();
      return closing;
    },
  };
}
