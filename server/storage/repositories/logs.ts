import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { CallLogRow, Mode } from '../rows.js';

export function logsRepository(db: Db, page: Pager) {
  const insert = db.prepare(
    `INSERT INTO call_logs (id, account_id, mode, request_id, method, path, status, duration_ms, key_id, error_code,
       created_at, user_id)
     VALUES (@id, @account_id, @mode, @request_id, @method, @path, @status, @duration_ms, @key_id, @error_code,
       @created_at, @user_id)`,
  );
  const insertMany = db.transaction((rows: Array<Omit<CallLogRow, 'seq'>>) => {
    for (const row of rows) insert.run(row);
  });
  const purge = db.prepare('DELETE FROM call_logs WHERE created_at < ?');

  return {
    /** Writes a batch of call records in one transaction. */
    insertMany(rows: Array<Omit<CallLogRow, 'seq'>>): void {
      insertMany.immediate(rows);
    },
    list(accountId: string, mode: Mode, filters: Condition[], request: PageRequest) {
      return page<CallLogRow>(
        'call_logs',
        [['account_id = ?', accountId], ['mode = ?', mode], ...filters],
        request,
      );
    },
    purge(olderThan: number): number {
      return purge.run(olderThan).changes;
    },
  };
}
