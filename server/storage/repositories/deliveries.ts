import type { PageRequest, Pager } from '../pagination.js';
import type { DeliveryRow, Mode } from '../rows.js';
import type { SqlConnection, SqlValue } from '../sql.js';

/** An endpoint with a due delivery, and what fair selection needs to know of it. */
export interface DueEndpoint {
  endpoint_id: string;
  account_id: string;
  consecutive_failures: number;
}

/** One attempt and the delivery's state after it, as the sender records them. */
export type RecordedAttempt = Pick<DeliveryRow, 'id' | 'status' | 'next_attempt_at' | 'last_attempt_at'> & {
  lease: number | null;
  last_response_status: number | null;
  last_error: string | null;
  /** Shown to the integrator: `null` when no HTTP answer came (see deliver.ts). */
  last_duration_ms: number | null;
  /** Kept in the attempts table for operators. */
  duration_ms: number;
};

/**
 * The outbox: one delivery per event and endpoint, leased by a sender while it attempts it, and
 * every attempt. Which deliveries are due: `dueQueries` below.
 */
export function deliveriesRepository(connection: SqlConnection, page: Pager) {
  const insert = connection.prepare(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, 'pending', 0, ?, ?)`,
  );
  const byId = connection.prepare<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = ?');
  const cancelOf = connection.prepare(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'endpoint deleted'
      WHERE endpoint_id = ? AND status = 'pending'`,
  );
  const expire = connection.prepare(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
       last_error = 'Given up: the endpoint kept failing for the whole retry period.'
      WHERE endpoint_id = ? AND status = 'pending' AND created_at <= ? AND (locked_until IS NULL OR locked_until <= ?)`,
  );
  const lock = connection.prepare(
    `UPDATE webhook_deliveries SET locked_until = @lock_until
      WHERE id = @id AND status = 'pending' AND (locked_until IS NULL OR locked_until <= @now)`,
  );
  const release = connection.prepare(
    `UPDATE webhook_deliveries SET locked_until = NULL
      WHERE id = @id AND status = 'pending' AND locked_until = @lease`,
  );
  const insertAttempt = connection.prepare(
    `INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const finishAttempt = connection.prepare(
    `UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, next_attempt_at = @next_attempt_at,
       locked_until = NULL, last_attempt_at = @last_attempt_at, last_response_status = @last_response_status,
       last_error = @last_error, last_duration_ms = @last_duration_ms
      WHERE id = @id AND status = 'pending' AND locked_until IS NOT DISTINCT FROM @lease`,
  );
  const pendingCount = connection.prepare<{ n: number }>(
    "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'",
  );

  return {
    ...dueQueries(connection),
    async insert(id: string, eventId: string, endpointId: string, dueAt: number, now: number): Promise<void> {
      await insert.run(id, eventId, endpointId, dueAt, now);
    },
    async byId(id: string): Promise<DeliveryRow | undefined> {
      return byId.get(id);
    },
    async list(eventId: string, request: PageRequest) {
      return page<DeliveryRow>('webhook_deliveries', [['event_id = ?', eventId]], request);
    },
    /** Cancels what was still queued for an endpoint. */
    async cancelOf(endpointId: string): Promise<void> {
      await cancelOf.run(endpointId);
    },
    /**
     * Gives up an endpoint's pending deliveries created at or before `createdBefore` that are
     * not in flight: those a paused endpoint kept from being attempted past the retry period.
     */
    async expire(endpointId: string, createdBefore: number, now: number): Promise<number> {
      return (await expire.run(endpointId, createdBefore, now)).changes;
    },
    /** Leases one delivery until `lockUntil`; false if it is no longer pending and free. */
    async lock(id: string, now: number, lockUntil: number): Promise<boolean> {
      return (await lock.run({ id, now, lock_until: lockUntil })).changes === 1;
    },
    /** Gives a lease back unused, if it is still the one taken: the delivery is due again at once. */
    async release(id: string, lease: number): Promise<void> {
      await release.run({ id, lease });
    },
    /**
     * Records one attempt, and the delivery's new state if the lease `lease` is still ours
     * (a worker whose lease was taken over records the attempt but changes nothing else).
     */
    async recordAttempt(attempt: RecordedAttempt): Promise<void> {
      await insertAttempt.run(
        attempt.id,
        attempt.last_attempt_at,
        attempt.last_response_status,
        attempt.duration_ms,
        attempt.last_error,
      );
      const { duration_ms: _kept, ...state } = attempt;
      await finishAttempt.run(state);
    },
    async pendingCount(): Promise<number> {
      return ((await pendingCount.get()) as { n: number }).n;
    },
  };
}

