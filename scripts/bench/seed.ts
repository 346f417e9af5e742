/**
 * Every account and row the bench sections put in a database before measuring: the account (its
 * keys and wallets) from the admin CLI, then, for the cost-growth sections, one service and
 * `rows` payments and `rows` call logs of that account, written straight into the database while
 * no server runs (docs/benchmarks.md, "Cost growth" and "PostgreSQL").
 *
 * The rows are one recipe for both databases (`paymentStatuses`, `callMix`, `seedWindow` and the
 * per-row expressions beside each other below): real ids, one service, settled payments only (so
 * the settlement worker has nothing to pick up) and times within the last ten days (so the
 * call-log retention purge deletes nothing). No ledger rows are written: the lists measured do
 * not read them. SQLite is filled from JavaScript, one transaction per 50,000 rows; PostgreSQL in
 * SQL, one `INSERT ... SELECT ... FROM generate_series` per table, as each is fastest.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { newId } from '../../server/domain/ids.js';
import type { Credentials, Database as ServerDatabase } from './api.js';
import type { Bench } from './context.js';
import { runCommand } from './processes.js';
import { progress } from './report.js';

/** A new account on `database`, created by the admin CLI (which also migrates the database). */
export async function createAccount(bench: Bench, database: ServerDatabase): Promise<Credentials> {
  const out = await runCommand(
    join(bench.root, 'node_modules/.bin/tsx'),
    ['server/admin/cli.ts', 'create-account', '--name', 'bench', '--json'],
    // The same key as the servers': with DATABASE_URL it is required, and seals the secrets.
    { ...database, SECRETS_ENCRYPTION_KEY: bench.apiEnv.SECRETS_ENCRYPTION_KEY },
    bench.root,
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Credentials;
}

export interface Seeded {
  accountId: string;
  serviceId: string;
  payments: number;
  callLogs: number;
  /** The `seq` half-way through the account's payments: a deep page starts below it. */
  paymentsMidSeq: number;
  callLogsMidSeq: number;
  seconds: number;
}

export interface PostgresSeeded extends Seeded {
  /** The payment at `paymentsMidSeq`: the one GET /v1/payments/{id} reads. */
  midPaymentId: string;
  /** INSERT ... SELECT of both tables, in one transaction. */
  insertSeconds: number;
  /** VACUUM (ANALYZE) of both tables, then CHECKPOINT: nothing left for autovacuum mid-measurement. */
  vacuumSeconds: number;
}

/**
 * A new account on `database` with `rows` payments and `rows` call logs (SQLite: `{ DATABASE_PATH }`;
 * PostgreSQL: `{ DATABASE_URL }`, which also reports its insert and vacuum times).
 */
export async function seedAccount(
  bench: Bench,
  database: { DATABASE_PATH: string },
  rows: number,
): Promise<{ credentials: Credentials; seeded: Seeded }>;
export async function seedAccount(
  bench: Bench,
  database: { DATABASE_URL: string },
  rows: number,
): Promise<{ credentials: Credentials; seeded: PostgresSeeded }>;
export async function seedAccount(
  bench: Bench,
  database: ServerDatabase,
  rows: number,
): Promise<{ credentials: Credentials; seeded: Seeded }> {
  const credentials = await createAccount(bench, database);
  if ('DATABASE_PATH' in database) {
    progress(`\nSeeding ${rows} payments and ${rows} call logs`);
    const seeded = seedSqlite(database.DATABASE_PATH, credentials.api_user, rows);
    progress(`  done in ${seeded.seconds.toFixed(1)} s`);
    return { credentials, seeded };
  }
  progress(`\nSeeding ${rows} payments and ${rows} call logs into PostgreSQL`);
  const seeded = await seedPostgres(database.DATABASE_URL, credentials.api_user, rows);
  progress(
    `  done in ${seeded.seconds.toFixed(1)} s (INSERT ... SELECT ${seeded.insertSeconds.toFixed(1)} s, VACUUM ANALYZE and CHECKPOINT ${seeded.vacuumSeconds.toFixed(1)} s)`,
  );
  return { credentials, seeded };
}

/** The payments and call logs in `database` (a server may be running beside the reader). */
export async function countSeeded(database: ServerDatabase): Promise<{ payments: number; callLogs: number }> {
  if ('DATABASE_PATH' in database) {
    return {
      payments: countSqliteRows(database.DATABASE_PATH, 'payments'),
      callLogs: countSqliteRows(database.DATABASE_PATH, 'call_logs'),
    };
  }
  const client = new pg.Client({ connectionString: database.DATABASE_URL });
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

// The recipe, shared by both databases.

/** Of every 50 payments (by row number), these statuses below each bound: all settled. */
const paymentStatuses = [
  { below: 45, value: 'success' },
  { below: 49, value: 'failed' },
  { below: 50, value: 'expired' },
] as const;

/** Of every 100 call logs (by row number), these calls below each bound. */
const callMix = [
  { below: 60, method: 'POST', path: '/v1/payments', status: 202, errorCode: null },
  { below: 95, method: 'GET', path: '/v1/payments', status: 200, errorCode: null },
  { below: 99, method: 'POST', path: '/v1/payments', status: 400, errorCode: 'invalid_msisdn' },
  { below: 100, method: 'GET', path: '/v1/balance', status: 401, errorCode: 'invalid_api_key' },
] as const;

/** The first row's time and the step between rows: `rows` rows over the last ten days. */
function seedWindow(rows: number): { first: number; step: number } {
  const now = Date.now();
  const first = now - 10 * 86_400_000;
  return { first, step: Math.max(1, Math.floor((now - 60_000 - first) / rows)) };
}

/** The entry of a `below`-bounded table that row `i` falls in (`i` modulo the last bound). */
function pick<T extends { below: number }>(table: readonly T[], i: number): T {
  const roll = i % (table[table.length - 1] as T).below;
  return table.find((entry) => roll < entry.below) as T;
}

/** The same choice in SQL: `CASE WHEN <roll> < 45 THEN 'success' ... ELSE 'expired' END`. */
function sqlCase<T extends { below: number }>(
  roll: string,
  table: readonly T[],
  value: (entry: T) => string | number | null,
): string {
  const literal = (entry: T) => {
    const v = value(entry);
    return v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v}'`;
  };
  const whens = table.slice(0, -1).map((entry) => `WHEN ${roll} < ${entry.below} THEN ${literal(entry)}`);
  return `CASE ${whens.join(' ')} ELSE ${literal(table[table.length - 1] as T)} END`;
}

// SQLite.

const sqliteBatch = 50_000;

/** Fills the SQLite file at `path` (no server running), one transaction per 50,000 rows. */
function seedSqlite(path: string, apiUser: string, rows: number): Seeded {
  const started = performance.now();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -262144');
  try {
    const account = db.prepare('SELECT id FROM accounts WHERE api_user = ?').get(apiUser) as
      | { id: string }
      | undefined;
    if (!account) throw new Error(`no account with API user ${apiUser} in ${path}`);
    const key = db
      .prepare("SELECT id FROM api_keys WHERE account_id = ? AND mode = 'test' ORDER BY seq LIMIT 1")
      .get(account.id) as { id: string };
    const window = seedWindow(rows);
    const serviceId = newId('svc');
    db.prepare(
      `INSERT INTO services (id, account_id, mode, name, description, type, status, created_at, updated_at)
       VALUES (?, ?, 'test', 'Bench seed', NULL, 'website', 'active', ?, ?)`,
    ).run(serviceId, account.id, window.first, window.first);
    const { paymentsBatch, logsBatch } = sqliteBatches(db, account.id, key.id, serviceId, window);
    for (let from = 0; from < rows; from += sqliteBatch) {
      paymentsBatch.immediate(from, Math.min(rows, from + sqliteBatch));
      logsBatch.immediate(from, Math.min(rows, from + sqliteBatch));
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    const midSeq = (table: string) => {
      const { lo, hi } = db
        .prepare(`SELECT MIN(seq) AS lo, MAX(seq) AS hi FROM ${table} WHERE account_id = ? AND mode = 'test'`)
        .get(account.id) as { lo: number; hi: number };
      return Math.floor((lo + hi) / 2);
    };
    return {
      accountId: account.id,
      serviceId,
      payments: rows,
      callLogs: rows,
      paymentsMidSeq: midSeq('payments'),
      callLogsMidSeq: midSeq('call_logs'),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    db.close();
  }
}

/** Two transactions, each writing rows `from` to `to` of its table (the columns of 001_initial.sql). */
function sqliteBatches(
  db: Database.Database,
  accountId: string,
  keyId: string,
  serviceId: string,
  { first, step }: { first: number; step: number },
) {
  const insertPayment = db.prepare(
    `INSERT INTO payments (id, account_id, mode, amount, currency, status, flow, payment_method, customer_msisdn,
       service_id, reference, failure_code, refunded_amount, checkout_token, operator_ref, next_check_at,
       expires_at, created_at, updated_at, completed_at)
     VALUES (?, ?, 'test', ?, 'XAF', ?, 'direct', ?, ?, ?, ?, ?, 0, NULL, ?, NULL, ?, ?, ?, ?)`,
  );
  const insertLog = db.prepare(
    `INSERT INTO call_logs (id, account_id, mode, request_id, method, path, status, duration_ms, key_id,
       error_code, created_at)
     VALUES (?, ?, 'test', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const paymentsBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const createdAt = first + i * step;
      const status = pick(paymentStatuses, i).value;
      insertPayment.run(
        newId('pay'),
        accountId,
        100 + (i % 9_900),
        status,
        i % 3 === 0 ? 'orange_money' : 'mtn_momo',
        `2376${String(70_000_000 + (i % 9_999_999)).padStart(8, '0')}`,
        serviceId,
        `order-${i}`,
        status === 'failed' ? 'payer_declined' : null,
        randomUUID(),
        createdAt + 300_000,
        createdAt,
        createdAt + 3_000,
        createdAt + 3_000,
      );
    }
  });
  const logsBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const call = pick(callMix, i);
      insertLog.run(
        newId('log'),
        accountId,
        newId('req'),
        call.method,
        call.path,
        call.status,
        1 + (i % 97) / 10,
        keyId,
        call.errorCode,
        first + i * step,
      );
    }
  });
  return { paymentsBatch, logsBatch };
}

/** Rows in a SQLite table (the server may be running: WAL lets a reader in beside it). */
function countSqliteRows(path: string, table: 'payments' | 'call_logs'): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

// PostgreSQL.

/**
 * A server id in SQL (server/domain/ids.ts: a prefix and 24 base62 characters): 18 random bytes in
 * base64, with `+` and `/` mapped into the alphabet (a slight bias no benchmark can see).
 */
const sqlId = (prefix: string) =>
  `'${prefix}_' || translate(encode(substring(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()) from 1 for 18), 'base64'), '+/', 'xZ')`;

/**
 * Fills the PostgreSQL database at `url`: each table with one `INSERT ... SELECT ... FROM
 * generate_series` in one transaction, foreign keys checked, then VACUUM (ANALYZE) and CHECKPOINT.
 */
async function seedPostgres(url: string, apiUser: string, rows: number): Promise<PostgresSeeded> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { accountId, keyId } = await postgresAccount(client, url, apiUser);
    const window = seedWindow(rows);
    await client.query('BEGIN');
    const serviceId = await insertPostgresRows(client, accountId, keyId, rows, window);
    await client.query('COMMIT');
    const inserted = performance.now();
    await client.query('VACUUM (ANALYZE) payments, call_logs');
    await client.query('CHECKPOINT');
    const vacuumed = performance.now();

    const midSeq = async (table: 'payments' | 'call_logs') => {
      const { rows: found } = await client.query<{ lo: string; hi: string }>(
        `SELECT MIN(seq) AS lo, MAX(seq) AS hi FROM ${table} WHERE account_id = $1 AND mode = 'test'`,
        [accountId],
      );
      return Math.floor((Number(found[0]?.lo) + Number(found[0]?.hi)) / 2);
    };
    const paymentsMidSeq = await midSeq('payments');
    const mid = await client.query<{ id: string }>('SELECT id FROM payments WHERE seq = $1', [
      paymentsMidSeq,
    ]);
    return {
      accountId,
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

async function postgresAccount(
  client: pg.Client,
  url: string,
  apiUser: string,
): Promise<{ accountId: string; keyId: string }> {
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
  return { accountId: account.id, keyId: key.id };
}

/** The service and both tables' rows, inside the caller's transaction; answers the service's id. */
async function insertPostgresRows(
  client: pg.Client,
  accountId: string,
  keyId: string,
  rows: number,
  { first, step }: { first: number; step: number },
): Promise<string> {
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
    [accountId, first],
  );
  const serviceId = service.rows[0]?.id as string;
  // Rows come out of generate_series in order, so `seq` follows `created_at` as it does when
  // the API writes them. The expressions are those of `sqliteBatches`.
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
         ${sqlCase('i % 50', paymentStatuses, (s) => s.value)} AS status) AS r`,
    [accountId, serviceId, rows, first, step],
  );
  await client.query(
    `INSERT INTO call_logs (id, account_id, mode, request_id, method, path, status, duration_ms, key_id,
       error_code, created_at)
     SELECT ${sqlId('log')}, $1, 'test', ${sqlId('req')},
       ${sqlCase('k.r', callMix, (c) => c.method)},
       ${sqlCase('k.r', callMix, (c) => c.path)},
       ${sqlCase('k.r', callMix, (c) => c.status)},
       1 + (i % 97) / 10.0, $2,
       ${sqlCase('k.r', callMix, (c) => c.errorCode)},
       $3::bigint + i * $4::bigint
     FROM generate_series(0::bigint, $5::bigint - 1) AS i, LATERAL (SELECT i % 100 AS r) AS k`,
    [accountId, keyId, first, step, rows],
  );
  for (const index of indexes) await client.query(index.definition);
  return serviceId;
}
