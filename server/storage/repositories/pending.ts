import type { SqlConnection } from '../sql.js';

/**
 * The queries the settlement worker needs on a table of operator requests (payments, top-ups,
 * payouts): what is due for a status check or past its expiry, pushing a check later, and the
 * compare-and-set that moves a row out of its pending state exactly once.
 */
export function pendingQueries<Row extends { status: string }>(
  connection: SqlConnection,
  table: 'payments' | 'topups' | 'payouts',
  pendingStatus: 'initiated' | 'pending',
) {
  const finish = connection.prepare(
    `UPDATE ${table} SET status = ?, failure_code = ?, updated_at = ?, completed_at = ?, next_check_at = NULL
      WHERE id = ? AND status = '${pendingStatus}'`,
  );
  const recheckLater = connection.prepare(
    `UPDATE ${table} SET next_check_at = ? WHERE id = ? AND status = '${pendingStatus}'`,
  );
  const due = connection.prepare<Row>(
    `SELECT * FROM ${table} WHERE status = '${pendingStatus}' AND next_check_at IS NOT NULL AND next_check_at <= ?
      ORDER BY next_check_at LIMIT ?`,
  );
  const expired = connection.prepare<Row>(
    `SELECT * FROM ${table} WHERE status = '${pendingStatus}' AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
  );
  const setOperatorToken = connection.prepare(
    `UPDATE ${table} SET operator_token = ? WHERE id = ? AND status = '${pendingStatus}'`,
  );
  const claim = connection.prepare(
    `UPDATE ${table} SET next_check_at = @lease_until
      WHERE id = @id AND status = '${pendingStatus}' AND next_check_at IS NOT DISTINCT FROM @seen`,
  );
  const pendingById = connection.prepare<Row>(
    `SELECT * FROM ${table} WHERE id = ? AND status = '${pendingStatus}'`,
  );
  const pendingWithRef = connection.prepare<{ id: string }>(
    `SELECT id FROM ${table} WHERE id = ? AND operator_ref = ? AND status = '${pendingStatus}'`,
  );
  return {
    /** Records the operator's token for a pending request (before the request goes further). */
    async setOperatorToken(id: string, token: string): Promise<void> {
      await setOperatorToken.run(token, id);
    },
    /** Whether this row is still pending with this operator reference (an operator's callback named both). */
    async isPendingWith(id: string, operatorRef: string): Promise<boolean> {
      return (await pendingWithRef.get(id, operatorRef)) !== undefined;
    },
    /** Moves a pending row to a final state; false when it already was final. */
    async finish(
      id: string,
      status: Row['status'],
      failureCode: string | null,
      now: number,
    ): Promise<boolean> {
      return (await finish.run(status, failureCode, now, now, id)).changes === 1;
    },
    /**
     * Claims a row for one settlement pass: its next check moves to `leaseUntil`, provided it is
     * still pending and still has the next check the pass saw. Of several instances passing over
     * the same due rows, one wins each row; the others leave it alone until the lease ends.
     */
    async claim(id: string, seen: number | null, leaseUntil: number): Promise<boolean> {
      return (await claim.run({ id, seen, lease_until: leaseUntil })).changes === 1;
    },
    async recheckLater(id: string, at: number): Promise<void> {
      await recheckLater.run(at, id);
    },
    /** Those of these rows still pending, whenever their next check is. */
    async pendingAmong(ids: readonly string[]): Promise<Row[]> {
      const rows: Row[] = [];
      for (const id of ids) {
        const row = await pendingById.get(id);
        if (row) rows.push(row);
      }
      return rows;
    },
    /** Pending rows whose next status check is due. */
    async due(now: number, limit: number): Promise<Row[]> {
      return due.all(now, limit);
    },
    /** Pending rows past their expiry. */
    async expired(now: number, limit: number): Promise<Row[]> {
      return expired.all(now, limit);
    },
  };
}