/**
 * Which deliveries may be sent now. The sender's poll, its claim and its
 * hand-over must agree on what is due, so these queries share one definition of it.
 */
function dueQueries(connection: SqlConnection) {
  // Lists of ids to leave out: a JSON array for SQLite, a text[] for PostgreSQL.
  const postgres = connection.dialect === 'postgres';
  const notIn = (column: string, list: string) =>
    postgres ? `${column} <> ALL(${list})` : `${column} NOT IN (SELECT value FROM json_each(${list}))`;
  const idList = (ids: string[]): SqlValue => (postgres ? ids : JSON.stringify(ids));

  // A delivery that may be sent at `@now`: pending, due, and not leased (or its lease is over).
  // The sender's poll, its claim and its hand-over must agree on it.
  const dueAndUnleased = (d: string) =>
    `${d}status = 'pending' AND ${d}next_attempt_at <= @now AND (${d}locked_until IS NULL OR ${d}locked_until <= @now)`;

  // Endpoints of one mode, not paused, with a due and unlocked delivery, oldest first, leaving
  // out those (and the accounts) that have no free slot. Each endpoint's oldest due delivery is
  // found through the pending-by-endpoint index.
  const dueEndpoints = connection.prepare<DueEndpoint>(
    `SELECT endpoint_id, account_id, consecutive_failures FROM (
       SELECT e.id AS endpoint_id, e.account_id, e.consecutive_failures,
              (SELECT d.next_attempt_at FROM webhook_deliveries d
                WHERE d.endpoint_id = e.id AND ${dueAndUnleased('d.')}
                ORDER BY d.next_attempt_at LIMIT 1) AS oldest
         FROM webhook_endpoints e
        WHERE e.mode = @mode AND (e.paused_until IS NULL OR e.paused_until <= @now)
          AND ${notIn('e.id', '@busy_endpoints')}
          AND ${notIn('e.account_id', '@busy_accounts')}) AS candidates
      WHERE oldest IS NOT NULL ORDER BY oldest`,
  );
  // By the due index: its first entry past `now` ends the search.
  const anyDue = connection.prepare<{ due: number }>(
    `SELECT 1 AS due FROM webhook_deliveries WHERE ${dueAndUnleased('')} LIMIT 1`,
  );
  const dueOf = connection.prepare<{ id: string }>(
    `SELECT id FROM webhook_deliveries
      WHERE endpoint_id = @endpoint_id AND ${dueAndUnleased('')}
        AND ${notIn('id', '@busy_deliveries')}
      ORDER BY next_attempt_at, seq LIMIT @limit`,
  );
  return {
    /**
     * Whether any delivery is due and unleased at `now`. A read. Paused endpoints are included:
     * leaving them out would read a paused endpoint's whole backlog at every poll, so while one
     * is paused with deliveries due, the sender's polls claim (and find nothing) as they did
     * before this read existed.
     */
    async anyDue(now: number): Promise<boolean> {
      return (await anyDue.get({ now })) !== undefined;
    },
    /** Endpoints with a due delivery that could start now, oldest due first. Nothing is locked. */
    async dueEndpoints(query: {
      now: number;
      mode: Mode;
      busyEndpoints: string[];
      busyAccounts: string[];
    }): Promise<DueEndpoint[]> {
      return dueEndpoints.all({
        now: query.now,
        mode: query.mode,
        busy_endpoints: idList(query.busyEndpoints),
        busy_accounts: idList(query.busyAccounts),
      });
    },
    /**
     * The ids of an endpoint's oldest due, unlocked deliveries, at most `limit`, leaving out
     * `busyDeliveries` (in flight in this process, whatever the clock says of their lease).
     */
    async dueOf(query: {
      endpointId: string;
      now: number;
      limit: number;
      busyDeliveries: string[];
    }): Promise<string[]> {
      if (query.limit <= 0) return [];
      const rows = await dueOf.all({
        endpoint_id: query.endpointId,
        now: query.now,
        limit: query.limit,
        busy_deliveries: idList(query.busyDeliveries),
      });
      return rows.map((row) => row.id);
    },
  };
}
