/**
 * The real server as a child process, exactly as `npm start` runs it (the compiled server,
 * `node dist/server/main.js`; dist/ is compiled first when a source is newer), on a SQLite file
 * the test chooses (or any database `databaseEnv` names: a PostgreSQL `DATABASE_URL`) and a free
 * 127.0.0.1 port. For tests that must crash it (`kill()` is SIGKILL), restart it on the same
 * file, or run two of them side by side.
 *
 * Every server is started in its own process group and signals go to the whole group (a
 * `prefix` shell or anything the server starts goes with it). Every group still running when
 * the test process exits is killed, whatever the exit path.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminJson } from './admin.js';
import { type RawReply, raw } from './api.js';
import { exitedWithOutput } from './process-exit.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** What `npm start` runs once dist/ is current. */
export const compiledServerEntry = join(repoRoot, 'dist', 'server', 'main.js');

/**
 * Compiles dist/ when a source is newer than it (`scripts/build.mjs --if-stale`), once per run:
 * vitest's global setup does it before any worker starts (test/support/build-global-setup.ts),
 * so two workers never compile at once, and the workers it forks inherit the mark; a process
 * without it (the contract suite) checks once itself.
 */
export function ensureCompiledServer(): void {
  if (process.env.TEST_DIST_CURRENT === '1') return;
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: repoRoot, stdio: 'inherit' });
  process.env.TEST_DIST_CURRENT = '1';
}

/**
 * Settings that keep fault tests short: fast sandbox settlement, polling a little more often than
 * in production, short settlement claims, quick webhook retries and leases (`WEBHOOK_TIMEOUT_MS`
 * 2 s gives a 5 s lease), and no rate limit.
 */
const fastServerEnv: Record<string, string> = {
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'info',
  SANDBOX_SETTLE_MS: '200',
  // Settlement claims a due row for 10 operator timeouts before asking (server/domain/settlement.ts):
  // a server killed between a claim and its settlement leaves the row to its restart after 10 s,
  // not the default 150 s. The sandbox operator answers at once, so nothing else depends on it.
  OPERATOR_TIMEOUT_MS: '1000',
  // Each worker asks the database for due work at every poll, busy or idle: polled four times as
  // often, the pairs of instances on PostgreSQL spent much of the fault tests' CPU on empty polls
  // (docs/benchmarks.md, "Test suite time"). Still under production's, so every wait stays short.
  SETTLEMENT_POLL_MS: '200',
  WEBHOOK_POLL_MS: '200',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_TIMEOUT_MS: '2000',
  RATE_LIMIT_PER_WINDOW: '1000000',
  AUTH_FAILURE_LIMIT: '1000000',
};

/**
 * The database a child server or the admin CLI works on: the SQLite file `dbPath`, unless
 * `databaseEnv` names another one (`{ DATABASE_URL, SECRETS_ENCRYPTION_KEY }` for PostgreSQL;
 * `testDatabaseEnv()` of test/support/server.ts gives the one of the engine under test).
 */
export interface DatabaseTarget {
  dbPath: string;
  /** Merged into the child's environment after `DATABASE_PATH`, so it wins; empty for SQLite. */
  databaseEnv?: Record<string, string>;
}

export interface ChildServerOptions extends DatabaseTarget {
  /** Added to (and overriding) `fastServerEnv`. */
  env?: Record<string, string>;
  /** Runs the server under this user (only root can ask): makes file permissions bite. */
  user?: { uid: number; gid: number };
  /** A command put before `node dist/server/main.js`, e.g. `['/bin/sh', '-c', 'ulimit -f 64 && exec "$0" "$@"']`. */
  prefix?: string[];
  /** A name for error messages. */
  name?: string;
  /** Arguments after `dist/server/main.js`, as `npm start -- <args>` passes them (`--env-file <file>`). */
  args?: string[];
  startTimeoutMs?: number;
}

