import type { Db } from '../database.js';
import type { IdempotencyRow, Mode } from '../rows.js';

export function idempotencyRepository(db: Db) {
  const find = db.prepare(
    `SELECT fingerprint, status_code, body, created_at FROM idempotency_keys
      WHERE account_id = ? AND mode = ? AND key = ? AND created_at > ?`,
  );
  const save = db.prepare(
    `INSERT INTO idempotency_keys (account_id, mode, key, fingerprint, status_code, body, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, mode, key) DO UPDATE SET fingerprint = excluded.fingerprint,
       status_code = excluded.status_code, body = excluded.body, created_at = excluded.created_at
     WHERE idempotency_keys.created_at <= ?`,
  );
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at <= ?');
  // Responses an older version stored with the secret they revealed.
  const revealing = `body LIKE '%"secret":"whsec%' OR body LIKE '%"secret_key":"sk%'`;
  const forgetSecrets = db.prepare(`DELETE FROM idempotency_keys WHERE ${revealing}`);
  const anyRevealing = db.prepare(`SELECT 1 FROM idempotency_keys WHERE ${revealing} LIMIT 1`);

  return {
    /** The stored response for a key younger than `notBefore`, if any. */
    find(accountId: string, mode: Mode, key: string, notBefore: number): IdempotencyRow | undefined {
      return find.get(accountId, mode, key, notBefore) as IdempotencyRow | undefined;
    },
    /**
     * Stores a response. A live record with the same key makes this a no-op returning false:
     * another request with the key committed first, and the caller must roll back.
     */
    save(accountId: string, mode: Mode, key: string, row: IdempotencyRow, expiredBefore: number): boolean {
      return (
        save.run(
          accountId,
          mode,
          key,
          row.fingerprint,
          row.status_code,
          row.body,
          row.created_at,
          expiredBefore,
        ).changes === 1
      );
    },
    purge(olderThan: number): number {
      return purge.run(olderThan).changes;
    },
    hasRevealedSecrets(): boolean {
      return anyRevealing.get() !== undefined;
    },
    /** Deletes stored responses that hold a revealed secret (written by an older version). */
    forgetRevealedSecrets(): number {
      return forgetSecrets.run().changes;
    },
  };
}
