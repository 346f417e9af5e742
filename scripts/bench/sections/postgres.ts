/**
 * The `postgres` section of `npm run bench` (see docs/benchmarks.md, "PostgreSQL"):
 *
 * 1. Throughput: the `api` section's request mix (requestMix in api.ts) on our server on
 *    PostgreSQL, one instance and two instances on one database (autocannon deals the connections
 *    round-robin over both), in interleaved rounds beside our server on SQLite and bare Express.
 * 2. Cost growth: GET /v1/payments?limit=20 (first page and a deep page) and
 *    GET /v1/payments/{id} on PostgreSQL databases seeded with the plan's small and large row
 *    counts of payments and call logs (seed.ts), side by side.
 *
 * The PostgreSQL server is a throwaway cluster on 127.0.0.1 (test/support/postgres.ts: Debian's
 * initdb and pg_ctl, default settings, fsync on) started and stopped here. Its CPU time (postmaster
 * and every backend) is charged to the PostgreSQL scenarios, so their CPU per request compares with
 * SQLite's, which runs inside the API process; peak RSS counts the API processes only.
 */
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { type PostgresCluster, startPostgresCluster } from '../../../test/support/postgres.js';
import { type Api, cursorAt, type Operation, requestMix, type Scenario } from '../api.js';
import type { Bench } from '../context.js';
import { readTreeCpuMs, type ServerProcess } from '../processes.js';
import { progress, sizeLabel } from '../report.js';
import { countSeeded, createAccount, type PostgresSeeded, seedAccount } from '../seed.js';
import { startApi, startBare } from '../servers.js';

export interface PostgresSummary {
  server: string;
  settings: Record<string, string>;
  growth: Array<{ rows: number; seeded: PostgresSeeded; after: { payments: number; callLogs: number } }>;
  /**
   * pg_stat_database of the throughput databases after their scenarios: rolled-back transactions
   * are mostly SERIALIZABLE conflicts the API retried (decision 0017).
   */
  throughputDatabases: Record<'one' | 'two', TransactionStats>;
  seconds: number;
}

interface TransactionStats {
  commits: number;
  rollbacks: number;
  deadlocks: number;
}

/** What the section's parts share: the cluster, its CPU, and the servers to stop on the way out. */
interface PostgresRun {
  bench: Bench;
  cluster: PostgresCluster;
  databaseCpuMs: () => number;
  /** Servers started and not yet stopped. */
  servers: ServerProcess[];
}

const throughputSection = 'PostgreSQL: throughput';
const growthSection = 'PostgreSQL: cost growth';
export const postgresGrowthCases = ['payments.first', 'payments.deep', 'payments.get'] as const;
/** Our servers here measure requests, not the validator. */
const env = { VALIDATE_RESPONSES: 'false' };

