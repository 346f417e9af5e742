import type { SqlConnection, SqlStatement } from './sql.js';
import { crossesThreads } from './thread-errors.js';

/** A page of a list, newest first, as every list operation answers it. */
export interface Page<T> {
  items: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

/** A condition with its `?` values; the SQL comes from code, never from the request. */
export type Condition = [sql: string, ...values: Array<string | number>];

/**
 * A cursor no page of this store ever returned: the caller's mistake, which the domain answers
 * as the request's (server/domain/errors.ts, `fromStorage`). Read on SQLite's reader thread, it
 * comes back to the caller as itself.
 */
export class InvalidCursor extends Error {
  readonly param = 'cursor';
  constructor() {
    super('The cursor is not one this store returned.');
    this.name = 'InvalidCursor';
  }
}
crossesThreads(InvalidCursor);

/** The cursor is the `seq` of the last item served, base64url-encoded: opaque to clients. */
function encodeCursor(seq: number): string {
  return Buffer.from(String(seq)).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[1-9][0-9]{0,15}$/.test(text)) {
    throw new InvalidCursor();
  }
  return Number(text);
}

/**
 * Keyset pagination: `seq < cursor ORDER BY seq DESC LIMIT limit + 1`, so the cost of a page
 * does not grow with the table or with how deep the client pages. `columns` (from code, never
 * from the request) are the ones read; every column when not given.
 */
export function createPager(connection: SqlConnection) {
  const statements = new Map<string, SqlStatement>();
  return async function page<Row extends { seq: number }>(
    table: string,
    conditions: Condition[],
    request: PageRequest,
    columns?: ReadonlyArray<keyof Row & string>,
  ): Promise<Page<Row>> {
    const where = conditions.map(([sql]) => sql);
    const values: Array<string | number> = conditions.flatMap(([, ...value]) => value);
    if (request.cursor !== undefined) {
      where.push('seq < ?');
      values.push(decodeCursor(request.cursor));
    }
    const sql = `SELECT ${columns ? columns.join(', ') : '*'} FROM ${table} WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`;
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      statements.set(sql, statement);
    }
    const rows = (await statement.all(...values, request.limit + 1)) as Row[];
    const has_more = rows.length > request.limit;
    const items = has_more ? rows.slice(0, request.limit) : rows;
    const last = items[items.length - 1];
    return { items, has_more, next_cursor: has_more && last ? encodeCursor(last.seq) : null };
  };
}

export type Pager = ReturnType<typeof createPager>;
