/**
 * Reading (and, for tests that plant old-format rows, writing) a test server's database from
 * outside the server, as any other client of it would: on SQLite a connection of its own on the
 * server's file, on PostgreSQL a client of its own on the server's database. Statements are
 * written once with better-sqlite3's placeholders (`?` or `@name`) and run on either engine
 * through the server's own seam (`server/storage/sql.ts`), so values come back the same way
 * (BIGINT and COUNT(*) as numbers).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { postgresConnection } from '../../server/storage/postgres/connection.js';
import type { SqlConnection, SqlParams } from '../../server/storage/sql.js';
import { sqliteConnection } from '../../server/storage/sqlite/connection.js';
import { type TestServer, testEngine } from './server.js';

interface OutsideConnection {
  connection: SqlConnection;
  close(): Promise<void>;
}

/** A connection of its own to the server's database (read-only on SQLite when `access` is 'read'). */
async function openConnection(server: TestServer, access: 'read' | 'write'): Promise<OutsideConnection> {
  if (testEngine === 'postgres') {
    const url = server.databaseEnv.DATABASE_URL;
    if (!url) throw new Error('this test server has no DATABASE_URL');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // Each statement commits on its own (autocommit): a read sees what the server committed.
    return { connection: postgresConnection(client), close: () => client.end() };
  }
  const db = new Database(server.dbPath, { readonly: access === 'read', fileMustExist: true });
  return { connection: sqliteConnection(db), close: async () => void db.close() };
}

/** Runs `work` on a connection of its own to the server's database, closed afterwards. */
async function withConnection<T>(
  server: TestServer,
  access: 'read' | 'write',
  work: (connection: SqlConnection) => Promise<T>,
): Promise<T> {
  const { connection, close } = await openConnection(server, access);
  try {
    return await work(connection);
  } finally {
    await close();
  }
}

/**
 * The rows `sql` selects from the server's database (read-only on SQLite): only what the server
 * committed is seen.
 *
 * @example
 * const [row] = await queryRows<{ n: number }>(server, 'SELECT COUNT(*) AS n FROM events WHERE mode = ?', 'test');
 */
export function queryRows<T>(server: TestServer, sql: string, ...params: SqlParams): Promise<T[]> {
  return withConnection(server, 'read', (connection) => connection.prepare<T>(sql).all(...params));
}

/**
 * Runs one writing statement on the server's database and returns how many rows it changed:
 * for tests that plant what an older version, or someone with write access, left there.
 *
 * @example
 * await runSql(server, 'UPDATE webhook_endpoints SET secret = ? WHERE id = ?', secret, id);
 */
export function runSql(server: TestServer, sql: string, ...params: SqlParams): Promise<number> {
  return withConnection(
    server,
    'write',
    async (connection) => (await connection.prepare(sql).run(...params)).changes,
  );
}

/**
 * The read-only connection and table names `allRows` reads through, one per server: a file that
 * compares the database before and after each of hundreds of requests (bad-input.test.ts) would
 * otherwise open a connection and list the tables twice per request, which took half that file's
 * time on PostgreSQL. Opened on first use; closed just before the server closes.
 */
const snapshotReaders = new WeakMap<TestServer, Promise<{ connection: SqlConnection; tables: string[] }>>();

function snapshotReaderOf(server: TestServer) {
  const kept = snapshotReaders.get(server);
  if (kept) return kept;
  const tablesSql =
    testEngine === 'postgres'
      ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
      : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";
  const opened = openConnection(server, 'read');
  const reader = opened.then(async ({ connection }) => ({
    connection,
    tables: (await connection.prepare<{ name: string }>(tablesSql).all()).map((table) => table.name),
  }));
  snapshotReaders.set(server, reader);
  server.beforeClose(async () => {
    snapshotReaders.delete(server);
    // A reader that never opened has nothing to close.
    await opened.then(
      (outside) => outside.close(),
      () => undefined,
    );
  });
  return reader;
}

/**
 * Every row of every table of the server's database but the tables `except` names, by table
 * (each table's rows as sorted JSON lines): what a request that must change nothing is compared
 * on, before and after. Each table is read by a statement of its own, which sees what the server
 * had committed when it ran.
 *
 * @example
 * const before = await allRows(server, ['call_logs']);
 * // a request that must be refused
 * expect(await allRows(server, ['call_logs'])).toEqual(before);
 */
export async function allRows(
  server: TestServer,
  except: readonly string[],
): Promise<Record<string, string[]>> {
  const { connection, tables } = await snapshotReaderOf(server);
  const contents: Record<string, string[]> = {};
  for (const name of tables) {
    if (except.includes(name)) continue;
    const rows = await connection.prepare<unknown>(`SELECT * FROM ${name}`).all();
    contents[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return contents;
}
