import type { Statement } from 'better-sqlite3';
import type { RunResult, SqlConnection, SqlParams, SqlStatement } from '../sql.js';
import type { Db } from './database.js';

/**
 * The SQLite side of the seam: better-sqlite3 runs each statement at once, so its answers are
 * wrapped in promises that are already settled. A repository's call therefore does all its work
 * before it returns, and an awaited one resumes in a microtask, without yielding to the event
 * loop: a unit of work still holds the write lock only as long as its own statements take.
 *
 * Statements are prepared once per SQL text, shared by every repository on this connection.
 *
 * @example
 * const connection = sqliteConnection(openDatabase('./data/payments.db'));
 * const row = await connection.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM accounts').get();
 */
export function sqliteConnection(db: Db): SqlConnection {
  const prepared = new Map<string, Statement<unknown[]>>();
  return {
    dialect: 'sqlite',
    prepare<Row = unknown>(sql: string): SqlStatement<Row> {
      let statement = prepared.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        prepared.set(sql, statement);
      }
      const own = statement;
      return {
        // Plain functions, not `async` ones: a statement that throws rejects its promise the same way.
        get: (...params: SqlParams) => settle(() => own.get(...params) as Row | undefined),
        all: (...params: SqlParams) => settle(() => own.all(...params) as Row[]),
        run: (...params: SqlParams) => settle((): RunResult => ({ changes: own.run(...params).changes })),
      };
    },
  };
}

function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}
