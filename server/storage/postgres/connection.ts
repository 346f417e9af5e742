import { createHash } from 'node:crypto';
import pg from 'pg';
import type { RunResult, SqlConnection, SqlParams, SqlStatement } from '../sql.js';

/**
 * int8 (COUNT, BIGINT columns: money, milliseconds) and numeric (SUM of BIGINT) come back as JS
 * numbers, as SQLite's integers do. Every value this schema holds stays far below 2^53; one that
 * did not would be refused here rather than silently rounded.
 */
function exactNumber(text: string): number {
  const value = Number(text);
  // A numeric with a fraction (an AVG) is a float anyway; an integer must be exact.
  if (Number.isSafeInteger(value) || (text.includes('.') && Number.isFinite(value))) return value;
  throw new RangeError(`a database number does not fit a JS number exactly: ${text}`);
}
pg.types.setTypeParser(pg.types.builtins.INT8, exactNumber);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, exactNumber);

/** One statement text rewritten for PostgreSQL: `$n` placeholders and the names behind them. */
export interface ConvertedSql {
  text: string;
  /** Statement name, the same for the same text on every connection (prepared once on each). */
  name: string;
  /** For `@name` statements, the name bound to `$1`, `$2`...; empty for `?` statements. */
  names: string[];
  /** How many `?` the text held. */
  positional: number;
}

const converted = new Map<string, ConvertedSql>();

/**
 * Rewrites better-sqlite3's placeholders to PostgreSQL's: each `?` becomes the next `$n`, each
 * distinct `@name` gets one `$n` (a name used twice reuses it). String literals, quoted
 * identifiers, comments and `::` casts are copied untouched. Cached per text.
 *
 * @example
 * convertPlaceholders('SELECT * FROM t WHERE a = @a OR b = @a').text;
 * // 'SELECT * FROM t WHERE a = $1 OR b = $1'
 */
export function convertPlaceholders(sql: string): ConvertedSql {
  const cached = converted.get(sql);
  if (cached) return cached;
  const names: string[] = [];
  let positional = 0;
  let text = '';
  let i = 0;
  while (i < sql.length) {
    const char = sql[i] as string;
    const next = sql[i + 1];
    if (char === "'" || char === '"') {
      // A quote inside is written twice, which this loop reads as two adjacent literals.
      const end = sql.indexOf(char, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      text += sql.slice(i, stop);
      i = stop;
    } else if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      text += sql.slice(i, stop);
      i = stop;
    } else if (char === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      text += sql.slice(i, stop);
      i = stop;
    } else if (char === ':' && next === ':') {
      text += '::';
      i += 2;
    } else if (char === '?') {
      positional += 1;
      text += `$${positional}`;
      i += 1;
    } else if (char === '@' && next !== undefined && /[A-Za-z_]/.test(next)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1)) as RegExpExecArray;
      const name = match[0];
      let index = names.indexOf(name);
      if (index === -1) index = names.push(name) - 1;
      text += `$${index + 1}`;
      i += 1 + name.length;
    } else {
      text += char;
      i += 1;
    }
  }
  if (positional > 0 && names.length > 0) {
    throw new SyntaxError(`a statement mixes ? and @name placeholders: ${sql}`);
  }
  const name = `s${createHash('sha256').update(text).digest('hex').slice(0, 20)}`;
  const result: ConvertedSql = { text, name, names, positional };
  converted.set(sql, result);
  return result;
}

/** Turns the caller's arguments into the `$n` values, as better-sqlite3 would bind them. */
function valuesFor(statement: ConvertedSql, params: SqlParams): unknown[] {
  if (statement.names.length === 0) return params.map((value) => value ?? null);
  const named = params[0];
  if (params.length !== 1 || named === null || typeof named !== 'object' || Buffer.isBuffer(named)) {
    throw new TypeError('a statement with @name placeholders takes one object of values');
  }
  const values = named as Record<string, unknown>;
  return statement.names.map((name) => {
    if (!(name in values)) throw new RangeError(`Missing named parameter "${name}"`);
    return values[name] ?? null;
  });
}

/**
 * The PostgreSQL side of the seam (`../sql.ts`) over one client, a pooled connection checked out
 * for a unit of work. `prepare` only rewrites the text (once per text, for the whole process);
 * each statement runs as a named prepared statement, so every pooled connection parses and
 * plans a given text once.
 *
 * @example
 * const client = await pool.connect();
 * const connection = postgresConnection(client);
 * const row = await connection.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM accounts').get();
 */
export function postgresConnection(client: pg.PoolClient | pg.Client): SqlConnection {
  return {
    dialect: 'postgres',
    prepare<Row = unknown>(sql: string): SqlStatement<Row> {
      const statement = convertPlaceholders(sql);
      const query = (params: SqlParams) =>
        client.query<Row & pg.QueryResultRow>({
          text: statement.text,
          name: statement.name,
          values: valuesFor(statement, params),
        });
      return {
        get: async (...params: SqlParams) => (await query(params)).rows[0],
        all: async (...params: SqlParams) => (await query(params)).rows,
        run: async (...params: SqlParams): Promise<RunResult> => ({
          changes: (await query(params)).rowCount ?? 0,
        }),
      };
    },
  };
}