export interface ChildServer {
  name: string;
  /** `http://127.0.0.1:<port>/v1` */
  url: string;
  port: number;
  /** The pid of the node process that runs the server, from its log. */
  pid: number;
  dbPath: string;
  /** What `databaseEnv` the server was started with (empty: the SQLite file `dbPath`). */
  databaseEnv: Record<string, string>;
  /** Everything printed so far, stdout and stderr (the last 8 MB). */
  output(): string;
  /** The JSON log lines (pino) printed so far. */
  logLines(): Array<Record<string, unknown>>;
  /** Log lines at level error or fatal (labels or pino numbers): what to quote when a test fails. */
  errorLines(): Array<Record<string, unknown>>;
  /** True until the server process has died. */
  alive(): boolean;
  /** SIGKILL to the whole group; resolves once the server process is dead. */
  kill(): Promise<void>;
  /** SIGSTOP to the whole group: the server stops mid-whatever, holding its state. */
  pause(): void;
  /** SIGCONT: a paused server carries on. */
  resume(): void;
  /** SIGTERM (graceful shutdown), then SIGKILL after `graceMs`; resolves once dead. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves with the exit of the process started (the prefix's, if any). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Thrown when the server exits (or does not listen in time) instead of starting. */
export class ChildServerStartError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly output: string,
  ) {
    super(message);
    this.name = 'ChildServerStartError';
  }
}

const outputLimit = 8_000_000;
const groups = new Set<ChildProcess>();
let cleanupInstalled = false;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  const killAll = () => {
    for (const child of groups) signalGroup(child, 'SIGKILL');
  };
  process.on('exit', killAll);
  // A signal's default action ends the process without its 'exit' handlers: a test process
  // stopped by `npm test` (another stage failed) or by vitest left its servers running, each
  // in a process group of its own, polling their databases.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(128 + constants.signals[signal]);
    });
  }
}

/**
 * Dead means gone, or a zombie whose threads have all ended: either way its file descriptors and
 * locks are released. The main thread of a process killed with SIGKILL is a zombie at once, but
 * another of its threads may still be ending a system call (the SQLite writer thread's write or
 * fsync on a busy disk), holding the file's locks and writing to it meanwhile: the process is
 * not dead before /proc lists none of its threads but the zombie.
 */
function processDead(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state !== 'Z' && state !== 'X') return false;
    return readdirSync(`/proc/${pid}/task`).length <= 1;
  } catch {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
}

async function waitDead(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (pids.every(processDead)) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return pids.every(processDead);
}

