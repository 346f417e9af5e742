/**
 * The `postgres` section of `npm run bench` (see docs/benchmarks.md, "PostgreSQL"):
 *
 * 1. Throughput: the `api` section's request mix (requestMix in api.ts) on our server on
 *    PostgreSQL, one instance and two instances on one database (autocannon deals the connections
 *    round-robin over both), in interleaved rounds beside our server on SQLite and bare Express.
 * 2. Cost growth: GET /v1/payments?limit=20 (first page and a deep page) and
 *    GET /v1/payments/{id} on PostgreSQL databases seeded with 10k and 1M payments and call logs,
 *    side by side.
 *
 * The PostgreSQL server is a throwaway cluster on 127.0.0.1 (test/support/postgres.ts: Debian's
 * initdb and pg_ctl, default settings, fsync on) started and stopped here. Its CPU time (postmaster
 * and every backend) is charged to the PostgreSQL scenarios, so their CPU per request compares with
 * SQLite's, which runs inside the API process; peak RSS counts the API processes only.
 */
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { startPostgresCluster } from '../../test/support/postgres.js';
import {
  type Api,
  type Credentials,
  cursorAt,
  type Database,
  type Operation,
  operations,
  requestMix,
  type Scenario,
} from './api.js';
import { readTreeCpuMs, type ServerProcess } from './processes.js';
import { sizeLabel } from './report.js';

/** What the section needs from run.ts (its plan, and how it starts and measures servers). */
export interface PostgresBench {
  plan: {
    connections: number;
    rounds: number;
    sliceS: number;
    growthRows: readonly number[];
    growthRounds: number;
    growthSliceS: number;
  };
  /** A file for the SQLite server measured beside PostgreSQL. */
  sqlitePath: string;
  progress(text: string): void;
  interleave(title: string, scenarios: Scenario[], rounds: number, sliceS: number): Promise<void>;
  createAccount(database: Database): Promise<Credentials>;
  startApi(
    name: string,
    database: Database,
    credentials: Credentials,
    env: Record<string, string>,
  ): Promise<Api>;
  startBare(): Promise<Record<Operation, Omit<Scenario, 'key' | 'section'>>>;
}

export interface PostgresSeeded {
  accountId: string;
  serviceId: string;
  payments: number;
  callLogs: number;
  paymentsMidSeq: number;
  callLogsMidSeq: number;
  /** The payment at `paymentsMidSeq`: the one GET /v1/payments/{id} reads. */
  midPaymentId: string;
  /** INSERT ... SELECT of both tables, in one transaction. */
  insertSeconds: number;
  /** VACUUM (ANALYZE) of both tables, then CHECKPOINT: nothing left for autovacuum mid-measurement. */
  vacuumSeconds: number;
  seconds: number;
}

export interface PostgresSummary {
  server: string;
  settings: Record<string, string>;
  growth: Array<{ rows: number; seeded: PostgresSeeded; after: { payments: number; callLogs: number } }>;
  /**
   * pg_stat_database of the throughput databases after their scenarios: rolled-back transactions
   * are mostly SERIALIZABLE conflicts the API retried (decision 0017).
   */
  throughputDatabases: Record<'one' | 'two', { commits: number; rollbacks: number; deadlocks: number }>;
  seconds: number;
}

const throughputSection = 'PostgreSQL: throughput';
const growthSection = 'PostgreSQL: cost growth';
const growthCases = ['payments.first', 'payments.deep', 'payments.get'] as const;

/**
 * A server id in SQL (server/domain/ids.ts: a prefix and 24 base62 characters): 18 random bytes in
 * base64, with `+` and `/` mapped into the alphabet (a slight bias no benchmark can see).
 */
const sqlId = (prefix: string) =>
  `'${prefix}_' || translate(encode(substring(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()) from 1 for 18), 'base64'), '+/', 'xZ')`;

/**
 * Fills a PostgreSQL database with `rows` payments and `rows` call logs of one account, the same
 * rows scripts/bench/seed.ts writes into SQLite (same distributions of amount, status, method,
 * number and times; one service; settled payments only; times within the last ten days), each
 * table with one `INSERT ... SELECT ... FROM generate_series` in one transaction, foreign keys
 * checked. The account, its keys and wallets come from the admin CLI, as for SQLite.
 */
