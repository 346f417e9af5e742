import type pg from 'pg';
import type { SharedCounters, Window } from '../store.js';

/** How often an instance deletes the windows that ended long ago. */
const purgeEveryMs = 60_000;

/**
 * Fixed-window request counters in the database, so that every instance on it counts the same
 * requests: one upsert per counted request, in autocommit (no transaction of its own), which
 * PostgreSQL serialises on the key's row. A window that ended is restarted by the same
 * statement. Windows older than an hour are deleted now and then.
 *
 * @example
 * const counters = postgresCounters(pool);
 * const { count } = await counters.hit('acct_1:test', Date.now(), 1000);
 */
export function postgresCounters(pool: pg.Pool): SharedCounters {
  let lastPurge = 0;
  const toWindow = (row: { count: string | number; started_at: string | number }): Window => ({
    count: Number(row.count),
    startedAt: Number(row.started_at),
  });
  return {
    async hit(key, now, windowMs) {
      if (now - lastPurge > purgeEveryMs) {
        lastPurge = now;
        // Housekeeping off the request's path: the call that triggers it does not wait for it.
        pool
          .query('DELETE FROM rate_limit_windows WHERE started_at < $1', [now - 3_600_000 - windowMs])
          .catch(() => undefined);
      }
      const { rows } = await pool.query({
        name: 'rate_limit_hit',
        text: `INSERT INTO rate_limit_windows AS w (key, started_at, count) VALUES ($1, $2, 1)
               ON CONFLICT (key) DO UPDATE SET
                 started_at = CASE WHEN w.started_at + $3 <= $2 THEN $2 ELSE w.started_at END,
                 count = CASE WHEN w.started_at + $3 <= $2 THEN 1 ELSE w.count + 1 END
               RETURNING count, started_at`,
        values: [key, now, windowMs],
      });
      return toWindow(rows[0]);
    },
    async peek(key, now, windowMs) {
      const { rows } = await pool.query({
        name: 'rate_limit_peek',
        text: 'SELECT count, started_at FROM rate_limit_windows WHERE key = $1 AND started_at + $2 > $3',
        values: [key, windowMs, now],
      });
      return rows[0] ? toWindow(rows[0]) : undefined;
    },
  };
}
