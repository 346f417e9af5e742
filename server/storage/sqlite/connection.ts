import type { Statement } from 'better-sqlite3';
import type { RunResult, SqlConnection, SqlParams, SqlStatement } from '../sql.js';
import type { Db } from './database.js';

/**
 * The SQLite side of the seam: better-sqlite3 runs each statement at once, so its answers are
 * wrapped in promises that are already settled. A repository's call therefore does all its work
 * before it returns, and an awaited one resumes in a microtask, without yielding to the event
 * loop: a unit of work still holds the write lock only as long as its own statements take.
 *
 * Statements are prepared once per SQL text, shared by every repository on this connection,
 * and only when first run: the repositories ask for all of theirs when a store opens (on the
 * event loop's connection and on each thread's), and most are never run by a given process.
 * Preparing them all was a visible part of opening a store (docs/performance.md). An SQL error therefore shows when its statement first runs, as a
 * rejected call, as on PostgreSQL.
 *
 * @example
 * const connection = sqliteConnection(openDatabase('./data/payments.db'));
 * const row = await connection.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM accounts').get();
 */
export function sqliteConnection(db: Db): SqlConnection {
  const prepared = new Map<string, PreparedSql>();
  return {
    dialect: 'sqlite',
    prepare<Row = unknown>(sql: string): SqlStatement<Row> {
      let entry: PreparedSql | undefined;
      const ready = (): PreparedSql => {
        if (entry) return entry;
        entry = prepared.get(sql);
        if (!entry) {
          entry = prepareSql(db, sql);
          prepared.set(sql, entry);
        }
        return entry;
      };
      return {
        // Plain functions, not `async` ones: a statement that throws rejects its promise the same way.
        get: (...params: SqlParams) =>
          settle(() => {
            const { statement, toRow } = ready();
            const values = statement.get(...params) as unknown[] | undefined;
            return (values && toRow(values)) as Row | undefined;
          }),
        all: (...params: SqlParams) =>
          settle(() => {
            const { statement, toRow } = ready();
            return (statement.all(...params) as unknown[][]).map(toRow) as Row[];
          }),
        run: (...params: SqlParams) =>
          settle((): RunResult => {
            const { changes, lastInsertRowid } = ready().statement.run(...params);
            return { changes, lastInsertRowid };
          }),
      };
    },
  };
}

interface PreparedSql {
  statement: Statement<unknown[]>;
  toRow: (values: unknown[]) => unknown;
}

/**
 * Statements that return rows answer arrays (better-sqlite3's raw mode), made into objects by a
 * function compiled for the statement's columns: an object literal of one fixed shape. Building
 * the objects in the driver, a property at a time, took about half of a page's time
 * (docs/performance.md).
 */
function prepareSql(db: Db, sql: string): PreparedSql {
  const statement = db.prepare(unplannedLimits(sql));
  if (!statement.reader) return { statement, toRow: (values) => values };
  statement.raw(true);
  return { statement, toRow: rowBuilder(statement.columns().map((column) => column.name)) };
}

/**
 * `LIMIT ?` and `LIMIT @name` spelled `LIMIT +?` and `LIMIT +@name`: the same limit, which
 * SQLite's planner no longer reads. SQLite plans with a bound LIMIT's value (an estimate of the
 * rows out), and a plan that read a bound value is prepared again whenever that value is bound:
 * such a statement was parsed and planned anew on every run: the webhook sender's query of an
 * endpoint's due deliveries, and every page of a list (docs/performance.md). The planner reads
 * only a bare parameter or a literal, so the unary plus is enough. None of our statements with a
 * bound LIMIT has a plan that depends on the limit: EXPLAIN QUERY PLAN gave each the same plan
 * with `+?` as with literal limits when this was written; a new one deserves the same check.
 */
export function unplannedLimits(sql: string): string {
  return sql.replace(/\b(LIMIT\s+)([?@])/gi, '$1+$2');
}

function rowBuilder(names: string[]): (values: unknown[]) => unknown {
  // Column names come from the schema and our SQL, never from a request; JSON.stringify quotes
  // them anyway. A literal's "__proto__" key would set the prototype: such a name is built slowly.
  if (names.includes('__proto__')) {
    return (values) => Object.fromEntries(names.map((name, i) => [name, values[i]]));
  }
  const fields = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`);
  return new Function('values', `return { ${fields.join(', ')} };`) as (values: unknown[]) => unknown;
}

function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}
