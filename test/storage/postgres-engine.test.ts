import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../../server/http/error-handler.js';
import { convertPlaceholders, postgresConnection } from '../../server/storage/postgres/connection.js';
import { migratePostgres } from '../../server/storage/postgres/migrate.js';
import {
  createPool,
  openPostgresStore,
  type PostgresStore,
  readOnlyTransaction,
  serializableTransaction,
} from '../../server/storage/postgres/store.js';
import { createSecretBox } from '../../server/storage/secret-box.js';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres.js';

let cluster: PostgresCluster;
const pools: pg.Pool[] = [];

/** A pool on a new database of the cluster, migrated unless told otherwise; closed after all. */
async function database({ migrated = true } = {}): Promise<pg.Pool> {
  const pool = createPool(await cluster.createDatabase(), { poolSize: 5 });
  pools.push(pool);
  if (migrated) await migratePostgres(pool);
  return pool;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await cluster?.stop();
});

describe('PostgreSQL migrations', () => {
  it('apply once when two instances start together: the second waits, then finds nothing to do', async () => {
    const url = await cluster.createDatabase();
    const first = createPool(url, { poolSize: 2 });
    const second = createPool(url, { poolSize: 2 });
    pools.push(first, second);

    const runs = await Promise.all([migratePostgres(first), migratePostgres(second)]);

    // The same numbered history as SQLite's: every SQLite migration has its PostgreSQL twin.
    const history = readdirSync(
      fileURLToPath(new URL('../../server/storage/sqlite/migrations/', import.meta.url)),
    )
      .filter((file) => /^\d{3}_.+\.sql$/.test(file))
      .map((file) => Number(file.slice(0, 3)))
      .sort((a, b) => a - b);
    expect(history).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17]);
    expect(runs.map((applied) => applied.length).sort()).toEqual([0, history.length]);
    expect(runs.flat()).toEqual(history);
    const { rows } = await first.query('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(history);
    expect(await migratePostgres(first)).toEqual([]);
  });

  it('give the same tables, columns and indexes as the SQLite migrations', async () => {
    const pool = await database();
    const sqlite = new Database(':memory:');
    const sqliteDir = fileURLToPath(new URL('../../server/storage/sqlite/migrations/', import.meta.url));
    for (const file of readdirSync(sqliteDir).sort()) sqlite.exec(readFileSync(sqliteDir + file, 'utf8'));
    const sqliteTables = sqlite
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((t) => t.name);
    const sqliteColumns = new Map(
      sqliteTables.map((table) => [
        table,
        sqlite
          .prepare<[], { name: string; notnull: number; pk: number }>(`PRAGMA table_info(${table})`)
          .all(),
      ]),
    );
    const sqliteIndexes = sqlite
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all()
      .map((i) => i.name);
    sqlite.close();

    const { rows: columns } = await pool.query<{
      table_name: string;
      column_name: string;
      is_nullable: string;
    }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> 'schema_migrations'`,
    );
    expect([...new Set(columns.map((c) => c.table_name))].sort()).toEqual(sqliteTables);
    for (const [table, expected] of sqliteColumns) {
      const actual = columns.filter((c) => c.table_name === table);
      expect(actual.map((c) => c.column_name).sort(), table).toEqual(expected.map((c) => c.name).sort());
      // SQLite says NOT NULL only where it is written; a PRIMARY KEY column is NOT NULL here anyway.
      const notNull = (c: { name: string; notnull: number; pk: number }) => c.notnull === 1 || c.pk > 0;
      expect(
        actual
          .filter((c) => c.is_nullable === 'NO')
          .map((c) => c.column_name)
          .sort(),
        `${table} NOT NULL columns`,
      ).toEqual(
        expected
          .filter(notNull)
          .map((c) => c.name)
          .sort(),
      );
    }
    const { rows: indexes } = await pool.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'",
    );
    expect(indexes.map((i) => i.indexname).sort()).toEqual(sqliteIndexes);
  });
});

describe('PostgreSQL connection', () => {
  it('rewrites ? and @name to $n, a repeated name to the same $n, and leaves literals and casts alone', () => {
    expect(convertPlaceholders('SELECT * FROM t WHERE a = ? AND b = ?').text).toBe(
      'SELECT * FROM t WHERE a = $1 AND b = $2',
    );
    const named = convertPlaceholders('UPDATE t SET a = @a, b = @b WHERE c = @a::bigint');
    expect(named.text).toBe('UPDATE t SET a = $1, b = $2 WHERE c = $1::bigint');
    expect(named.names).toEqual(['a', 'b']);
    expect(convertPlaceholders(`SELECT '?', 'it''s @x', "@y" FROM t WHERE a = ? -- ? @z`).text).toBe(
      `SELECT '?', 'it''s @x', "@y" FROM t WHERE a = $1 -- ? @z`,
    );
    expect(convertPlaceholders('SELECT now()::text').text).toBe('SELECT now()::text');
    expect(convertPlaceholders('SELECT ?').name).toBe(convertPlaceholders('SELECT ?').name);
  });

  it('binds positional and named values on a real server, undefined as NULL', async () => {
    const pool = await database({ migrated: false });
    const client = await pool.connect();
    try {
      const connection = postgresConnection(client);
      expect(connection.dialect).toBe('postgres');
      const positional = connection.prepare<{ sum: number; q: string }>(
        "SELECT ?::bigint + ?::bigint AS sum, '?' AS q",
      );
      expect(await positional.get(2, 3)).toEqual({ sum: 5, q: '?' });
      expect(await positional.get(4, 5)).toEqual({ sum: 9, q: '?' });
      const named = connection.prepare<{ a: string; twice: number; b: string | null; at: string }>(
        "SELECT @a::text AS a, @n::bigint * 2 + @n::bigint AS twice, @b::text AS b, '@a' AS at",
      );
      expect(await named.get({ a: 'x', n: 7, b: undefined })).toEqual({
        a: 'x',
        twice: 21,
        b: null,
        at: '@a',
      });
      await expect(named.get({ a: 'x', n: 1 })).rejects.toThrow('Missing named parameter "b"');
      const rows = await connection.prepare<{ n: number }>('SELECT generate_series(1, ?::int) AS n').all(3);
      expect(rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(await connection.prepare('SELECT 1 WHERE false').get()).toBeUndefined();
      await client.query('CREATE TEMP TABLE scratch (n int)');
      expect(await connection.prepare('INSERT INTO scratch VALUES (?), (?)').run(1, 2)).toEqual({
        changes: 2,
      });
      expect(await connection.prepare('DELETE FROM scratch').run()).toEqual({ changes: 2 });
    } finally {
      client.release();
    }
  });

  it('returns int8 and numeric (COUNT, SUM, BIGINT columns) as JS numbers', async () => {
    const pool = await database({ migrated: false });
    const client = await pool.connect();
    try {
      const connection = postgresConnection(client);
      const row = await connection
        .prepare<{ big: number; count: number; sum: number }>(
          'SELECT 9007199254740991::bigint AS big, COUNT(*) AS count, SUM(x) AS sum FROM (VALUES (1::bigint), (2::bigint)) v(x)',
        )
        .get();
      expect(row).toEqual({ big: 9007199254740991, count: 2, sum: 3 });
      await expect(connection.prepare('SELECT 9007199254740993::bigint AS n').get()).rejects.toThrow(
        RangeError,
      );
    } finally {
      client.release();
    }
  });
});

describe('PostgreSQL pool', () => {
  it('sets the statement timeout and application name on every connection', async () => {
    const pool = createPool(await cluster.createDatabase(), {
      statementTimeoutMs: 1234,
      applicationName: 'pg-test',
    });
    pools.push(pool);
    const { rows } = await pool.query(
      "SELECT current_setting('statement_timeout') AS timeout, current_setting('application_name') AS name",
    );
    expect(rows[0]).toEqual({ timeout: '1234ms', name: 'pg-test' });
  });
});

describe('PostgreSQL ledger triggers', () => {
  async function wallet(pool: pg.Pool): Promise<string> {
    const id = `acc_${randomBytes(4).toString('hex')}`;
    await pool.query(
      "INSERT INTO accounts (id, name, api_user, default_currency, created_at) VALUES ($1, 'Shop', $1, 'XAF', 1)",
      [id],
    );
    await pool.query("INSERT INTO wallets (id, account_id, mode) VALUES ($1, $2, 'test')", [`wal_${id}`, id]);
    return `wal_${id}`;
  }
  let entries = 0;
  function append(pool: pg.Pool, walletId: string, amount: number, balanceAfter: number) {
    entries += 1;
    return pool.query(
      `INSERT INTO ledger_entries (id, wallet_id, currency, type, amount, balance_after, source_id, description, created_at)
       VALUES ($1, $2, 'XAF', $3, $4, $5, 'src', 'test', 1)`,
      [`le_${entries}`, walletId, amount > 0 ? 'topup' : 'payout', amount, balanceAfter],
    );
  }
  const balance = async (pool: pg.Pool, walletId: string) =>
    (await pool.query('SELECT available FROM balances WHERE wallet_id = $1', [walletId])).rows[0]?.available;

  it('move the balance, creating its row on the first entry', async () => {
    const pool = await database();
    const id = await wallet(pool);
    expect(await balance(pool, id)).toBeUndefined();
    await append(pool, id, 1000, 1000);
    expect(await balance(pool, id)).toBe(1000);
    await append(pool, id, -400, 600);
    expect(await balance(pool, id)).toBe(600);
  });

  it('refuse an entry whose balance_after does not continue the balance', async () => {
    const pool = await database();
    const id = await wallet(pool);
    await append(pool, id, 1000, 1000);
    await expect(append(pool, id, 500, 1400)).rejects.toThrow('ledger entry does not continue the balance');
    expect(await balance(pool, id)).toBe(1000);
  });

  it('refuse going below zero', async () => {
    const pool = await database();
    const id = await wallet(pool);
    await append(pool, id, 300, 300);
    await expect(append(pool, id, -400, -100)).rejects.toMatchObject({ code: '23514' });
    await expect(append(pool, id, -400, 0)).rejects.toThrow('does not continue');
    expect(await balance(pool, id)).toBe(300);
  });

  it('keep the ledger append-only', async () => {
    const pool = await database();
    const id = await wallet(pool);
    await append(pool, id, 300, 300);
    await expect(pool.query('UPDATE ledger_entries SET amount = 1')).rejects.toThrow('append-only');
    await expect(pool.query('DELETE FROM ledger_entries')).rejects.toThrow('append-only');
    await expect(pool.query('TRUNCATE ledger_entries')).rejects.toThrow('append-only');
  });

  it('let concurrent entries on one wallet through one at a time, each continuing the last', async () => {
    const pool = await database();
    const id = await wallet(pool);
    const appendAtTheEnd = () =>
      serializableTransaction(pool, async (client) => {
        const { rows } = await client.query(
          'SELECT COALESCE(MAX(available), 0) AS b FROM balances WHERE wallet_id = $1',
          [id],
        );
        entries += 1;
        await client.query(
          `INSERT INTO ledger_entries (id, wallet_id, currency, type, amount, balance_after, source_id, description, created_at)
           VALUES ($1, $2, 'XAF', 'topup', 10, $3, 'src', 'test', 1)`,
          [`le_${entries}_${randomBytes(4).toString('hex')}`, id, Number(rows[0].b) + 10],
        );
      });
    await Promise.all(Array.from({ length: 5 }, appendAtTheEnd));
    expect(await balance(pool, id)).toBe(50);
  });
});

describe('PostgreSQL transactions', () => {
  it('run again the one that lost a serialization race, so both increments land', async () => {
    const pool = await database({ migrated: false });
    await pool.query('CREATE TABLE counters (id int PRIMARY KEY, value bigint NOT NULL)');
    await pool.query('INSERT INTO counters VALUES (1, 0)');
    let attempts = 0;
    let arrived = 0;
    const bothRead = deferred();
    const increment = () =>
      serializableTransaction(pool, async (client) => {
        attempts += 1;
        const { rows } = await client.query('SELECT value FROM counters WHERE id = 1');
        if (attempts <= 2) {
          // Both first attempts read before either writes: one of them must lose.
          arrived += 1;
          if (arrived === 2) bothRead.resolve();
          await bothRead.promise;
        }
        await client.query('UPDATE counters SET value = $1 WHERE id = 1', [rows[0].value + 1]);
      });

    await Promise.all([increment(), increment()]);

    expect((await pool.query('SELECT value FROM counters')).rows[0].value).toBe(2);
    expect(attempts).toBe(3);
  });

  it('run again one that timed out on a lock, and give a race that is never won up with its error once the budget is spent', async () => {
    const pool = await database({ migrated: false });
    let attempts = 0;
    const lockedOnce = await serializableTransaction(pool, async () => {
      attempts += 1;
      if (attempts === 1) throw Object.assign(new Error('lock timeout'), { code: '55P03' });
      return 'done';
    });
    expect([lockedOnce, attempts]).toEqual(['done', 2]);

    attempts = 0;
    const started = Date.now();
    const neverWon = serializableTransaction(
      pool,
      async () => {
        attempts += 1;
        throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      },
      200,
    );
    const error = await neverWon.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '40001' });
    // A 503 with Retry-After for the API's caller (error-handler.ts).
    expect(databaseUnavailable(error)).toBe(true);
    expect(attempts).toBeGreaterThan(3);
    expect(Date.now() - started).toBeLessThan(200 + 2_000);
  });

  it('rethrow a unique violation as it is, without running the work again', async () => {
    const pool = await database();
    let attempts = 0;
    let thrown: unknown;
    const insertTwice = serializableTransaction(pool, async (client) => {
      attempts += 1;
      const insert =
        "INSERT INTO accounts (id, name, api_user, default_currency, created_at) VALUES ('a', 'A', 'a', 'XAF', 1)";
      await client.query(insert);
      try {
        await client.query(insert);
      } catch (error) {
        thrown = error;
        throw error;
      }
    });
    await expect(insertTwice).rejects.toMatchObject({ code: '23505' });
    await insertTwice.catch((error) => expect(error).toBe(thrown));
    expect(attempts).toBe(1);
    expect((await pool.query('SELECT COUNT(*) AS n FROM accounts')).rows[0].n).toBe(0);
  });

  it('read only committed data, from one snapshot, and refuse to write', async () => {
    const pool = await database({ migrated: false });
    await pool.query('CREATE TABLE notes (id int PRIMARY KEY)');
    const inserted = deferred();
    const release = deferred();
    const writer = serializableTransaction(pool, async (client) => {
      await client.query('INSERT INTO notes VALUES (1)');
      inserted.resolve();
      await release.promise;
    });
    await inserted.promise;
    const count = async (client: pg.PoolClient) =>
      (await client.query('SELECT COUNT(*) AS n FROM notes')).rows[0].n;

    const seen = await readOnlyTransaction(pool, async (client) => {
      const before = await count(client);
      release.resolve();
      await writer;
      return [before, await count(client)];
    });

    expect(seen).toEqual([0, 0]);
    expect(await readOnlyTransaction(pool, count)).toBe(1);
    await expect(
      readOnlyTransaction(pool, (client) => client.query('INSERT INTO notes VALUES (2)')),
    ).rejects.toMatchObject({ code: '25006' });
  });
});

describe('PostgresStore', () => {
  let store: PostgresStore;
  beforeAll(async () => {
    store = await openPostgresStore({
      url: await cluster.createDatabase(),
      box: createSecretBox(randomBytes(32)),
      poolSize: 4,
      statementTimeoutMs: 5_000,
    });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('creates an account through the repositories and reads it back', async () => {
    const account = {
      id: 'acc_pg',
      name: 'Shop',
      api_user: 'user_pg',
      default_currency: 'XAF',
      time_zone: 'Africa/Douala',
      created_at: Date.now(),
    };
    await store.transact((tx) => tx.accounts.insertAccount(account));
    expect(await store.read((tx) => tx.accounts.account('acc_pg'))).toEqual({
      ...account,
      owners_need_two_step: 0,
    });
    await expect(store.transact((tx) => tx.accounts.insertAccount(account))).rejects.toMatchObject({
      code: '23505',
    });
    expect(store.engine).toBe('postgres');
    await store.ping();
  });

  it('refuses to move a second balance that its unit did not lock with the first, before any moved', async () => {
    const now = Date.now();
    const wallets = ['wal_lock_a', 'wal_lock_b'];
    await store.transact(async (tx) => {
      for (const id of wallets) {
        const account = {
          id: `acc_${id}`,
          name: id,
          api_user: `user_${id}`,
          default_currency: 'XAF',
          time_zone: 'Africa/Douala',
          created_at: now,
        };
        await tx.accounts.insertAccount(account);
        await tx.accounts.insertWallet({ id, account_id: account.id, mode: 'test' });
      }
    });
    const entry = (walletId: string, n: number) => ({
      id: `btx_lock_${walletId}_${n}`,
      wallet_id: walletId,
      currency: 'XAF',
      type: 'topup' as const,
      amount: 100,
      balance_after: 100 * n,
      source_id: 'src',
      description: 'test',
      created_at: now,
    });
    const unlocked = store.transact(async (tx) => {
      await tx.ledger.append(entry('wal_lock_a', 1));
      await tx.ledger.append(entry('wal_lock_b', 1));
    });
    await expect(unlocked).rejects.toThrow('moved without its lock');
    const lockedLate = store.transact(async (tx) => {
      await tx.ledger.append(entry('wal_lock_a', 1));
      await tx.ledger.lock(wallets.map((walletId) => ({ walletId, currency: 'XAF' })));
    });
    await expect(lockedLate).rejects.toThrow('lock them all at once, first');
    await store.transact(async (tx) => {
      await tx.ledger.lock([...wallets].reverse().map((walletId) => ({ walletId, currency: 'XAF' })));
      await tx.ledger.append(entry('wal_lock_b', 1));
      await tx.ledger.append(entry('wal_lock_a', 1));
      await tx.ledger.append(entry('wal_lock_a', 2));
    });
    expect(
      await store.read(async (tx) => [
        await tx.ledger.available('wal_lock_a', 'XAF'),
        await tx.ledger.available('wal_lock_b', 'XAF'),
      ]),
    ).toEqual([200, 100]);
  });
});
