import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { DeliveryRow, EventRow, Mode, WebhookEndpointRow } from '../rows.js';

/** A due delivery, with what fair selection needs to know of its endpoint. */
export interface DueCandidate {
  id: string;
  endpoint_id: string;
  account_id: string;
  mode: Mode;
  consecutive_failures: number;
}

/** Events, the webhook endpoints they go to, and the outbox of deliveries between them. */
export function eventsRepository(db: Db, page: Pager) {
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
  // Due, unlocked deliveries of one mode whose endpoint is not paused, oldest first, leaving out
  // the endpoints and accounts that have no free slot (JSON arrays of ids and `account:mode`).
  const dueCandidates = db.prepare(
    `SELECT d.id, d.endpoint_id, e.account_id, e.mode, e.consecutive_failures
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= @now
        AND (d.locked_until IS NULL OR d.locked_until <= @now)
        AND e.mode = @mode AND (e.paused_until IS NULL OR e.paused_until <= @now)
        AND d.endpoint_id NOT IN (SELECT value FROM json_each(@busy_endpoints))
        AND e.account_id NOT IN (SELECT value FROM json_each(@busy_accounts))
        AND d.id NOT IN (SELECT value FROM json_each(@busy_deliveries))
      ORDER BY d.next_attempt_at, d.seq LIMIT @limit`,
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
      insertEndpoint.run(row);
    },
    getEndpoint(accountId: string, mode: Mode, id: string): WebhookEndpointRow | undefined {
      return getEndpoint.get(id, accountId, mode) as WebhookEndpointRow | undefined;
    },
    endpointById(id: string): WebhookEndpointRow | undefined {
      return endpointById.get(id) as WebhookEndpointRow | undefined;
    },
    updateEndpoint(row: WebhookEndpointRow): void {
      updateEndpoint.run(row);
    },
    listEndpoints(accountId: string, mode: Mode, request: PageRequest) {
      return page<WebhookEndpointRow>(
        'webhook_endpoints',
        [['account_id = ?', accountId], ['mode = ?', mode], ['deleted_at IS NULL']],
        request,
      );
    },
    enabledEndpoints(accountId: string, mode: Mode): WebhookEndpointRow[] {
      return enabledEndpoints.all(accountId, mode) as WebhookEndpointRow[];
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
    /**
     * Due deliveries that could start now, oldest first: unlocked, their endpoint not paused,
     * and neither their endpoint nor their account among the `busy` ones. Nothing is locked.
     */
    dueCandidates(query: {
      now: number;
      mode: Mode;
      busyEndpoints: string[];
      busyAccounts: string[];
      /** In flight in this process: never claimed twice, whatever the clock says of leases. */
      busyDeliveries: string[];
      limit: number;
    }): DueCandidate[] {
      return dueCandidates.all({
        now: query.now,
        mode: query.mode,
        busy_endpoints: JSON.stringify(query.busyEndpoints),
        busy_accounts: JSON.stringify(query.busyAccounts),
        busy_deliveries: JSON.stringify(query.busyDeliveries),
        limit: query.limit,
      }) as DueCandidate[];
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
