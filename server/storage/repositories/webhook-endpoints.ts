import type { PageRequest, Pager } from '../pagination.js';
import type { Mode, WebhookEndpointRow } from '../rows.js';
import type { SecretBox } from '../secret-box.js';
import type { SqlConnection } from '../sql.js';

/** An enabled endpoint and the events it subscribes to (`events`: a JSON array, null for all). */
export type EndpointSubscription = Pick<WebhookEndpointRow, 'id' | 'events'>;

/** An endpoint's circuit breaker as stored (server/webhooks/delivery-policy.ts decides it). */
export interface EndpointCircuit {
  consecutive_failures: number;
  paused_until: number | null;
}

/**
 * Webhook endpoints and their circuits. Signing secrets are sealed on the way in and opened on
 * the way out, so the rows callers see hold the usable secret and the table holds only
 * ciphertext.
 */
export function endpointsRepository(connection: SqlConnection, page: Pager, box: SecretBox) {
  const insert = connection.prepare(
    `INSERT INTO webhook_endpoints (id, account_id, mode, url, events, description, status, secret,
       previous_secret, previous_secret_expires_at, created_at, updated_at, deleted_at)
     VALUES (@id, @account_id, @mode, @url, @events, @description, @status, @secret, @previous_secret,
       @previous_secret_expires_at, @created_at, @updated_at, @deleted_at)`,
  );
  const get = connection.prepare<WebhookEndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ? AND mode = ? AND deleted_at IS NULL',
  );
  const byId = connection.prepare<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ?');
  const update = connection.prepare(
    `UPDATE webhook_endpoints SET url = @url, events = @events, description = @description, status = @status,
       secret = @secret, previous_secret = @previous_secret, previous_secret_expires_at = @previous_secret_expires_at,
       updated_at = @updated_at, deleted_at = @deleted_at WHERE id = @id`,
  );
  const count = connection.prepare<{ n: number }>(
    'SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ? AND mode = ? AND deleted_at IS NULL',
  );
  const setCircuit = connection.prepare(
    'UPDATE webhook_endpoints SET consecutive_failures = ?, paused_until = ? WHERE id = ?',
  );
  const circuit = connection.prepare<EndpointCircuit>(
    'SELECT consecutive_failures, paused_until FROM webhook_endpoints WHERE id = ?',
  );
  // Only what routing an event needs: no secret is opened for it.
  const enabled = connection.prepare<EndpointSubscription>(
    `SELECT id, events FROM webhook_endpoints
      WHERE account_id = ? AND mode = ? AND status = 'enabled' AND deleted_at IS NULL
      ORDER BY seq`,
  );
  const allSecrets = connection.prepare<{ id: string; secret: string }>(
    'SELECT id, secret FROM webhook_endpoints',
  );
  const anyClearSecret = connection.prepare(
    "SELECT 1 FROM webhook_endpoints WHERE secret NOT LIKE 'v1.%' LIMIT 1",
  );
  const setSecret = connection.prepare('UPDATE webhook_endpoints SET secret = ? WHERE id = ?');

  return {
    async insert(
      row: Omit<WebhookEndpointRow, 'seq' | 'consecutive_failures' | 'paused_until'>,
    ): Promise<void> {
      await insert.run(sealed(box, row));
    },
    /** The account's endpoint in `mode`, unless deleted. */
    async get(accountId: string, mode: Mode, id: string): Promise<WebhookEndpointRow | undefined> {
      return opened(box, await get.get(id, accountId, mode));
    },
    /** Any endpoint, deleted or not. */
    async byId(id: string): Promise<WebhookEndpointRow | undefined> {
      return opened(box, await byId.get(id));
    },
    async update(row: WebhookEndpointRow): Promise<void> {
      await update.run({ ...sealed(box, row) });
    },
    async list(accountId: string, mode: Mode, request: PageRequest) {
      const result = await page<WebhookEndpointRow>(
        'webhook_endpoints',
        [['account_id = ?', accountId], ['mode = ?', mode], ['deleted_at IS NULL']],
        request,
      );
      return { ...result, items: result.items.map((row) => opened(box, row) as WebhookEndpointRow) };
    },
    async count(accountId: string, mode: Mode): Promise<number> {
      return ((await count.get(accountId, mode)) as { n: number }).n;
    },
    /** The enabled endpoints of an account and mode, oldest first, with the events each takes. */
    async enabled(accountId: string, mode: Mode): Promise<EndpointSubscription[]> {
      return enabled.all(accountId, mode);
    },
    /** Whether an older version left a secret in clear (a read: a read-only file stays usable). */
    async hasClearSecrets(): Promise<boolean> {
      return (await anyClearSecret.get()) !== undefined;
    },
    /** Seals the secrets an older version stored in clear; returns how many it sealed. */
    async sealClearSecrets(): Promise<number> {
      let sealedCount = 0;
      for (const row of await allSecrets.all()) {
        if (box.isSealed(row.secret)) continue;
        await setSecret.run(box.seal(row.secret, row.id), row.id);
        sealedCount += 1;
      }
      return sealedCount;
    },
    /** The circuit breaker's state of an endpoint (its secrets left sealed and unread). */
    async circuit(id: string): Promise<EndpointCircuit | undefined> {
      return circuit.get(id);
    },
    async setCircuit(id: string, state: EndpointCircuit): Promise<void> {
      await setCircuit.run(state.consecutive_failures, state.paused_until, id);
    },
  };
}

// The previous secret (still signing during a rotation's overlap) is sealed like the current one.
function sealed<T extends { id: string; secret: string; previous_secret?: string | null }>(
  box: SecretBox,
  row: T,
): T {
  return {
    ...row,
    secret: box.seal(row.secret, row.id),
    ...(row.previous_secret ? { previous_secret: box.seal(row.previous_secret, row.id) } : {}),
  };
}

function opened(box: SecretBox, row: WebhookEndpointRow | undefined): WebhookEndpointRow | undefined {
  return (
    row && {
      ...row,
      secret: box.open(row.secret, row.id),
      previous_secret: row.previous_secret ? box.open(row.previous_secret, row.id) : row.previous_secret,
    }
  );
}
