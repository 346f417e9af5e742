/**
 * The one seam between the repositories and a database engine. Repositories are written once,
 * against this interface; `sqlite/connection.ts` (better-sqlite3) and `postgres/connection.ts`
 * (node-postgres) implement it. SQL text uses `?` for positional values or `@name` for named
 * ones (a single object argument), as better-sqlite3 does; the PostgreSQL connection rewrites
 * both to `$n` once per statement text.
 *
 * Where the dialects differ, a repository asks `connection.dialect` and picks its fragment;
 * everything else is the same text on both engines.
 */
type Dialect = 'sqlite' | 'postgres';

/**
 * A value a statement can bind: integers are JS numbers (PostgreSQL int8 is parsed back to one).
 * A `string[]` is for PostgreSQL only (a `text[]` for `= ANY(?)`); SQLite is given JSON text.
 */
export type SqlValue = string | number | bigint | Buffer | null | string[];

/** Positional values, or one object of named values (`@name` in the SQL). */
export type SqlParams = SqlValue[] | [Record<string, unknown>];

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
  /** SQLite only: the rowid of the last row inserted (`seq`). */
  lastInsertRowid?: number | bigint;
}

/** A statement prepared once from its text, run on the connection that prepared it. */
export interface SqlStatement<Row = unknown> {
  get(...params: SqlParams): Promise<Row | undefined>;
  all(...params: SqlParams): Promise<Row[]>;
  run(...params: SqlParams): Promise<RunResult>;
}

export interface SqlConnection {
  readonly dialect: Dialect;
  prepare<Row = unknown>(sql: string): SqlStatement<Row>;
}
