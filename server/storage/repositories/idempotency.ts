import type { IdempotencyRow, Mode } from '../rows.js';
import type { SqlConnection } from '../sql.js';

export function idempotencyRepository(connection: SqlConnection) {
  const find = connection.prepare<IdempotencyRow>(
    `SELECT fingerprint, status_code, body, created_at FROM idempotency_keys
      WHERE account_id = ? AND mode = ? AND key = ? AND created_at > ?`,
  );
  const save = connection.prepare(
    `INSERT INTO idempotency_keys (account_id, mode, key, fingerprint, status_code, body, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, mode, key) DO UPDATE SET fingerprint = excluded.fingerprint,
       status_code = excluded.status_code, body = excluded.body, created_at = excluded.created_at
     WHERE idempotency_keys.created_at <= ?`,
  );
  // The oldest first, a bounded batch (server/domain/retention.ts): by created_at's index.
  const purge = connection.prepare(
    `DELETE FROM idempotency_keys WHERE (account_id, mode, key) IN
       (SELECT account_id, mode, key FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ?)`,
  );
  return {
    /** The stored response for a key younger than `notBefore`, if any. */
    async find(
      accountId: string,
      mode: Mode,
      key: string,
      notBefore: number,
    ): Promise<IdempotencyRow | undefined> {
      return find.get(accountId, mode, key, notBefore);
    },
    /**
     * Stores a response. A live record with the same key makes this a no-op returning false:
     * another request with the key committed first, and the caller must roll back.
     */
    async save(
      accountId: string,
      mode: Mode,
      key: string,
      row: IdempotencyRow,
      expiredBefore: number,
    ): Promise<boolean> {
      return (
        (
          await save.run(
            accountId,
            mode,
            key,
            row.fingerprint,
            row.status_code,
            row.body,
            row.created_at,
            expiredBefore,
          )
        ).changes === 1
      );
    },
    /** Deletes up to `limit` records made at or before `olderThan`, the oldest first. */
    async purge(olderThan: number, limit: number): Promise<number> {
      return (await purge.run(olderThan, limit)).changes;
    },
  };
}
