import { conditionsOf, type LogQuery, logFilters } from '../list-filters.js';
import type { PageRequest, Pager } from '../pagination.js';
import type { CallLogRow, Mode } from '../rows.js';
import type { SqlConnection } from '../sql.js';

export function logsRepository(connection: SqlConnection, page: Pager) {
  const insert = connection.prepare(
    `INSERT INTO call_logs (id, account_id, mode, request_id, method, path, status, duration_ms, key_id, error_code,
       created_at, user_id)
     VALUES (@id, @account_id, @mode, @request_id, @method, @path, @status, @duration_ms, @key_id, @error_code,
       @created_at, @user_id)`,
  );
  // The oldest first, a bounded batch (server/domain/retention.ts): by created_at's index.
  const purge = connection.prepare(
    'DELETE FROM call_logs WHERE seq IN (SELECT seq FROM call_logs WHERE created_at < ? ORDER BY created_at LIMIT ?)',
  );

  return {
    /** Writes a batch of call records; the caller makes it one transaction (`Store.transact`). */
    async insertMany(rows: Array<Omit<CallLogRow, 'seq'>>): Promise<void> {
      for (const row of rows) await insert.run(row);
    },
    /** A page of an account's logs in one mode, filtered by the list's query (list-filters.ts). */
    async list(accountId: string, mode: Mode, query: LogQuery, request: PageRequest) {
      return page<CallLogRow>(
        'call_logs',
        [['account_id = ?', accountId], ['mode = ?', mode], ...conditionsOf(logFilters, query)],
        request,
      );
    },
    /** Deletes up to `limit` call logs older than `olderThan`, the oldest first. */
    async purge(olderThan: number, limit: number): Promise<number> {
      return (await purge.run(olderThan, limit)).changes;
    },
  };
}
