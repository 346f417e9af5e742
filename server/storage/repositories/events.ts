import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { DeliveryRow, EventRow, Mode, WebhookEndpointRow } from '../rows.js';
import type { SecretBox } from '../secret-box.js';

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
    `INSERT INTO webhook_endpoints (id, account_id, mode, url, events, description, status, secret, created_at,
       updated_at, deleted_at)
     VALUES (@id, @account_id, @mode, @url, @events, @description, @status, @secret, @created_at, @updated_at,
       @deleted_at)`,
  );
  const getEndpoint = db.prepare(
    'SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ? AND mode = ? AND deleted_at IS NULL',
  );
  const endpointById = db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?');
  const updateEndpoint = db.prepare(
    `UPDATE webhook_endpoints SET url = @url, events = @events, description = @description, status = @status,
       secret = @secret, updated_at = @updated_at, deleted_at = @deleted_at WHERE id = @id`,
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
  const claimDue = db.prepare(
    `UPDATE webhook_deliveries SET locked_until = ?
      WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
                     AND (locked_until IS NULL OR locked_until <= ?) ORDER BY next_attempt_at LIMIT ?)
      RETURNING *`,
  );
  const recordAttempt = db.prepare(
    `INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const finishAttempt = db.prepare(
    `UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, next_attempt_at = @next_attempt_at,
       locked_until = NULL, last_attempt_at = @last_attempt_at, last_response_status = @last_response_status,
       last_error = @last_error, last_duration_ms = @last_duration_ms
      WHERE id = @id AND status = 'pending'`,
  );
  const pendingCount = db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
  const allEndpointSecrets = db.prepare('SELECT id, secret FROM webhook_endpoints');
  const anyClearSecret = db.prepare("SELECT 1 FROM webhook_endpoints WHERE secret NOT LIKE 'v1.%' LIMIT 1");
  const setEndpointSecret = db.prepare('UPDATE webhook_endpoints SET secret = ? WHERE id = ?');

  const sealed = <T extends { id: string; secret: string }>(row: T): T => ({
    ...row,
    secret: box.seal(row.secret, row.id),
  });
  const opened = (row: WebhookEndpointRow | undefined): WebhookEndpointRow | undefined =>
    row && { ...row, secret: box.open(row.secret, row.id) };

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
    insertEndpoint(row: Omit<WebhookEndpointRow, 'seq'>): void {
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
    /** Locks up to `limit` due deliveries until `lockUntil`, so one worker sends each. */
    claimDue(now: number, lockUntil: number, limit: number): DeliveryRow[] {
      return claimDue.all(lockUntil, now, now, limit) as DeliveryRow[];
    },
    recordAttempt(
      delivery: Pick<DeliveryRow, 'id' | 'status' | 'next_attempt_at' | 'last_attempt_at'> & {
        last_response_status: number | null;
        last_error: string | null;
        last_duration_ms: number;
      },
    ): void {
      recordAttempt.run(
        delivery.id,
        delivery.last_attempt_at,
        delivery.last_response_status,
        delivery.last_duration_ms,
        delivery.last_error,
      );
      finishAttempt.run(delivery);
    },
    pendingDeliveries(): number {
      return (pendingCount.get() as { n: number }).n;
    },
  };
}
