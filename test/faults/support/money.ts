/**
 * What the fault tests check once the dust has settled, read straight from the database (the
 * SQLite file read-only, or a PostgreSQL database through its URL; beside the server if it still
 * runs): every balance equals its ledger and is not negative, every ledger row belongs to a known
 * payment, top-up or payout and says exactly what that transaction's state implies, and every
 * final state was announced by exactly one event.
 *
 * `readMoney` and `watchUnansweredCommits` take a `DatabaseTarget` (test/support/child-server.ts)
 * and work on either engine: PostgreSQL when its `databaseEnv` holds a `DATABASE_URL`, the SQLite
 * file `dbPath` otherwise. `inspectMoney` and `tableCounts` are the synchronous SQLite-file forms
 * the SQLite-only tests (disk errors, two processes on one file) use.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
// Also installs the int8/numeric parsers: PostgreSQL's BIGINT and SUM come back as numbers.
import { convertPlaceholders } from '../../../server/storage/postgres/connection.js';
import type { DatabaseTarget } from '../../support/child-server.js';
import { testDatabaseEnv } from '../../support/server.js';

export type Kind = 'payment' | 'payout' | 'topup';

export interface Movement {
  kind: Kind;
  id: string;
  account_id: string;
  mode: string;
  amount: number;
  currency: string;
  status: string;
  msisdn: string | null;
  reference: string | null;
  payout_type: string | null;
  recipient_wallet_id: string | null;
}

interface LedgerEntry {
  seq: number;
  wallet_id: string;
  currency: string;
  type: string;
  amount: number;
  balance_after: number;
  source_id: string;
}

export interface MoneySnapshot {
  movements: Movement[];
  /** Movements by their `reference` (the tests use the Idempotency-Key as reference). */
  byReference: Map<string, Movement[]>;
  balances: Array<{ wallet_id: string; currency: string; available: number }>;
  /** The test wallet of every account, by account id. */
  wallets: Map<string, string>;
  events: Array<{ id: string; event: string; transaction_id: string; account_id: string }>;
  deliveries: Array<{ id: string; event_id: string; endpoint_id: string; status: string; attempts: number }>;
  /** Everything that breaks an invariant, in words; empty when all hold. */
  problems: string[];
}

