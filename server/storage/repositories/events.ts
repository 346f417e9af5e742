import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { DeliveryRow, EventRow, Mode, WebhookEndpointRow } from '../rows.js';
import type { SecretBox } from '../secret-box.js';

/** An endpoint with a due delivery, and what fair selection needs to know of it. */
export interface DueEndpoint {
  endpoint_id: string;
  account_id: string;
  consecutive_failures: number;
}

/**
 * Events, the webhook endpoints they go to, and the outbox of deliveries between them.
 * Endpoint signing secrets are sealed on the way in and opened on the way out, so the rows
 * callers see hold the usable secret and the table holds only ciphertext.
 */
export function eventsRepository(db: Db, page: Pager, box: SecretBox) {
  const insertEvent = db.prepare(
    `INSERT INTO events (id, account_id, mode, event, transaction_id, payload, created_at)
     VALUES (@id, @account_id, @mode, @event, @transaction_id, @payload, @created_at)`,
  );
  const getEvent = db.prepare('SELECT * FROM events WHERE id = ? AND account_id = ? AND mode = ?');
  const eventById = db.prepare('SELECT * FROM events WHERE id = ?');
  const insertEndpoint = db.prepare(
    `INSERT INTO webhook_endpoints (id, account_id, mode, url, events, description, status, secret,
       previous_secret, previous_secret_expires_at, created_at, updated_at, deleted_at)
     VALUES (@id, @account_id, @mode, @url, @events, @description, @status, @secret, @previous_secret,
       @previous_secret_expires_at, @created_at, @updated_at, @deleted_at)`,
  );
  const getEndpoint = db.prepare(
    'SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ? AND mode = ? AND deleted_at IS NULL',
  );
  const endpointById = db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?');
  const updateEndpoint = db.prepare(
    `UPDATE webhook_endpoints SET url = @url, events = @events, description = @description, status = @status,
       secret = @secret, previous_secret = @previous_secret, previous_secret_expires_at = @previous_secret_expires_at,
       updated_at = @updated_at, deleted_at = @deleted_at WHERE id = @id`,
  );
  const countEndpoints = db.prepare(
    'SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ? AND mode = ? AND deleted_at IS NULL',
  );
  const endpointHealth = db.prepare(
    'UPDATE webhook_endpoints SET consecutive_failures = ?, paused_until = ? WHERE id = ?',
  );
  const enabledEndpoints = db.prepare(
    `SELECT * FROM webhook_endpoints WHERE account_id = ? AND mode = ? AND status = 'enabled' AND deleted_at IS NULL
      ORDER BY seq`,
  );
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, 'pending', 0, ?, ?)`,
  );
  const deliveryById = db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?');
  const cancelDeliveries = db.prepare(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'endpoint deleted'
      WHERE endpoint_id = ? AND status = 'pending'`,
  );
  // Endpoints of one mode, not paused, with a due and unlocked delivery, oldest first, leaving
  // out those (and the accounts) that have no free slot: JSON arrays of ids. Each endpoint's
  // oldest due delivery is found through the pending-by-endpoint index.
  const dueEndpoints = db.prepare(
    `SELECT endpoint_id, account_id, consecutive_failures FROM (
       SELECT e.id AS endpoint_id, e.account_id, e.consecutive_failures,
              (SELECT d.next_attempt_at FROM webhook_deliveries d
                WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= @now
                  AND (d.locked_until IS NULL OR d.locked_until <= @now)
                ORDER BY d.next_attempt_at LIMIT 1) AS oldest
         FROM webhook_endpoints e
        WHERE e.mode = @mode AND (e.paused_until IS NULL OR e.paused_until <= @now)
          AND e.id NOT IN (SELECT value FROM json_each(@busy_endpoints))
          AND e.account_id NOT IN (SELECT value FROM json_each(@busy_accounts)))
      WHERE oldest IS NOT NULL ORDER BY oldest`,
  );
  const dueDeliveriesOf = db.prepare(
    `SELECT id FROM webhook_deliveries
      WHERE endpoint_id = @endpoint_id AND status = 'pending' AND next_attempt_at <= @now
        AND (locked_until IS NULL OR locked_until <= @now)
        AND id NOT IN (SELECT value FROM json_each(@busy_deliveries))
      ORDER BY next_attempt_at, seq LIMIT @limit`,
  );
  const expireDeliveries = db.prepare(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
       last_error = 'Given up: the endpoint kept failing for the whole retry period.'
      WHERE endpoint_id = ? AND status = 'pending' AND created_at <= ? AND (locked_until IS NULL OR locked_until <= ?)`,
  );
  const lockDelivery = db.prepare(
    `UPDATE webhook_deliveries SET locked_until = @lock_until
      WHERE id = @id AND status = 'pending' AND (locked_until IS NULL OR locked_until <= @now)`,
  );
  const recordAttempt = db.prepare(
    `INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const finishAttempt = db.prepare(
    `UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, next_attempt_at = @next_attempt_at,
       locked_until = NULL, last_attempt_at = @last_attempt_at, last_response_status = @last_response_status,
       last_error = @last_error, last_duration_ms = @last_duration_ms
      WHERE id = @id AND status = 'pending' AND locked_until IS @lease`,
  );
  const pendingCount = db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
  const allEndpointSecrets = db.prepare('SELECT id, secret FROM webhook_endpoints');
  const anyClearSecret = db.prepare("SELECT 1 FROM webhook_endpoints WHERE secret NOT LIKE 'v1.%' LIMIT 1");
  const setEndpointSecret = db.prepare('UPDATE webhook_endpoints SET secret = ? WHERE id = ?');

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
    insertEvent(row: Omit<EventRow, 'seq'>): void {
      insertEvent.run(row);
    },
    getEvent(accountId: string, mode: Mode, id: string): EventRow | undefined {
      return getEvent.get(id, accountId, mode) as EventRow | undefined;
    },
    eventById(id: string): EventRow | undefined {
      return eventById.get(id) as EventRow | undefined;
    },
    listEvents(accountId: string, mode: Mode, filters: Condition[], request: PageRequest) {
      return page<EventRow>(
        'events',
        [['account_id = ?', accountId], ['mode = ?', mode], ...filters],
        request,
      );
    },
    insertEndpoint(row: Omit<WebhookEndpointRow, 'seq' | 'consecutive_failures' | 'paused_until'>): void {
      insertEndpoint.run(sealed(row));
    },
    getEndpoint(accountId: string, mode: Mode, id: string): WebhookEndpointRow | undefined {
      return opened(getEndpoint.get(id, accountId, mode) as WebhookEndpointRow | undefined);
    },
    endpointById(id: string): WebhookEndpointRow | undefined {
      return opened(endpointById.get(id) as WebhookEndpointRow | undefined);
    },
    updateEndpoint(row: WebhookEndpointRow): void {
      updateEndpoint.run(sealed(row));
    },
    listEndpoints(accountId: string, mode: Mode, request: PageRequest) {
      const result = page<WebhookEndpointRow>(
        'webhook_endpoints',
        [['account_id = ?', accountId], ['mode = ?', mode], ['deleted_at IS NULL']],
        request,
      );
      return { ...result, items: result.items.map((row) => opened(row) as WebhookEndpointRow) };
    },
    enabledEndpoints(accountId: string, mode: Mode): WebhookEndpointRow[] {
      return (enabledEndpoints.all(accountId, mode) as WebhookEndpointRow[]).map(
        (row) => opened(row) as WebhookEndpointRow,
      );
    },
    /** Whether an older version left a secret in clear (a read: a read-only file stays usable). */
    hasClearSecrets(): boolean {
      return anyClearSecret.get() !== undefined;
    },
    /** Seals the secrets an older version stored in clear; returns how many it sealed. */
    sealClearSecrets(): number {
      let count = 0;
      for (const row of allEndpointSecrets.all() as Array<{ id: string; secret: string }>) {
        if (box.isSealed(row.secret)) continue;
        setEndpointSecret.run(box.seal(row.secret, row.id), row.id);
        count += 1;
      }
      return count;
    },
    insertDelivery(id: string, eventId: string, endpointId: string, dueAt: number, now: number): void {
      insertDelivery.run(id, eventId, endpointId, dueAt, now);
    },
    delivery(id: string): DeliveryRow | undefined {
      return deliveryById.get(id) as DeliveryRow | undefined;
    },
    listDeliveries(eventId: string, request: PageRequest) {
      return page<DeliveryRow>('webhook_deliveries', [['event_id = ?', eventId]], request);
    },
    cancelDeliveries(endpointId: string): void {
      cancelDeliveries.run(endpointId);
    },
    /** Endpoints with a due delivery that could start now, oldest due first. Nothing is locked. */
    dueEndpoints(query: {
      now: number;
      mode: Mode;
      busyEndpoints: string[];
      busyAccounts: string[];
    }): DueEndpoint[] {
      return dueEndpoints.all({
        now: query.now,
        mode: query.mode,
        busy_endpoints: JSON.stringify(query.busyEndpoints),
        busy_accounts: JSON.stringify(query.busyAccounts),
      }) as DueEndpoint[];
    },
    /**
     * The ids of an endpoint's oldest due, unlocked deliveries, at most `limit`, leaving out
     * `busyDeliveries` (in flight in this process, whatever the clock says of their lease).
     */
    dueDeliveriesOf(query: {
      endpointId: string;
      now: number;
      limit: number;
      busyDeliveries: string[];
    }): string[] {
      if (query.limit <= 0) return [];
      return (
        dueDeliveriesOf.all({
          endpoint_id: query.endpointId,
          now: query.now,
          limit: query.limit,
          busy_deliveries: JSON.stringify(query.busyDeliveries),
        }) as { id: string }[]
      ).map((row) => row.id);
    },
    /**
     * Gives up an endpoint's pending deliveries created at or before `createdBefore` that are
     * not in flight: those a paused endpoint kept from being attempted past the retry period.
     */
    expireDeliveries(endpointId: string, createdBefore: number, now: number): number {
      return expireDeliveries.run(endpointId, createdBefore, now).changes;
    },
    /** Leases one delivery until `lockUntil`; false if it is no longer pending and free. */
    lockDelivery(id: string, now: number, lockUntil: number): boolean {
      return lockDelivery.run({ id, now, lock_until: lockUntil }).changes === 1;
    },
    /**
     * Records one attempt, and the delivery's new state if the lease `lease` is still ours
     * (a worker whose lease was taken over records the attempt but changes nothing else).
     */
    recordAttempt(
      delivery: Pick<DeliveryRow, 'id' | 'status' | 'next_attempt_at' | 'last_attempt_at'> & {
        lease: number | null;
        last_response_status: number | null;
        last_error: string | null;
        /** Shown to the integrator: `null` when no HTTP answer came (see deliver.ts). */
        last_duration_ms: number | null;
        /** Kept in the attempts table for operators. */
        duration_ms: number;
      },
    ): void {
      recordAttempt.run(
        delivery.id,
        delivery.last_attempt_at,
        delivery.last_response_status,
        delivery.duration_ms,
        delivery.last_error,
      );
      const { duration_ms: _kept, ...state } = delivery;
      finishAttempt.run(state);
    },
    countEndpoints(accountId: string, mode: Mode): number {
      return (countEndpoints.get(accountId, mode) as { n: number }).n;
    },
    /** The circuit breaker's state of an endpoint. */
    setEndpointHealth(id: string, consecutiveFailures: number, pausedUntil: number | null): void {
      endpointHealth.run(consecutiveFailures, pausedUntil, id);
    },
    pendingDeliveries(): number {
      return (pendingCount.get() as { n: number }).n;
    },
  };
}
