import type { Db } from '../database.js';

/**
 * The queries the settlement worker needs on a table of operator requests (payments, top-ups,
 * payouts): what is due for a status check or past its expiry, pushing a check later, and the
 * compare-and-set that moves a row out of its pending state exactly once.
 */
export function pendingQueries<Row extends { status: string }>(
  db: Db,
  table: 'payments' | 'topups' | 'payouts',
  pendingStatus: 'initiated' | 'pending',
) {
  const finish = db.prepare(
    `UPDATE ${table} SET status = ?, failure_code = ?, updated_at = ?, completed_at = ?, next_check_at = NULL
      WHERE id = ? AND status = '${pendingStatus}'`,
  );
  const recheckLater = db.prepare(
    `UPDATE ${table} SET next_check_at = ? WHERE id = ? AND status = '${pendingStatus}'`,
  );
  const due = db.prepare(
    `SELECT * FROM ${table} WHERE status = '${pendingStatus}' AND next_check_at IS NOT NULL AND next_check_at <= ?
      ORDER BY next_check_at LIMIT ?`,
  );
  const expired = db.prepare(
    `SELECT * FROM ${table} WHERE status = '${pendingStatus}' AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
  );
  return {
    /** Moves a pending row to a final state; false when it already was final. */
    finish(id: string, status: Row['status'], failureCode: string | null, now: number): boolean {
      return finish.run(status, failureCode, now, now, id).changes === 1;
    },
    recheckLater(id: string, at: number): void {
      recheckLater.run(at, id);
    },
    /** Pending rows whose next status check is due. */
    due(now: number, limit: number): Row[] {
      return due.all(now, limit) as Row[];
    },
    /** Pending rows past their expiry. */
    expired(now: number, limit: number): Row[] {
      return expired.all(now, limit) as Row[];
    },
  };
}