/** Runs the section: starts the cluster, measures, and stops everything it started. */
export async function postgresSection(bench: Bench): Promise<PostgresSummary> {
  const started = performance.now();
  progress('\nPostgreSQL: starting a throwaway cluster on 127.0.0.1');
  const cluster = await startPostgresCluster();
  const servers: ServerProcess[] = [];
  let onExit: (() => void) | undefined;
  try {
    const { version, settings, dataDirectory } = await describeCluster(cluster);
    const postmasterPid = Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
    progress(
      `  ${version.split(' on ')[0]}, shared_buffers ${settings.shared_buffers}, fsync ${settings.fsync}`,
    );
    // Ctrl-C exits from a signal handler without reaching `finally`: the cluster (not our child
    // process: pg_ctl detached it) is stopped at once and its files deleted.
    onExit = () => {
      try {
        process.kill(postmasterPid, 'SIGQUIT');
      } catch {
        // Already gone.
      }
      rmSync(dirname(dataDirectory), { recursive: true, force: true });
    };
    process.on('exit', onExit);
    const run: PostgresRun = { bench, cluster, databaseCpuMs: () => readTreeCpuMs(postmasterPid), servers };
    const throughputDatabases = await measureThroughput(run);
    const growth = await measureGrowth(run);
    return {
      server: version,
      settings,
      growth,
      throughputDatabases,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await cluster.stop();
    if (onExit) process.off('exit', onExit);
  }
}

async function describeCluster(
  cluster: PostgresCluster,
): Promise<{ version: string; settings: Record<string, string>; dataDirectory: string }> {
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  const { rows: info } = await admin
    .query<Record<string, string>>(
      `SELECT version() AS version, current_setting('data_directory') AS data_directory,
         current_setting('shared_buffers') AS shared_buffers, current_setting('max_connections') AS max_connections,
         current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS synchronous_commit`,
    )
    .finally(() => admin.end());
  const { version = '', data_directory: dataDirectory = '', ...settings } = info[0] ?? {};
  return { version, settings, dataDirectory };
}

/** 1. Throughput: SQLite, PostgreSQL with one instance and with two, bare Express. */
async function measureThroughput(run: PostgresRun): Promise<PostgresSummary['throughputDatabases']> {
  const { bench, cluster, servers } = run;
  const bare = (await startBare(bench, 'listen')).post;
  servers.push(bare.server);
  const sqliteDb = { DATABASE_PATH: join(bench.work, 'postgres-reference.db') };
  const sqlite = await startApi(bench, 'api, SQLite', sqliteDb, await createAccount(bench, sqliteDb), env);
  servers.push(sqlite.proc);
  const oneDb = { DATABASE_URL: await cluster.createDatabase() };
  const one = await startApi(bench, 'api, PostgreSQL', oneDb, await createAccount(bench, oneDb), env);
  servers.push(one.proc);
  const twoDb = { DATABASE_URL: await cluster.createDatabase() };
  const twoCredentials = await createAccount(bench, twoDb);
  const pair = await Promise.all(
    ['A', 'B'].map((n) => startApi(bench, `api, PostgreSQL, instance ${n}`, twoDb, twoCredentials, env)),
  );
  servers.push(...pair.map((api) => api.proc));
  const [a, b] = pair as [Api, Api];

  const variants = [
    { key: 'sqlite', label: 'SQLite', api: sqlite, server: sqlite.proc, alsoOrigins: [] as string[] },
    {
      key: 'one',
      label: 'PostgreSQL, 1 instance',
      api: one,
      server: group('api on PostgreSQL (+ database CPU)', [one.proc], run.databaseCpuMs),
      alsoOrigins: [],
    },
    {
      key: 'two',
      label: 'PostgreSQL, 2 instances, one database',
      api: a,
      server: group('2 x api on PostgreSQL (+ database CPU)', [a.proc, b.proc], run.databaseCpuMs),
      alsoOrigins: [b.origin],
    },
  ];
  const byOperation: Record<Operation, Scenario[]> = {
    post: [{ ...bare, key: 'pg.bare.post', section: throughputSection }],
    get: [],
    list: [],
  };
  for (const v of variants) await addVariant(bench, byOperation, v);
  await bench.recorder.interleave(
    'PostgreSQL throughput',
    [...byOperation.post, ...byOperation.get, ...byOperation.list],
    bench.plan.rounds,
    bench.plan.sliceS,
  );
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  return transactionStatsOf(cluster, { one: oneDb.DATABASE_URL, two: twoDb.DATABASE_URL });
}

/** One server's three throughput scenarios, each added to its operation's list. */
async function addVariant(
  bench: Bench,
  byOperation: Record<Operation, Scenario[]>,
  v: { key: string; label: string; api: Api; server: ServerProcess; alsoOrigins: string[] },
): Promise<void> {
  // The payment GET reads was created through instance A; B reads it from the shared database.
  const mix = await requestMix(v.api);
  for (const op of ['post', 'get', 'list'] as const) {
    const request = mix[op];
    const path = `${request.method} ${request.path.replace(/pay_\w+$/, '{id}')}`;
    byOperation[op].push({
      key: `pg.${v.key}.${op}`,
      section: throughputSection,
      label: `${v.label}: ${path}`,
      server: v.server,
      options: {
        title: `${v.label}: ${path}`,
        origin: v.api.origin,
        alsoOrigins: v.alsoOrigins,
        connections: bench.plan.connections,
        request,
      },
    });
  }
}

/** 2. Cost growth: the same reads over a small and a large PostgreSQL database, side by side. */
async function measureGrowth(run: PostgresRun): Promise<PostgresSummary['growth']> {
  const { bench, cluster, servers } = run;
  const sized: Array<{ size: number; url: string; seeded: PostgresSeeded; api: Api; server: ServerProcess }> =
    [];
  for (const size of bench.plan.growthRows) {
    const database = { DATABASE_URL: await cluster.createDatabase() };
    const { credentials, seeded } = await seedAccount(bench, database, size);
    const api = await startApi(bench, `api, PostgreSQL, ${sizeLabel(size)} rows`, database, credentials, env);
    servers.push(api.proc);
    const server = group(
      `api on PostgreSQL, ${sizeLabel(size)} rows (+ database CPU)`,
      [api.proc],
      run.databaseCpuMs,
    );
    sized.push({ size, url: database.DATABASE_URL, seeded, api, server });
  }
  const cases: Record<(typeof postgresGrowthCases)[number], [string, (s: PostgresSeeded) => string]> = {
    'payments.first': ['GET /v1/payments?limit=20', () => '/v1/payments?limit=20'],
    'payments.deep': [
      'GET /v1/payments?limit=20&cursor=<middle>',
      (s) => `/v1/payments?limit=20&cursor=${cursorAt(s.paymentsMidSeq)}`,
    ],
    'payments.get': ['GET /v1/payments/{id} (<middle>)', (s) => `/v1/payments/${s.midPaymentId}`],
  };
  const scenarios: Scenario[] = [];
  for (const c of postgresGrowthCases) {
    const [title, path] = cases[c];
    for (const { size, seeded, api, server } of sized) {
      scenarios.push({
        key: `pg.growth.${c}.${size}`,
        section: growthSection,
        label: `${title} (${sizeLabel(size)} rows)`,
        server,
        options: {
          title: `PostgreSQL ${title} ${sizeLabel(size)}`,
          origin: api.origin,
          connections: bench.plan.connections,
          request: { method: 'GET', path: path(seeded), headers: api.headers },
        },
      });
    }
  }
  const { plan } = bench;
  await bench.recorder.interleave('PostgreSQL cost growth', scenarios, plan.growthRounds, plan.growthSliceS);
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  const growth: PostgresSummary['growth'] = [];
  for (const { size, url, seeded } of sized)
    growth.push({ rows: size, seeded, after: await countSeeded({ DATABASE_URL: url }) });
  return growth;
}

/**
 * Several processes measured as one server (instances sharing a database), with the CPU time of
 * `alsoCpuMs` (the database server) added to theirs. Peak memory is the sum of their peaks (and
 * the median the sum of their medians).
 */
function group(name: string, members: ServerProcess[], alsoCpuMs: () => number): ServerProcess {
  const sum = (f: (m: ServerProcess) => number) => members.reduce((total, m) => total + f(m), 0);
  return {
    name,
    pid: members[0]?.pid ?? 0,
    output: () => members.map((m) => `[${m.name}]\n${m.output()}`).join('\n'),
    resetWindow: () => {
      for (const m of members) m.resetWindow();
    },
    windowPeakKb: () => sum((m) => m.windowPeakKb()),
    windowMedianKb: () => sum((m) => m.windowMedianKb()),
    lifetimePeakKb: () => sum((m) => m.lifetimePeakKb()),
    cpuMs: () => sum((m) => m.cpuMs()) + alsoCpuMs(),
    // Several main threads: no one figure says how long "the" main thread waited.
    cpuWaitMs: () => undefined,
    exited: Promise.race(members.map((m) => m.exited)),
    async stop(graceMs) {
      await Promise.all(members.map((m) => m.stop(graceMs)));
    },
  };
}

/** The throughput databases' transactions, printed and kept in the JSON. */
async function transactionStatsOf(
  cluster: PostgresCluster,
  urls: Record<'one' | 'two', string>,
): Promise<PostgresSummary['throughputDatabases']> {
  const stats = {
    one: await transactionStats(cluster.url('postgres'), urls.one),
    two: await transactionStats(cluster.url('postgres'), urls.two),
  };
  for (const [name, t] of Object.entries(stats)) {
    progress(
      `  database of ${name === 'one' ? '1 instance' : '2 instances'}: ${t.commits} commits, ${t.rollbacks} rollbacks (mostly retried conflicts), ${t.deadlocks} deadlocks`,
    );
  }
  return stats;
}

async function transactionStats(adminUrl: string, url: string): Promise<TransactionStats> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // Statistics reach the view when a backend ends or every second at most: let them land.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const { rows } = await client.query<{ commits: string; rollbacks: string; deadlocks: string }>(
      `SELECT xact_commit AS commits, xact_rollback AS rollbacks, deadlocks FROM pg_stat_database
       WHERE datname = $1`,
      [new URL(url).pathname.slice(1)],
    );
    return {
      commits: Number(rows[0]?.commits),
      rollbacks: Number(rows[0]?.rollbacks),
      deadlocks: Number(rows[0]?.deadlocks),
    };
  } finally {
    await client.end();
  }
}
