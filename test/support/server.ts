/**
 * A real server for tests: its own SQLite file in a temporary folder, a real HTTP listener on a
 * free 127.0.0.1 port, a clock the test moves, and workers run on demand instead of on timers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { PaymentsClient } from '../../client/src/index.js';
import { loadConfig } from '../../server/config.js';
import { createAccount, type NewAccount } from '../../server/domain/accounts.js';
import type { Clock } from '../../server/domain/clock.js';
import { createLogger, type Logger } from '../../server/observability/logger.js';
import { type RunningService, startService } from '../../server/service.js';
import type { ResolveHost } from '../../server/webhooks/url-policy.js';
import { apiClient, type Credentials, type RawOptions, type RawReply, raw } from './api.js';
import { createTestDatabase } from './postgres.js';
import { templateDatabase } from './postgres-global-setup.js';

class ManualClock implements Clock {
  constructor(private current = Date.parse('2026-11-20T09:00:00.000Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** Kept for the branches that still import them from here: the types of `./api.js`. */
export type { Credentials, RawOptions as RequestOptions, RawReply as ApiResponse } from './api.js';

// biome-ignore lint/suspicious/noExplicitAny: see RawReply
type RawRequest = <T = any>(method: string, path: string, options?: RawOptions) => Promise<RawReply<T>>;

export interface TestServer {
  url: string;
  service: RunningService;
  clock: ManualClock;
  dbPath: string;
  /** The variables that point another service at this server's database (either engine). */
  databaseEnv: Record<string, string>;
  /** The account created at start: its API user and both keys. */
  account: NewAccount;
  test: Credentials;
  live: Credentials;
  newAccount(name?: string): Promise<{ account: NewAccount; test: Credentials; live: Credentials }>;
  /** The SDK, typed from the contract, with the test key of `account`: normal calls. */
  api: PaymentsClient;
  /** The SDK with other credentials (another account, the live key). */
  apiAs(as: Credentials, options?: { sandbox?: boolean }): PaymentsClient;
  /**
   * One request exactly as written (`raw` of ./api.js), as the test key unless `as` says
   * otherwise (`null`: no credentials): bad input, unknown routes, headers the SDK never sends.
   */
  raw: RawRequest;
  /** Moves the clock by `ms` and runs one settlement pass. */
  settle(ms?: number): Promise<number>;
  /** Runs one pass of the retention worker; returns how many expired rows it deleted. */
  purgeExpired(): Promise<number>;
  /** Runs one pass of the webhook outbox; returns how many deliveries succeeded. */
  deliverWebhooks(): Promise<number>;
  /** Writes the buffered call logs now. */
  flushLogs(): Promise<void>;
  /** Runs `release` when the server closes, before its service stops: what a helper kept open on it. */
  beforeClose(release: () => Promise<void>): void;
  close(): Promise<void>;
}

function credentials(account: NewAccount) {
  return {
    account,
    test: { apiUser: account.apiUser, key: account.testKey },
    live: { apiUser: account.apiUser, key: account.liveKey },
  };
}

/** The engine the suites run on: SQLite (the default), or PostgreSQL with `TEST_DATABASE=postgres`. */
export const testEngine: 'sqlite' | 'postgres' =
  process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * With `TEST_DATABASE=postgres`, a fresh database copied from the migrated template of the run's
 * cluster (test/support/postgres-global-setup.ts) and the key every instance shares; with
 * SQLite, nothing (the server uses its own file).
 */
export async function testDatabaseEnv(): Promise<Record<string, string>> {
  if (testEngine === 'sqlite') return {};
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (!adminUrl)
    throw new Error('TEST_DATABASE=postgres needs the cluster of test/support/postgres-global-setup.ts');
  return {
    DATABASE_URL: await createTestDatabase(adminUrl, 'test', templateDatabase),
    SECRETS_ENCRYPTION_KEY: testSecretsKey,
  };
}

/** A fixed key-encryption key for test databases on PostgreSQL (test data only). */
const testSecretsKey = 'a'.repeat(64);

/** What every test service runs with, before the test's own settings. */
const testSettings = {
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  SANDBOX_SETTLE_MS: '1000',
  // High enough that no test is limited by accident; rate-limit tests lower it.
  RATE_LIMIT_PER_WINDOW: '1000000',
  // Tests send many wrong keys on purpose; the failed-authentication tests lower it.
  AUTH_FAILURE_LIMIT: '1000000',
};

/**
 * Webhook receivers in tests are on 127.0.0.1: a test that registers one passes
 * `WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true'` (off by default, as in production).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { resolveHost?: ResolveHost; logger?: Logger } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'payments-test-'));
  const dbPath = join(dir, 'payments.db');
  const engineEnv = await testDatabaseEnv();
  const config = loadConfig({ ...engineEnv, ...testSettings, DATABASE_PATH: dbPath, ...env });
  const clock = new ManualClock();
  const service = await startService({
    config,
    logger: options.logger ?? createLogger({ level: 'silent' }),
    clock,
    autostartWorkers: false,
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  });
  const newAccount = async (name = 'Test account') =>
    credentials(await createAccount(service.deps.store, { name }, clock.now()));
  const first = await newAccount();
  const releases: Array<() => Promise<void>> = [];

  const request: RawRequest = (method, path, options = {}) =>
    raw(service.apiUrl, method, path, { ...options, as: options.as === undefined ? first.test : options.as });

  return {
    url: service.apiUrl,
    service,
    clock,
    dbPath,
    databaseEnv: { DATABASE_PATH: dbPath, ...engineEnv },
    account: first.account,
    test: first.test,
    live: first.live,
    newAccount,
    api: apiClient(service.apiUrl, first.test),
    apiAs: (as, options) => apiClient(service.apiUrl, as, options),
    raw: request,
    async settle(ms = 1000) {
      clock.advance(ms);
      return service.settlement.runOnce();
    },
    purgeExpired: () => service.retention.runOnce(),
    deliverWebhooks: () => service.webhooks.runOnce(),
    flushLogs: () => service.callLog.flush(),
    beforeClose: (release) => void releases.push(release),
    async close() {
      await Promise.all(releases.splice(0).map((release) => release()));
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The server of a whole test file: started before its first test (`beforeAll`), closed after
 * its last. Read its fields inside tests and hooks, once it has started.
 *
 * @example
 * ```ts
 * const server = useTestServer();
 * it('answers', async () => expect((await server.api.GET('/balance')).response.status).toBe(200));
 * ```
 */
export function useTestServer(
  env: Record<string, string> = {},
  options: Parameters<typeof startTestServer>[1] = {},
): TestServer {
  const server = {} as TestServer;
  beforeAll(async () => {
    Object.assign(server, await startTestServer(env, options));
  });
  afterAll(() => server.close?.());
  return server;
}

/**
 * Another service on the database of `server`, with its clock and no workers on timers: a
 * restart once `server.service` is closed, a second instance while it runs. `env` is added to
 * the test settings, as `startTestServer`'s is. The caller closes it.
 */
export function startServiceOn(
  server: Pick<TestServer, 'databaseEnv' | 'clock'>,
  env: Record<string, string> = {},
): Promise<RunningService> {
  return startService({
    config: loadConfig({ ...testSettings, ...server.databaseEnv, ...env }),
    logger: createLogger({ level: 'silent' }),
    clock: server.clock,
    autostartWorkers: false,
  });
}

/** Every balance equals the sum of its ledger: the invariant money tests end on. */
export async function reconcile(server: TestServer) {
  return server.service.deps.store.read(async (tx) => tx.ledger.reconcile());
}
