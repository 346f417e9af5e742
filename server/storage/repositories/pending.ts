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
  const setOperatorToken = db.prepare(
    `UPDATE ${table} SET operator_token = ? WHERE id = ? AND status = '${pendingStatus}'`,
  );
  const checkNow = db.prepare(
    `UPDATE ${table} SET next_check_at = ? WHERE operator_ref = ? AND status = '${pendingStatus}'`,
  );
  return {
    /** Records the operator's token for a pending request (before the request goes further). */
    setOperatorToken(id: string, token: string): void {
      setOperatorToken.run(token, id);
    },
    /** An operator's callback named this reference: its status is asked at the next pass. */
    checkNow(operatorRef: string, now: number): boolean {
      return checkNow.run(now, operatorRef).changes > 0;
    },
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