/** Starts `node dist/server/main.js` on `dbPath` (or `databaseEnv`); resolves once it logs `listening`. */
export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  installCleanup();
  ensureCompiledServer();
  const name = options.name ?? 'server';
  const databaseEnv = options.databaseEnv ?? {};
  const env = {
    ...process.env,
    ...fastServerEnv,
    ...(options.env ?? {}),
    DATABASE_PATH: options.dbPath,
    ...databaseEnv,
  };
  const [command, ...args] = [...(options.prefix ?? []), process.execPath, compiledServerEntry];
  const child = spawn(command, [...args, ...(options.args ?? [])], {
    cwd: repoRoot,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
  });
  groups.add(child);

  let output = '';
  let pending = '';
  const lines: Array<Record<string, unknown>> = [];
  let onLine: ((line: Record<string, unknown>) => void) | undefined;
  const take = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output += text;
    if (output.length > outputLimit) output = output.slice(-outputLimit);
    pending += text;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.startsWith('{')) {
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          lines.push(parsed);
          onLine?.(parsed);
        } catch {
          // Not a log line.
        }
      }
      newline = pending.indexOf('\n');
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);

  let exitedFlag = false;
  child.once('exit', () => {
    exitedFlag = true;
    groups.delete(child);
  });
  const exited = exitedWithOutput(child);

  const timeoutMs = options.startTimeoutMs ?? 30_000;
  let listening: { url: string; pid: number };
  try {
    listening = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new ChildServerStartError(`${name} did not listen within ${timeoutMs} ms`, null, output)),
        timeoutMs,
      );
      onLine = (line) => {
        if (line.msg === 'listening' && typeof line.url === 'string' && typeof line.pid === 'number') {
          clearTimeout(timer);
          resolve({ url: line.url, pid: line.pid });
        }
      };
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(
          new ChildServerStartError(
            `${name} exited (code ${code}, signal ${signal}) before listening:\n${output.slice(-4000)}`,
            code,
            output,
          ),
        );
      });
    });
  } catch (err) {
    signalGroup(child, 'SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    throw err;
  } finally {
    onLine = undefined;
  }

  const serverPid = listening.pid;
  const dead = async (timeoutMs: number) => {
    const pids = [serverPid, ...(child.pid === undefined ? [] : [child.pid])];
    return waitDead(pids, timeoutMs);
  };
  const port = Number(new URL(listening.url).port);

  return {
    name,
    url: listening.url,
    port,
    pid: serverPid,
    dbPath: options.dbPath,
    databaseEnv,
    output: () => output,
    logLines: () => lines,
    errorLines: () =>
      lines.filter((l) =>
        typeof l.level === 'number' ? l.level >= 50 : l.level === 'error' || l.level === 'fatal',
      ),
    alive: () => !processDead(serverPid),
    exited,
    async kill() {
      signalGroup(child, 'SIGKILL');
      if (!(await dead(10_000))) throw new Error(`${name} (pid ${serverPid}) survived SIGKILL`);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    },
    pause: () => signalGroup(child, 'SIGSTOP'),
    resume: () => signalGroup(child, 'SIGCONT'),
    async stop(graceMs = 5000) {
      if (exitedFlag && processDead(serverPid)) return;
      signalGroup(child, 'SIGTERM');
      signalGroup(child, 'SIGCONT'); // a paused server must run to shut down
      if (!(await dead(graceMs))) {
        signalGroup(child, 'SIGKILL');
        await dead(10_000);
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    },
  };
}

export interface CliAccount {
  apiUser: string;
  testKey: string;
  liveKey: string;
}

/**
 * `npm run admin -- create-account --json` against `database`: a SQLite file's path, or a
 * `DatabaseTarget` whose `databaseEnv` may name another database.
 */
export async function createAccountWithCli(
  database: string | DatabaseTarget,
  name = 'Fault test account',
): Promise<CliAccount> {
  const target: DatabaseTarget = typeof database === 'string' ? { dbPath: database } : database;
  const created = await adminJson<Record<string, string>>(['create-account', '--name', name], {
    DATABASE_PATH: target.dbPath,
    ...(target.databaseEnv ?? {}),
  });
  return {
    apiUser: created.api_user as string,
    testKey: created.test_key as string,
    liveKey: created.live_key as string,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: see RawReply
export type CallResult<T = any> = RawReply<T>;

export interface CallOptions {
  body?: unknown;
  idempotencyKey?: string;
  /** Aborts the request after this long (default 15 s): a test never waits forever. */
  timeoutMs?: number;
}

/**
 * One API call with the account's test key, through the test client's `raw` (./api.js).
 * Network failures (the server was killed) reject; every HTTP answer resolves, whatever its
 * status.
 */
// biome-ignore lint/suspicious/noExplicitAny: see RawReply
export function callApi<T = any>(
  baseUrl: string,
  account: Pick<CliAccount, 'apiUser' | 'testKey'>,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<RawReply<T>> {
  return raw<T>(baseUrl, method, path, {
    as: { apiUser: account.apiUser, key: account.testKey },
    body: options.body,
    ...(options.idempotencyKey === undefined
      ? {}
      : { headers: { 'idempotency-key': options.idempotencyKey } }),
    timeoutMs: options.timeoutMs ?? 15_000,
  });
}