export function openReadOnly(dbPath: string): Database.Database {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * A fresh database of the engine under test (`TEST_DATABASE`): the SQLite file `payments.db` in
 * `dir`, or a new PostgreSQL database of the run's cluster (then `dbPath` is unused). Every
 * restart of a fault test's server passes the same target, so it comes back on the same data.
 */
export async function testDatabase(dir: string): Promise<DatabaseTarget> {
  return { dbPath: join(dir, 'payments.db'), databaseEnv: await testDatabaseEnv() };
}

/** The PostgreSQL URL a target names, or undefined for a SQLite file. */
function postgresUrlOf(database: DatabaseTarget): string | undefined {
  return database.databaseEnv?.DATABASE_URL || undefined;
}

/** A short label for reports: which engine and database a test ran on. */
export function describeDatabase(database: DatabaseTarget): string {
  const url = postgresUrlOf(database);
  return url ? `PostgreSQL ${new URL(url).pathname.slice(1)}` : `SQLite ${database.dbPath}`;
}

/**
 * Rows of one statement written with `?` placeholders, on a PostgreSQL client or a SQLite
 * connection: the engine-neutral way for a test to read what the server committed.
 */
async function queryRows<T>(
  db: pg.Client | Database.Database,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (db instanceof pg.Client) return (await db.query(convertPlaceholders(sql).text, params)).rows as T[];
  return db.prepare(sql).all(...params) as T[];
}

/**
 * Runs `read` on a read-only connection to `database` inside one snapshot (SQLite: one read
 * transaction, PostgreSQL: REPEATABLE READ), then closes it.
 */
async function withReadOnly<T>(
  database: DatabaseTarget,
  read: (db: pg.Client | Database.Database) => Promise<T>,
): Promise<T> {
  const url = postgresUrlOf(database);
  if (!url) {
    const db = openReadOnly(database.dbPath);
    try {
      db.exec('BEGIN');
      try {
        return await read(db);
      } finally {
        db.exec('COMMIT');
      }
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      return await read(client);
    } finally {
      await client.query('COMMIT');
    }
  } finally {
    await client.end();
  }
}

/** Everything the checks read, in one snapshot. */
interface MoneyRows {
  movements: Movement[];
  walletRows: Array<{ id: string; account_id: string; mode: string }>;
  balances: MoneySnapshot['balances'];
  sums: Array<{ wallet_id: string; currency: string; total: number }>;
  entries: LedgerEntry[];
  events: MoneySnapshot['events'];
  deliveries: MoneySnapshot['deliveries'];
}

/** The same text on both engines: plain SQL, no placeholders. */
const moneyQueries = {
  payments: `SELECT 'payment' AS kind, id, account_id, mode, amount, currency, status, customer_msisdn AS msisdn,
                reference, NULL AS payout_type, NULL AS recipient_wallet_id FROM payments ORDER BY seq`,
  topups: `SELECT 'topup' AS kind, id, account_id, mode, amount, currency, status, payer_msisdn AS msisdn,
                reference, NULL AS payout_type, NULL AS recipient_wallet_id FROM topups ORDER BY seq`,
  payouts: `SELECT 'payout' AS kind, id, account_id, mode, amount, currency, status, recipient_msisdn AS msisdn,
                reference, payout_type, recipient_wallet_id FROM payouts ORDER BY seq`,
  wallets: 'SELECT id, account_id, mode FROM wallets',
  balances: 'SELECT wallet_id, currency, available FROM balances ORDER BY wallet_id, currency',
  sums: 'SELECT wallet_id, currency, SUM(amount) AS total FROM ledger_entries GROUP BY wallet_id, currency',
  entries:
    'SELECT seq, wallet_id, currency, type, amount, balance_after, source_id FROM ledger_entries ORDER BY seq',
  events: 'SELECT id, event, transaction_id, account_id FROM events ORDER BY seq',
  deliveries: 'SELECT id, event_id, endpoint_id, status, attempts FROM webhook_deliveries ORDER BY seq',
} as const;

async function readRows(db: pg.Client | Database.Database): Promise<MoneyRows> {
  const all = <T>(sql: string) => queryRows<T>(db, sql);
  return {
    movements: [
      ...(await all<Movement>(moneyQueries.payments)),
      ...(await all<Movement>(moneyQueries.topups)),
      ...(await all<Movement>(moneyQueries.payouts)),
    ],
    walletRows: await all(moneyQueries.wallets),
    balances: await all(moneyQueries.balances),
    sums: await all(moneyQueries.sums),
    entries: await all(moneyQueries.entries),
    events: await all(moneyQueries.events),
    deliveries: await all(moneyQueries.deliveries),
  };
}

/** Reads the whole money state of `database` (either engine) in one snapshot and checks it. */
export async function readMoney(database: DatabaseTarget): Promise<MoneySnapshot> {
  return check(await withReadOnly(database, readRows));
}

/** Reads the whole money state of a SQLite file in one snapshot and checks it (synchronous). */
export function inspectMoney(dbPath: string): MoneySnapshot {
  const db = openReadOnly(dbPath);
  try {
    const all = <T>(sql: string) => db.prepare(sql).all() as T[];
    const rows = db.transaction(
      (): MoneyRows => ({
        movements: [
          ...all<Movement>(moneyQueries.payments),
          ...all<Movement>(moneyQueries.topups),
          ...all<Movement>(moneyQueries.payouts),
        ],
        walletRows: all(moneyQueries.wallets),
        balances: all(moneyQueries.balances),
        sums: all(moneyQueries.sums),
        entries: all(moneyQueries.entries),
        events: all(moneyQueries.events),
        deliveries: all(moneyQueries.deliveries),
      }),
    )();
    return check(rows);
  } finally {
    db.close();
  }
}

function check(rows: MoneyRows): MoneySnapshot {
  const problems: string[] = [];
  const { movements } = rows;
  const byId = new Map(movements.map((m) => [m.id, m]));
  const byReference = new Map<string, Movement[]>();
  for (const m of movements) {
    if (m.reference === null) continue;
    byReference.set(m.reference, [...(byReference.get(m.reference) ?? []), m]);
  }

  const { walletRows } = rows;
  const walletOf = new Map(walletRows.map((w) => [`${w.account_id}/${w.mode}`, w.id]));
  const wallets = new Map(walletRows.filter((w) => w.mode === 'test').map((w) => [w.account_id, w.id]));

  // 1. Every balance equals the sum of its ledger, and none is negative.
  const { balances } = rows;
  const sums = new Map(rows.sums.map((r) => [`${r.wallet_id}/${r.currency}`, r.total]));
  for (const b of balances) {
    const total = sums.get(`${b.wallet_id}/${b.currency}`) ?? 0;
    if (b.available !== total) {
      problems.push(`balance ${b.wallet_id} ${b.currency} is ${b.available} but its ledger sums to ${total}`);
    }
    if (b.available < 0) problems.push(`balance ${b.wallet_id} ${b.currency} is negative: ${b.available}`);
    sums.delete(`${b.wallet_id}/${b.currency}`);
  }
  for (const [key, total] of sums) problems.push(`ledger ${key} sums to ${total} but has no balance row`);

  // 2. The ledger is a chain: each row's balance_after continues the one before it.
  const { entries } = rows;
  const running = new Map<string, number>();
  for (const e of entries) {
    const key = `${e.wallet_id}/${e.currency}`;
    const before = running.get(key) ?? 0;
    if (e.balance_after !== before + e.amount) {
      problems.push(
        `ledger row ${e.seq} says balance_after ${e.balance_after}, expected ${before + e.amount}`,
      );
    }
    if (e.balance_after < 0) problems.push(`ledger row ${e.seq} leaves a negative balance`);
    running.set(key, e.balance_after);
  }

  // 3. Every ledger row belongs to a known transaction of the right kind and wallet, and each
  //    transaction has exactly the rows its state implies.
  const entriesBySource = new Map<string, LedgerEntry[]>();
  for (const e of entries) {
    const source = byId.get(e.source_id);
    const expectedKind: Record<string, Kind> = {
      payment: 'payment',
      topup: 'topup',
      payout: 'payout',
      payout_reversal: 'payout',
      transfer_in: 'payout',
    };
    if (!source) {
      problems.push(`ledger row ${e.seq} (${e.type} ${e.amount}) names an unknown source ${e.source_id}`);
      continue;
    }
    if (source.kind !== expectedKind[e.type]) {
      problems.push(`ledger row ${e.seq} of type ${e.type} names a ${source.kind} ${source.id}`);
    }
    entriesBySource.set(e.source_id, [...(entriesBySource.get(e.source_id) ?? []), e]);
  }
  const describe = (rows: LedgerEntry[]) =>
    rows
      .map((r) => `${r.type}:${r.amount}@${r.wallet_id}`)
      .sort()
      .join(',');
  for (const m of movements) {
    const own = walletOf.get(`${m.account_id}/${m.mode}`) ?? '?';
    const expected: Array<Pick<LedgerEntry, 'type' | 'amount' | 'wallet_id'>> = [];
    if (m.kind === 'payment' && m.status === 'success') {
      expected.push({ type: 'payment', amount: m.amount, wallet_id: own });
    }
    if (m.kind === 'topup' && m.status === 'success') {
      expected.push({ type: 'topup', amount: m.amount, wallet_id: own });
    }
    if (m.kind === 'payout') {
      expected.push({ type: 'payout', amount: -m.amount, wallet_id: own });
      if (m.status === 'failed') expected.push({ type: 'payout_reversal', amount: m.amount, wallet_id: own });
      if (m.recipient_wallet_id) {
        expected.push({ type: 'transfer_in', amount: m.amount, wallet_id: m.recipient_wallet_id });
      }
    }
    const actual = entriesBySource.get(m.id) ?? [];
    const want = describe(expected as LedgerEntry[]);
    const got = describe(actual);
    if (want !== got) {
      problems.push(
        `${m.kind} ${m.id} (${m.status}, ${m.amount}) should have ledger [${want}] but has [${got}]`,
      );
    }
  }

  // 4. What each wallet holds is what its transactions funded: nothing else moved money.
  const expectedBalance = new Map<string, number>();
  const add = (wallet: string, currency: string, amount: number) =>
    expectedBalance.set(
      `${wallet}/${currency}`,
      (expectedBalance.get(`${wallet}/${currency}`) ?? 0) + amount,
    );
  for (const m of movements) {
    const own = walletOf.get(`${m.account_id}/${m.mode}`) ?? '?';
    if ((m.kind === 'payment' || m.kind === 'topup') && m.status === 'success')
      add(own, m.currency, m.amount);
    if (m.kind === 'payout' && m.status !== 'failed') {
      add(own, m.currency, -m.amount);
      if (m.recipient_wallet_id) add(m.recipient_wallet_id, m.currency, m.amount);
    }
  }
  for (const b of balances) {
    const want = expectedBalance.get(`${b.wallet_id}/${b.currency}`) ?? 0;
    if (b.available !== want) {
      problems.push(
        `balance ${b.wallet_id} ${b.currency} is ${b.available}; its successful transactions fund ${want}`,
      );
    }
  }

  // 5. Each final state was announced by exactly one event (a refund by its payout.* and its
  //    refund.* event, docs/decisions/0016); a pending one by none.
  const { events } = rows;
  const eventsByTransaction = new Map<string, string[]>();
  for (const e of events) {
    eventsByTransaction.set(e.transaction_id, [
      ...(eventsByTransaction.get(e.transaction_id) ?? []),
      e.event,
    ]);
    if (!byId.has(e.transaction_id))
      problems.push(`event ${e.id} names an unknown transaction ${e.transaction_id}`);
  }
  for (const m of movements) {
    const announced = eventsByTransaction.get(m.id) ?? [];
    const final = m.status !== 'initiated' && m.status !== 'pending';
    const name = m.status === 'success' ? `${m.kind}.completed` : `${m.kind}.${m.status}`;
    const refund = m.kind === 'payout' && m.payout_type === 'refund';
    const want = final ? (refund ? [name, name.replace('payout.', 'refund.')] : [name]) : [];
    if (announced.join(',') !== want.join(',')) {
      problems.push(
        `${m.kind} ${m.id} (${m.status}) has events [${announced.join(',')}], expected [${want}]`,
      );
    }
  }

  const { deliveries } = rows;
  return { movements, byReference, balances, wallets, events, deliveries, problems };
}

/** Row counts of every table: "nothing was committed" is "no count changed". */
export function tableCounts(dbPath: string): Record<string, number> {
  const db = openReadOnly(dbPath);
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as Array<{ name: string }>;
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (db.prepare(`SELECT COUNT(*) AS n FROM "${name}"`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
}

/**
 * Watches the database (either engine) for a movement whose request has not been answered yet.
 * Seen while the server runs, its answer may just be on its way; seen while the server is paused
 * (SIGSTOP) and the answers it had written have been read, it is a request caught between its
 * commit and its answer: the moment to kill the server. A paused server holds whatever
 * transaction it had open, but a reader sees only what was committed, on either engine.
 */
export async function watchUnansweredCommits(
  database: DatabaseTarget,
  answered: (reference: string) => boolean,
) {
  const newestSql = `SELECT reference FROM (SELECT reference FROM payments ORDER BY seq DESC LIMIT 20) AS p
     UNION ALL SELECT reference FROM (SELECT reference FROM payouts ORDER BY seq DESC LIMIT 20) AS o
     UNION ALL SELECT reference FROM (SELECT reference FROM topups ORDER BY seq DESC LIMIT 20) AS t`;
  const url = postgresUrlOf(database);
  let client: pg.Client | undefined;
  let file: Database.Database | undefined;
  if (url) {
    client = new pg.Client({ connectionString: url });
    await client.connect();
  } else {
    file = openReadOnly(database.dbPath);
  }
  const newest = file?.prepare(newestSql);
  const read = async () =>
    (newest ? newest.all() : (await (client as pg.Client).query(newestSql)).rows) as Array<{
      reference: string | null;
    }>;
  const watcher = {
    /**
     * True when the newest movements include one whose request has no answer yet. A server
     * paused in the middle of a commit can leave SQLite's WAL index unreadable for a moment
     * (SQLITE_PROTOCOL, SQLITE_BUSY): that counts as not found.
     */
    async found(): Promise<boolean> {
      try {
        return (await read()).some((r) => r.reference !== null && !answered(r.reference));
      } catch (err) {
        if (/^SQLITE_(PROTOCOL|BUSY)/.test(String((err as { code?: string }).code))) return false;
        throw err;
      }
    },
    /**
     * Pauses the server at random moments until it is caught holding a committed movement it
     * has not answered; leaves it paused then and returns true. After `tries` misses it leaves
     * it running and returns false.
     */
    async pauseBetweenCommitAndAnswer(
      server: { pause(): void; resume(): void },
      tries = 100,
    ): Promise<boolean> {
      for (let i = 0; i < tries; i++) {
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 20)));
        server.pause();
        // Whatever the server had written by now reaches the client and is read meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 25));
        if (await watcher.found()) return true;
        server.resume();
      }
      return false;
    },
    async close(): Promise<void> {
      file?.close();
      await client?.end();
    },
  };
  return watcher;
}