export async function seedPostgres(url: string, apiUser: string, rows: number): Promise<PostgresSeeded> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const account = (
      await client.query<{ id: string }>('SELECT id FROM accounts WHERE api_user = $1', [apiUser])
    ).rows[0];
    if (!account) throw new Error(`no account with API user ${apiUser} in ${url}`);
    const key = (
      await client.query<{ id: string }>(
        "SELECT id FROM api_keys WHERE account_id = $1 AND mode = 'test' ORDER BY seq LIMIT 1",
        [account.id],
      )
    ).rows[0];
    if (!key) throw new Error(`account ${account.id} has no test key`);
    const now = Date.now();
    const first = now - 10 * 86_400_000;
    const step = Math.max(1, Math.floor((now - 60_000 - first) / rows));

    await client.query('BEGIN');
    // The secondary indexes of both tables are dropped and built again after the rows are in
    // (from their own definitions, so the schema ends as the migrations left it): one sorted
    // build instead of a million scattered inserts each. Unique and primary keys stay.
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename IN ('payments', 'call_logs')
         AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
    );
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
    const service = await client.query<{ id: string }>(
      `INSERT INTO services (id, account_id, mode, name, description, type, status, created_at, updated_at)
       VALUES (${sqlId('svc')}, $1, 'test', 'Bench seed', NULL, 'website', 'active', $2, $2) RETURNING id`,
      [account.id, first],
    );
    const serviceId = service.rows[0]?.id as string;
    // Rows come out of generate_series in order, so `seq` follows `created_at` as it does when
    // the API writes them.
    await client.query(
      `INSERT INTO payments (id, account_id, mode, amount, currency, status, flow, payment_method, customer_msisdn,
         service_id, reference, failure_code, refunded_amount, checkout_token, operator_ref, next_check_at,
         expires_at, created_at, updated_at, completed_at)
       SELECT ${sqlId('pay')}, $1, 'test', 100 + i % 9900, 'XAF', r.status, 'direct',
         CASE WHEN i % 3 = 0 THEN 'orange_money' ELSE 'mtn_momo' END,
         '2376' || lpad((70000000 + i % 9999999)::text, 8, '0'),
         $2, 'order-' || i, CASE WHEN r.status = 'failed' THEN 'payer_declined' END, 0, NULL,
         gen_random_uuid()::text, NULL, r.t + 300000, r.t, r.t + 3000, r.t + 3000
       FROM generate_series(0::bigint, $3::bigint - 1) AS i,
         LATERAL (SELECT $4::bigint + i * $5::bigint AS t,
           CASE WHEN i % 50 < 45 THEN 'success' WHEN i % 50 < 49 THEN 'failed' ELSE 'expired' END AS status) AS r`,
      [account.id, serviceId, rows, first, step],
    );
    await client.query(
      `INSERT INTO call_logs (id, account_id, mode, request_id, method, path, status, duration_ms, key_id,
         error_code, created_at)
       SELECT ${sqlId('log')}, $1, 'test', ${sqlId('req')},
         CASE WHEN k.r < 60 OR (k.r >= 95 AND k.r < 99) THEN 'POST' ELSE 'GET' END,
         CASE WHEN k.r < 99 THEN '/v1/payments' ELSE '/v1/balance' END,
         CASE WHEN k.r < 60 THEN 202 WHEN k.r < 95 THEN 200 WHEN k.r < 99 THEN 400 ELSE 401 END,
         1 + (i % 97) / 10.0, $2,
         CASE WHEN k.r < 95 THEN NULL WHEN k.r < 99 THEN 'invalid_msisdn' ELSE 'invalid_api_key' END,
         $3::bigint + i * $4::bigint
       FROM generate_series(0::bigint, $5::bigint - 1) AS i, LATERAL (SELECT i % 100 AS r) AS k`,
      [account.id, key.id, first, step, rows],
    );
    for (const index of indexes) await client.query(index.definition);
    await client.query('COMMIT');
    const inserted = performance.now();
    await client.query('VACUUM (ANALYZE) payments, call_logs');
    await client.query('CHECKPOINT');
    const vacuumed = performance.now();

    const midSeq = async (table: 'payments' | 'call_logs') => {
      const { rows: found } = await client.query<{ lo: string; hi: string }>(
        `SELECT MIN(seq) AS lo, MAX(seq) AS hi FROM ${table} WHERE account_id = $1 AND mode = 'test'`,
        [account.id],
      );
      return Math.floor((Number(found[0]?.lo) + Number(found[0]?.hi)) / 2);
    };
    const paymentsMidSeq = await midSeq('payments');
    const mid = await client.query<{ id: string }>('SELECT id FROM payments WHERE seq = $1', [
      paymentsMidSeq,
    ]);
    return {
      accountId: account.id,
      serviceId,
      payments: rows,
      callLogs: rows,
      paymentsMidSeq,
      callLogsMidSeq: await midSeq('call_logs'),
      midPaymentId: mid.rows[0]?.id as string,
      insertSeconds: (inserted - started) / 1000,
      vacuumSeconds: (vacuumed - inserted) / 1000,
      seconds: (vacuumed - started) / 1000,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
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

async function countRows(url: string): Promise<{ payments: number; callLogs: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ payments: string; call_logs: string }>(
      'SELECT (SELECT COUNT(*) FROM payments) AS payments, (SELECT COUNT(*) FROM call_logs) AS call_logs',
    );
    return { payments: Number(rows[0]?.payments), callLogs: Number(rows[0]?.call_logs) };
  } finally {
    await client.end();
  }
}

