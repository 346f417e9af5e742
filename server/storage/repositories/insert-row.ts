import type { SqlConnection } from '../sql.js';

/**
 * An INSERT of `columns` (every column of `table` but `seq` and `omitted`, comma-separated as in
 * SQL) that answers the row as stored. PostgreSQL says it (`RETURNING *`). On SQLite, whose
 * RETURNING was a large part of an insert's cost (docs/performance.md), the row is the one given,
 * with the rowid SQLite chose as `seq` and NULL for each omitted column: the tables are STRICT,
 * so a value is stored as given, and the omitted columns have no default but NULL
 * (test/server/inserted-rows.test.ts reads every repository's inserted rows back, on both
 * engines, to hold both to that).
 */
export function rowInserter<Row extends { seq: number }, Omitted extends keyof Row & string = never>(
  connection: SqlConnection,
  table: string,
  columns: string,
  omitted: readonly Omitted[] = [],
): (row: Omit<Row, 'seq' | Omitted>) => Promise<Row> {
  const names = columns.split(',').map((column) => column.trim());
  const sql = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((c) => `@${c}`).join(', ')})`;
  if (connection.dialect === 'postgres') {
    const insert = connection.prepare<Row>(`${sql} RETURNING *`);
    return async (row) => (await insert.get(row)) as Row;
  }
  const insert = connection.prepare(sql);
  const nulls = Object.fromEntries(omitted.map((column) => [column, null]));
  return async (row) => {
    const { lastInsertRowid } = await insert.run(row);
    return { seq: Number(lastInsertRowid), ...row, ...nulls } as unknown as Row;
  };
}
