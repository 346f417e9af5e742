import { conditionsOf, type EventQuery, eventFilters } from '../list-filters.js';
import type { PageRequest, Pager } from '../pagination.js';
import type { DeliveryRow, EventRow, Mode, WebhookEndpointRow } from '../rows.js';
import type { SecretBox } from '../secret-box.js';
import type { SqlConnection, SqlValue } from '../sql.js';

/** An endpoint with a due delivery, and what fair selection needs to know of it. */
export interface DueEndpoint {
  endpoint_id: string;
  account_id: string;
  consecutive_failures: number;
}

/** An enabled endpoint and the events it subscribes to (`events`: a JSON array, null for all). */
export type EndpointSubscription = Pick<WebhookEndpointRow, 'id' | 'events'>;

/**
 * Events, the webhook endpoints they go to, and the outbox of deliveries between them.
 * Endpoint signing secrets are sealed on the way in and opened on the way out, so the rows
 * callers see hold the usable secret and the table holds only ciphertext.
 */
export function eventsRepository(connection: SqlConnection, page: Pager, box: SecretBox) {
  const insertEvent = connection.prepare(
    `INSERT INTO events (id, account_id, mode, event, transaction_id, payload, created_at)
     VALUES (@id, @account_id, @mode, @event, @transaction_id, @payload, @created_at)`,
  );
  const getEvent = connection.prepare<EventRow>(
    'SELECT * FROM events WHERE id = ? AND account_id = ? AND mode = ?',
  );
  const eventById = connection.prepare<EventRow>('SELECT * FROM events WHERE id = ?');
  const insertEndpoint = connection.prepare(
    `INSERT INTO webhook_endpoints (id, account_id, mode, url, events, description, status, secret,
       previous_secret, previous_secret_expires_at, created_at, updated_at, deleted_at)
     VALUES (@id, @account_id, @mode, @url, @events, @description, @status, @secret, @previous_secret,
       @previous_secret_expires_at, @created_at, @updated_at, @deleted_at)`,
  );
  const getEndpoint = connection.prepare<WebhookEndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ? AND mode = ? AND deleted_at IS NULL',
  );
  const endpointById = connection.prepare<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ?');
  const updateEndpoint = connection.prepare(
    `UPDATE webhook_endpoints SET url = @url, events = @events, description = @description, status = @status,
       secret = @secret, previous_secret = @previous_secret, previous_secret_expires_at = @previous_secret_expires_at,
       updated_at = @updated_at, deleted_at = @deleted_at WHERE id = @id`,
  );
  const countEndpoints = connection.prepare<{ n: number }>(
    'SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ? AND mode = ? AND deleted_at IS NULL',
  );
  const endpointHealth = connection.prepare(
    'UPDATE webhook_endpoints SET consecutive_failures = ?, paused_until = ? WHERE id = ?',
  );
  const healthOf = connection.prepare<{ consecutive_failures: number; paused_until: number | null }>(
    'SELECT consecutive_failures, paused_until FROM webhook_endpoints WHERE id = ?',
  );
  // Only what routing an event needs: no secret is opened for it.
  const enabledEndpoints = connection.prepare<EndpointSubscription>(
    `SELECT id, events FROM webhook_endpoints
      WHERE account_id = ? AND mode = ? AND status = 'enabled' AND deleted_at IS NULL
      ORDER BY seq`,
  );
  const insertDelivery = connection.prepare(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, 'pending', 0, ?, ?)`,
  );
  const deliveryById = connection.prepare<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = ?');
  const cancelDeliveries = connection.prepare(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'endpoint deleted'
      WHERE endpoint_id = ? AND status = 'pending'`,
  );
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
  const dueDeliveriesOf = connection.prepare<{ id: string }>(
    `SELECT id FROM webhook_deliveries
      WHERE endpoint_id = @endpoint_id AND ${dueAndUnleased('')}
        AND ${notIn('id', '@busy_deliveries')}
      ORDER BY next_attempt_at, seq LIMIT @limit`,
  );
  const expireDeliveries = connection.prepare(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
       last_error = 'Given up: the endpoint kept failing for the whole retry period.'
      WHERE endpoint_id = ? AND status = 'pending' AND created_at <= ? AND (locked_until IS NULL OR locked_until <= ?)`,
  );
  const lockDelivery = connection.prepare(
    `UPDATE webhook_deliveries SET locked_until = @lock_until
      WHERE id = @id AND status = 'pending' AND (locked_until IS NULL OR locked_until <= @now)`,
  );
  const releaseDelivery = connection.prepare(
    `UPDATE webhook_deliveries SET locked_until = NULL
      WHERE id = @id AND status = 'pending' AND locked_until = @lease`,
  );
  const recordAttempt = connection.prepare(
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
  const allEndpointSecrets = connection.prepare<{ id: string; secret: string }>(
    'SELECT id, secret FROM webhook_endpoints',
  );
  const anyClearSecret = connection.prepare(
    "SELECT 1 FROM webhook_endpoints WHERE secret NOT LIKE 'v1.%' LIMIT 1",
  );
  const setEndpointSecret = connection.prepare('UPDATE webhook_endpoints SET secret = ? WHERE id = ?');

  // The previous secret (still signing during a rotation's overlap) is sealed like the current one.
  const sealed = <T extends { id: string; secret: string; previous_secret?: string | null }>(row: T): T => ({
    ...row,
    secret: box.seal(row.secret, row.id),
    ...(row.previous_secret ? { previous_secret: box.seal(row.previous_secret, row.id) } : {}),
  });
  const opened = (row: WebhookEndpointRow | undefined): WebhookEndpointRow | undefined =>
    row && {
      ...row,
      secret: box.open(row.secret, row.id),
      previous_secret: row.previous_secret ? box.open(row.previous_secret, row.id) : row.previous_secret,
    };

  return {
    async insertEvent(row: Omit<EventRow, 'seq'>): Promise<void> {
      await insertEvent.run(row);
    },
    async getEvent(accountId: string, mode: Mode, id: string): Promise<EventRow | undefined> {
      return getEvent.get(id, accountId, mode);
    },
    async eventById(id: string): Promise<EventRow | undefined> {
      return eventById.get(id);
    },
    /** A page of an account's events in one mode, filtered by the list's query (list-filters.ts). */
    async listEvents(accountId: string, mode: Mode, query: EventQuery, request: PageRequest) {
      return page<EventRow>(
        'events',
        [['account_id = ?', accountId], ['mode = ?', mode], ...conditionsOf(eventFilters, query)],
        request,
      );
    },
    async insertEndpoint(
      row: Omit<WebhookEndpointRow, 'seq' | 'consecutive_failures' | 'paused_until'>,
    ): Promise<void> {
      await insertEndpoint.run(sealed(row));
    },
    async getEndpoint(accountId: string, mode: Mode, id: string): Promise<WebhookEndpointRow | undefined> {
      return opened(await getEndpoint.get(id, accountId, mode));
    },
    async endpointById(id: string): Promise<WebhookEndpointRow | undefined> {
      return opened(await endpointById.get(id));
    },
    async updateEndpoint(row: WebhookEndpointRow): Promise<void> {
      await updateEndpoint.run({ ...sealed(row) });
    },
    async listEndpoints(accountId: string, mode: Mode, request: PageRequest) {
      const result = await page<WebhookEndpointRow>(
        'webhook_endpoints',
        [['account_id = ?', accountId], ['mode = ?', mode], ['deleted_at IS NULL']],
        request,
      );
      return { ...result, items: result.items.map((row) => opened(row) as WebhookEndpointRow) };
    },
    /** The enabled endpoints of an account and mode, oldest first, with the events each takes. */
    async enabledEndpoints(accountId: string, mode: Mode): Promise<EndpointSubscription[]> {
      return enabledEndpoints.all(accountId, mode);
    },
    /** Whether an older version left a secret in clear (a read: a read-only file stays usable). */
    async hasClearSecrets(): Promise<boolean> {
      return (await anyClearSecret.get()) !== undefined;
    },
    /** Seals the secrets an older version stored in clear; returns how many it sealed. */
    async sealClearSecrets(): Promise<number> {
      let count = 0;
      for (const row of await allEndpointSecrets.all()) {
        if (box.isSealed(row.secret)) continue;
        await setEndpointSecret.run(box.seal(row.secret, row.id), row.id);
        count += 1;
      }
      return count;
    },
    async insertDelivery(
      id: string,
      eventId: string,
      endpointId: string,
      dueAt: number,
      now: number,
    ): Promise<void> {
      await insertDelivery.run(id, eventId, endpointId, dueAt, now);
    },
    async delivery(id: string): Promise<DeliveryRow | undefined> {
      return deliveryById.get(id);
    },
    async listDeliveries(eventId: string, request: PageRequest) {
      return page<DeliveryRow>('webhook_deliveries', [['event_id = ?', eventId]], request);
    },
    async cancelDeliveries(endpointId: string): Promise<void> {
      await cancelDeliveries.run(endpointId);
    },
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
    async dueDeliveriesOf(query: {
      endpointId: string;
      now: number;
      limit: number;
      busyDeliveries: string[];
    }): Promise<string[]> {
      if (query.limit <= 0) return [];
      const rows = await dueDeliveriesOf.all({
        endpoint_id: query.endpointId,
        now: query.now,
        limit: query.limit,
        busy_deliveries: idList(query.busyDeliveries),
      });
      return rows.map((row) => row.id);
    },
    /**
     * Gives up an endpoint's pending deliveries created at or before `createdBefore` that are
     * not in flight: those a paused endpoint kept from being attempted past the retry period.
     */
    async expireDeliveries(endpointId: string, createdBefore: number, now: number): Promise<number> {
      return (await expireDeliveries.run(endpointId, createdBefore, now)).changes;
    },
    /** Leases one delivery until `lockUntil`; false if it is no longer pending and free. */
    async lockDelivery(id: string, now: number, lockUntil: number): Promise<boolean> {
      return (await lockDelivery.run({ id, now, lock_until: lockUntil })).changes === 1;
    },
    /** Gives a lease back unused, if it is still the one taken: the delivery is due again at once. */
    async releaseDelivery(id: string, lease: number): Promise<void> {
      await releaseDelivery.run({ id, lease });
    },
    /**
     * Records one attempt, and the delivery's new state if the lease `lease` is still ours
     * (a worker whose lease was taken over records the attempt but changes nothing else).
     */
    async recordAttempt(
      delivery: Pick<DeliveryRow, 'id' | 'status' | 'next_attempt_at' | 'last_attempt_at'> & {
        lease: number | null;
        last_response_status: number | null;
        last_error: string | null;
        /** Shown to the integrator: `null` when no HTTP answer came (see deliver.ts). */
        last_duration_ms: number | null;
        /** Kept in the attempts table for operators. */
        duration_ms: number;
      },
    ): Promise<void> {
      await recordAttempt.run(
        delivery.id,
        delivery.last_attempt_at,
        delivery.last_response_status,
        delivery.duration_ms,
        delivery.last_error,
      );
      const { duration_ms: _kept, ...state } = delivery;
      await finishAttempt.run(state);
    },
    async countEndpoints(accountId: string, mode: Mode): Promise<number> {
      return ((await countEndpoints.get(accountId, mode)) as { n: number }).n;
    },
    /** The circuit breaker's state of an endpoint (its secrets left sealed and unread). */
    async endpointHealth(
      id: string,
    ): Promise<{ consecutive_failures: number; paused_until: number | null } | undefined> {
      return healthOf.get(id);
    },
    /** Sets the circuit breaker's state of an endpoint. */
    async setEndpointHealth(
      id: string,
      consecutiveFailures: number,
      pausedUntil: number | null,
    ): Promise<void> {
      await endpointHealth.run(consecutiveFailures, pausedUntil, id);
    },
    async pendingDeliveries(): Promise<number> {
      return ((await pendingCount.get()) as { n: number }).n;
    },
  };
}