async function transactionStats(
  adminUrl: string,
  url: string,
): Promise<{ commits: number; rollbacks: number; deadlocks: number }> {
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

/** Runs the section: starts the cluster, measures, and stops everything it started. */
export async function runPostgresSection(bench: PostgresBench): Promise<PostgresSummary> {
  const { plan, progress } = bench;
  const started = performance.now();
  progress('\nPostgreSQL: starting a throwaway cluster on 127.0.0.1');
  const cluster = await startPostgresCluster();
  const servers: ServerProcess[] = [];
  let onExit: (() => void) | undefined;
  try {
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
    const databaseCpuMs = () => readTreeCpuMs(postmasterPid);
    const env = { VALIDATE_RESPONSES: 'false' };

    // 1. Throughput: SQLite, PostgreSQL with one instance and with two, bare Express.
    const bare = (await bench.startBare()).post;
    servers.push(bare.server);
    const sqliteDb = { DATABASE_PATH: bench.sqlitePath };
    const sqlite = await bench.startApi('api, SQLite', sqliteDb, await bench.createAccount(sqliteDb), env);
    servers.push(sqlite.proc);
    const oneDb = { DATABASE_URL: await cluster.createDatabase() };
    const one = await bench.startApi('api, PostgreSQL', oneDb, await bench.createAccount(oneDb), env);
    servers.push(one.proc);
    const twoDb = { DATABASE_URL: await cluster.createDatabase() };
    const twoCredentials = await bench.createAccount(twoDb);
    const pair = await Promise.all(
      ['A', 'B'].map((n) => bench.startApi(`api, PostgreSQL, instance ${n}`, twoDb, twoCredentials, env)),
    );
    servers.push(...pair.map((api) => api.proc));
    const [a, b] = pair as [Api, Api];

    const variants = [
      { key: 'sqlite', label: 'SQLite', api: sqlite, server: sqlite.proc, alsoOrigins: [] as string[] },
      {
        key: 'one',
        label: 'PostgreSQL, 1 instance',
        api: one,
        server: group('api on PostgreSQL (+ database CPU)', [one.proc], databaseCpuMs),
        alsoOrigins: [],
      },
      {
        key: 'two',
        label: 'PostgreSQL, 2 instances, one database',
        api: a,
        server: group('2 x api on PostgreSQL (+ database CPU)', [a.proc, b.proc], databaseCpuMs),
        alsoOrigins: [b.origin],
      },
    ];
    const byOperation: Record<Operation, Scenario[]> = {
      post: [{ ...bare, key: 'pg.bare.post', section: throughputSection }],
      get: [],
      list: [],
    };
    for (const v of variants) {
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
            connections: plan.connections,
            request,
          },
        });
      }
    }
    await bench.interleave(
      'PostgreSQL throughput',
      [...byOperation.post, ...byOperation.get, ...byOperation.list],
      plan.rounds,
      plan.sliceS,
    );
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    const throughputDatabases = {
      one: await transactionStats(cluster.url('postgres'), oneDb.DATABASE_URL),
      two: await transactionStats(cluster.url('postgres'), twoDb.DATABASE_URL),
    };
    for (const [name, t] of Object.entries(throughputDatabases)) {
      progress(
        `  database of ${name === 'one' ? '1 instance' : '2 instances'}: ${t.commits} commits, ${t.rollbacks} rollbacks (mostly retried conflicts), ${t.deadlocks} deadlocks`,
      );
    }

    // 2. Cost growth: the same reads over a small and a large PostgreSQL database, side by side.
    const sized: Array<{
      size: number;
      url: string;
      seeded: PostgresSeeded;
      api: Api;
      server: ServerProcess;
    }> = [];
    for (const size of plan.growthRows) {
      const database = { DATABASE_URL: await cluster.createDatabase() };
      const credentials = await bench.createAccount(database);
      progress(`\nSeeding ${size} payments and ${size} call logs into PostgreSQL`);
      const seeded = await seedPostgres(database.DATABASE_URL, credentials.api_user, size);
      progress(
        `  done in ${seeded.seconds.toFixed(1)} s (INSERT ... SELECT ${seeded.insertSeconds.toFixed(1)} s, VACUUM ANALYZE and CHECKPOINT ${seeded.vacuumSeconds.toFixed(1)} s)`,
      );
      const api = await bench.startApi(
        `api, PostgreSQL, ${sizeLabel(size)} rows`,
        database,
        credentials,
        env,
      );
      servers.push(api.proc);
      const server = group(
        `api on PostgreSQL, ${sizeLabel(size)} rows (+ database CPU)`,
        [api.proc],
        databaseCpuMs,
      );
      sized.push({ size, url: database.DATABASE_URL, seeded, api, server });
    }
    const cases: Record<(typeof growthCases)[number], [string, (s: PostgresSeeded) => string]> = {
      'payments.first': ['GET /v1/payments?limit=20', () => '/v1/payments?limit=20'],
      'payments.deep': [
        'GET /v1/payments?limit=20&cursor=<middle>',
        (s) => `/v1/payments?limit=20&cursor=${cursorAt(s.paymentsMidSeq)}`,
      ],
      'payments.get': ['GET /v1/payments/{id} (<middle>)', (s) => `/v1/payments/${s.midPaymentId}`],
    };
    const growthScenarios: Scenario[] = [];
    for (const c of growthCases) {
      const [title, path] = cases[c];
      for (const { size, seeded, api, server } of sized) {
        growthScenarios.push({
          key: `pg.growth.${c}.${size}`,
          section: growthSection,
          label: `${title} (${sizeLabel(size)} rows)`,
          server,
          options: {
            title: `PostgreSQL ${title} ${sizeLabel(size)}`,
            origin: api.origin,
            connections: plan.connections,
            request: { method: 'GET', path: path(seeded), headers: api.headers },
          },
        });
      }
    }
    await bench.interleave('PostgreSQL cost growth', growthScenarios, plan.growthRounds, plan.growthSliceS);
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    const growth: PostgresSummary['growth'] = [];
    for (const { size, url, seeded } of sized)
      growth.push({ rows: size, seeded, after: await countRows(url) });
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

