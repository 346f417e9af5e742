import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { Mode, TopupRow } from '../rows.js';

export function topupsRepository(db: Db, page: Pager) {
  const insert = db.prepare(
    `INSERT INTO topups (id, account_id, mode, amount, currency, status, payer_msisdn, payment_method, reference,
       failure_code, operator_ref, next_check_at, expires_at, created_at, updated_at, completed_at)
     VALUES (@id, @account_id, @mode, @amount, @currency, @status, @payer_msisdn, @payment_method, @reference,
       @failure_code, @operator_ref, @next_check_at, @expires_at, @created_at, @updated_at, @completed_at)
     RETURNING *`,
  );
  const get = db.prepare('SELECT * FROM topups WHERE id = ? AND account_id = ? AND mode = ?');
  const finish = db.prepare(
    `UPDATE topups SET status = ?, failure_code = ?, updated_at = ?, completed_at = ?, next_check_at = NULL
      WHERE id = ? AND status = 'initiated'`,
  );
  const recheckLater = db.prepare(
    "UPDATE topups SET next_check_at = ? WHERE id = ? AND status = 'initiated'",
  );
  const due = db.prepare(
    `SELECT * FROM topups WHERE status = 'initiated' AND next_check_at IS NOT NULL AND next_check_at <= ?
      ORDER BY next_check_at LIMIT ?`,
  );
  const expired = db.prepare(
    "SELECT * FROM topups WHERE status = 'initiated' AND expires_at <= ? ORDER BY expires_at LIMIT ?",
  );

  return {
    /** Inserts the row and returns it as stored. */
    insert(row: Omit<TopupRow, 'seq'>): TopupRow {
      return insert.get(row) as TopupRow;
    },
    get(accountId: string, mode: Mode, id: string): TopupRow | undefined {
      return get.get(id, accountId, mode) as TopupRow | undefined;
    },
    finish(id: string, status: TopupRow['status'], failureCode: string | null, now: number): boolean {
      return finish.run(status, failureCode, now, now, id).changes === 1;
    },
    recheckLater(id: string, at: number): void {
      recheckLater.run(at, id);
    },
    due(now: number, limit: number): TopupRow[] {
      return due.all(now, limit) as TopupRow[];
    },
    expired(now: number, limit: number): TopupRow[] {
      return expired.all(now, limit) as TopupRow[];
    },
    list(accountId: string, mode: Mode, filters: Condition[], request: PageRequest) {
      return page<TopupRow>(
        'topups',
        [['account_id = ?', accountId], ['mode = ?', mode], ...filters],
        request,
      );
    },
  };
}
