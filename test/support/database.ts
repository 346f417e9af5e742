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

/** Runs `work` on a connection of its own to the server's database, closed afterwards. */
async function withConnection<T>(
  server: TestServer,
  access: 'read' | 'write',
  work: (connection: SqlConnection) => Promise<T>,
): Promise<T> {
  if (testEngine === 'postgres') {
    const url = server.databaseEnv.DATABASE_URL;
    if (!url) throw new Error('this test server has no DATABASE_URL');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Each statement commits on its own (autocommit): a read sees what the server committed.
      return await work(postgresConnection(client));
    } finally {
      await client.end();
    }
  }
  const db = new Database(server.dbPath, { readonly: access === 'read', fileMustExist: true });
  try {
    return await work(sqliteConnection(db));
  } finally {
    db.close();
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
 * Every row of every table of the server's database but the tables `except` names, by table
 * (each table's rows as sorted JSON lines): what a request that must change nothing is compared
 * on, before and after. Read on one connection, so it costs a few milliseconds.
 *
 * @example
 * const before = await allRows(server, ['call_logs']);
 * // a request that must be refused
 * expect(await allRows(server, ['call_logs'])).toEqual(before);
 */
export function allRows(server: TestServer, except: readonly string[]): Promise<Record<string, string[]>> {
  const tablesSql =
    testEngine === 'postgres'
      ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
      : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";
  return withConnection(server, 'read', async (connection) => {
    const contents: Record<string, string[]> = {};
    for (const { name } of await connection.prepare<{ name: string }>(tablesSql).all()) {
      if (except.includes(name)) continue;
      const rows = await connection.prepare<unknown>(`SELECT * FROM ${name}`).all();
      contents[name] = rows.map((row) => JSON.stringify(row)).sort();
    }
    return contents;
  });
}