type RatioSpec = [
  key: string,
  label: string,
  a: string,
  b: string,
  metric: 'rps' | 'p50' | 'cpuMsPerRequest',
];

/** The section's ratios, for run.ts's `ratio` (skipped when a row is missing). */
export function postgresRatios(growthRows: readonly number[]): RatioSpec[] {
  const specs: RatioSpec[] = [];
  for (const op of ['post', 'get', 'list'] as const) {
    const name = operations[op];
    specs.push(
      [
        `pg_one_${op}_vs_sqlite`,
        `${name}: PostgreSQL 1 instance / SQLite (req/s)`,
        `pg.one.${op}`,
        `pg.sqlite.${op}`,
        'rps',
      ],
      [
        `pg_two_${op}_vs_sqlite`,
        `${name}: PostgreSQL 2 instances / SQLite (req/s)`,
        `pg.two.${op}`,
        `pg.sqlite.${op}`,
        'rps',
      ],
      [
        `pg_two_${op}_vs_one`,
        `${name}: PostgreSQL 2 instances / 1 instance (req/s)`,
        `pg.two.${op}`,
        `pg.one.${op}`,
        'rps',
      ],
      [
        `pg_one_${op}_vs_sqlite_cpu`,
        `${name}: PostgreSQL 1 instance / SQLite (CPU per request, API + database)`,
        `pg.one.${op}`,
        `pg.sqlite.${op}`,
        'cpuMsPerRequest',
      ],
    );
  }
  specs.push(
    [
      'pg_sqlite_post_vs_bare',
      'POST /payments: SQLite / bare Express (req/s)',
      'pg.sqlite.post',
      'pg.bare.post',
      'rps',
    ],
    [
      'pg_one_post_vs_bare',
      'POST /payments: PostgreSQL 1 instance / bare Express (req/s)',
      'pg.one.post',
      'pg.bare.post',
      'rps',
    ],
    [
      'pg_two_post_vs_bare',
      'POST /payments: PostgreSQL 2 instances / bare Express (req/s)',
      'pg.two.post',
      'pg.bare.post',
      'rps',
    ],
  );
  const small = growthRows[0];
  const large = growthRows[growthRows.length - 1];
  if (small !== undefined && large !== undefined && large !== small) {
    for (const c of growthCases) {
      specs.push([
        `pg_growth_${c}_p50`,
        `PostgreSQL ${c.replace('.', ' ')}: ${sizeLabel(large)} / ${sizeLabel(small)} rows (p50 latency)`,
        `pg.growth.${c}.${large}`,
        `pg.growth.${c}.${small}`,
        'p50',
      ]);
    }
  }
  return specs;
}
