/**
 * Attack: someone gets a copy of the database (a backup, a stolen disk, a misplaced support
 * dump): on SQLite the file and its WAL, on PostgreSQL a dump of every table. They must find no
 * usable secret in it: no API key, no webhook signing secret, not in a table, not in an
 * idempotency record, and not the key that seals the signing secrets.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/observability/logger.js';
import { createSecretBox, secretsKeyFilePath } from '../../server/storage/secret-box.js';
import { queryRows, runSql } from '../support/database.js';
import {
  type ApiResponse,
  startServiceOn,
  startTestServer,
  type TestServer,
  testEngine,
  useTestServer,
} from '../support/server.js';

/** The endpoints registered here are on 127.0.0.1 (never called: port 9 is discard). */
const allowLocalReceivers = { WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' };

/** Every byte an attacker with a copy of the SQLite database would have: the file and its WAL. */
function databaseBytes(dbPath: string): string {
  const parts = [dbPath, `${dbPath}-wal`, `${dbPath}-journal`]
    .filter((p) => existsSync(p))
    .map((p) => readFileSync(p).toString('latin1'));
  return parts.join('\n');
}

/** A value of a dumped row as an attacker reads it: bytes as they are, everything else as text. */
function dumped(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * What a copy of the server's database holds. SQLite: the bytes of the file and its WAL.
 * PostgreSQL: a dump, every column of every row of every table of the schema, read as the
 * database's owner would.
 */
async function databaseContents(server: TestServer): Promise<string> {
  if (testEngine === 'sqlite') return databaseBytes(server.dbPath);
  const tables = await queryRows<{ table_name: string }>(
    server,
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const parts: string[] = [];
  for (const { table_name: table } of tables) {
    const rows = await queryRows<Record<string, unknown>>(server, `SELECT * FROM "${table}"`);
    for (const row of rows) parts.push(`${table}: ${Object.values(row).map(dumped).join('\t')}`);
  }
  return parts.join('\n');
}

/** The key that seals the signing secrets, as 64 hex characters: SQLite's key file, or PostgreSQL's SECRETS_ENCRYPTION_KEY. */
function sealingKey(server: TestServer): string {
  if (testEngine === 'postgres') return server.databaseEnv.SECRETS_ENCRYPTION_KEY as string;
  return readFileSync(secretsKeyFilePath(server.dbPath), 'utf8').trim();
}

describe('a copy of the database holds no usable secret', () => {
  let server: TestServer;
  const revealed: string[] = [];
  let logged = '';

  beforeAll(async () => {
    // Every log line the server writes, at the most verbose level.
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk.toString('utf8');
        done();
      },
    });
    server = await startTestServer(allowLocalReceivers, {
      logger: createLogger({ level: 'trace', destination: sink }),
    });
    revealed.push(server.account.testKey, server.account.liveKey);
    const endpoint = await server.raw('POST', '/webhook-endpoints', {
      body: { url: 'http://127.0.0.1:9/hook', description: 'at rest' },
      headers: { 'idempotency-key': 'create-endpoint-1' },
    });
    expect(endpoint.status).toBe(201);
    revealed.push(endpoint.body.data.secret);
    const rotated = await server.raw('POST', `/webhook-endpoints/${endpoint.body.data.id}/rotate-secret`, {
      headers: { 'idempotency-key': 'rotate-secret-1' },
    });
    expect(rotated.status).toBe(200);
    revealed.push(rotated.body.data.secret);
    const key = await server.raw('POST', '/api-keys/rotate', {
      body: { grace_period_seconds: 3600 },
      headers: { 'idempotency-key': 'rotate-key-1' },
    });
    expect(key.status).toBe(201);
    revealed.push(key.body.data.secret_key);
  });
  afterAll(() => server.close());

  it('no copy of the database (SQLite: the file and its WAL; PostgreSQL: a dump of every table) contains any key or signing secret, nor their random part', async () => {
    const bytes = await databaseContents(server);
    expect(bytes.length).toBeGreaterThan(0);
    // The copy does hold the rows that keep them: the signing secrets, sealed ('v1.' ciphertext).
    expect(bytes).toContain('v1.');
    if (testEngine === 'sqlite') expect(existsSync(`${server.dbPath}-wal`)).toBe(true);
    for (const secret of revealed) {
      expect(secret).toMatch(/^(sk_(live|test)_|whsec_)[0-9A-Za-z]{32}$/);
      expect(bytes).not.toContain(secret);
      // Not even the random part, in case a prefix was stripped before storing.
      expect(bytes).not.toContain(secret.slice(-32));
    }
    expect(bytes).not.toMatch(/whsec_[0-9A-Za-z]{32}/);
    expect(bytes).not.toMatch(/sk_(live|test)_[0-9A-Za-z]{32}/);
  });

  it('no log line holds one either, and the call log keeps none', async () => {
    await server.flushLogs();
    expect(logged.length).toBeGreaterThan(0);
    for (const secret of revealed) expect(logged).not.toContain(secret.slice(-32));
    const calls = await server.raw('GET', '/logs', { query: { limit: 100 } });
    for (const secret of revealed) expect(calls.text).not.toContain(secret.slice(-32));
  });

  it("still holds none after the store's housekeeping (SQLite: a checkpoint moves the WAL into the file)", async () => {
    await server.service.deps.store.checkpoint();
    const bytes = await databaseContents(server);
    for (const secret of revealed) expect(bytes).not.toContain(secret.slice(-32));
  });

  it('the key that seals the signing secrets is not in the database, in hex nor as bytes', async () => {
    const key = sealingKey(server);
    expect(key).toMatch(/^[0-9a-f]{64}$/i);
    const bytes = await databaseContents(server);
    expect(bytes.toLowerCase()).not.toContain(key.toLowerCase());
    expect(bytes).not.toContain(Buffer.from(key, 'hex').toString('latin1'));
  });

  // PostgreSQL has no key file: its key comes from SECRETS_ENCRYPTION_KEY (required with
  // DATABASE_URL), and the test above checks it is not in the database.
  it.skipIf(testEngine === 'postgres')(
    'SQLite: the key lives in a file beside the database, readable by its owner only',
    () => {
      const keyFile = secretsKeyFilePath(server.dbPath);
      expect(existsSync(keyFile)).toBe(true);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    },
  );

  it('deliveries are still signed with the secret the integrator was shown', async () => {
    // The endpoint was rotated; the secret shown by the rotation is the one the worker reads back.
    const endpoints = await server.service.deps.store.read(async (tx) =>
      tx.endpoints.list(server.account.accountId, 'test', { limit: 10 }),
    );
    expect(endpoints.items.map((e) => e.secret)).toContain(revealed[3]);
  });
});

describe('a replay of a secret-bearing request does not reveal the secret again', () => {
  const server = useTestServer(allowLocalReceivers);

  const replayCases: Array<{
    name: string;
    call: (s: TestServer, key: string) => Promise<{ secret: string; id: string; firstStatus: number }>;
    replay: (s: TestServer, key: string) => Promise<ApiResponse>;
  }> = [
    {
      name: 'POST /webhook-endpoints',
      call: async (s, key) => {
        const r = await s.raw('POST', '/webhook-endpoints', {
          body: { url: 'http://127.0.0.1:9/replay' },
          headers: { 'idempotency-key': key },
        });
        return { secret: r.body.data.secret, id: r.body.data.id, firstStatus: r.status };
      },
      replay: (s, key) =>
        s.raw('POST', '/webhook-endpoints', {
          body: { url: 'http://127.0.0.1:9/replay' },
          headers: { 'idempotency-key': key },
        }),
    },
    {
      name: 'POST /webhook-endpoints/{id}/rotate-secret',
      call: async (s, key) => {
        const created = await s.raw('POST', '/webhook-endpoints', {
          body: { url: 'http://127.0.0.1:9/r' },
        });
        const r = await s.raw('POST', `/webhook-endpoints/${created.body.data.id}/rotate-secret`, {
          headers: { 'idempotency-key': key },
        });
        (replayCases[1] as { endpointId?: string }).endpointId = created.body.data.id;
        return { secret: r.body.data.secret, id: r.body.data.id, firstStatus: r.status };
      },
      replay: (s, key) =>
        s.raw(
          'POST',
          `/webhook-endpoints/${(replayCases[1] as { endpointId?: string }).endpointId}/rotate-secret`,
          {
            headers: { 'idempotency-key': key },
          },
        ),
    },
    {
      name: 'POST /api-keys/rotate (with a grace period, so the calling key still works)',
      call: async (s, key) => {
        const r = await s.raw('POST', '/api-keys/rotate', {
          body: { grace_period_seconds: 600 },
          headers: { 'idempotency-key': key },
        });
        return { secret: r.body.data.secret_key, id: r.body.data.api_key.id, firstStatus: r.status };
      },
      replay: (s, key) =>
        s.raw('POST', '/api-keys/rotate', {
          body: { grace_period_seconds: 600 },
          headers: { 'idempotency-key': key },
        }),
    },
  ];

  for (const [index, replayCase] of replayCases.entries()) {
    it(`${replayCase.name}: the first answer shows it once with no-store; a retry gets 409 secret_not_replayed naming the object`, async () => {
      const key = `replay-secret-${index}`;
      const first = await replayCase.call(server, key);
      expect([200, 201]).toContain(first.firstStatus);
      const again = await replayCase.replay(server, key);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('secret_not_replayed');
      expect(again.body.error.message).toContain(first.id);
      expect(again.body.error.request_id).toBe(again.headers.get('x-request-id'));
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('cache-control')).toBe('no-store');
      expect(again.text).not.toContain(first.secret);
      expect(again.text).not.toContain(first.secret.slice(-32));
      // And nothing was done twice: the replay created nothing.
      const rows = await server.service.deps.store.read(async (tx) =>
        tx.idempotency.find(server.account.accountId, 'test', key, 0),
      );
      expect(rows?.body).not.toContain(first.secret.slice(-32));
    });
  }

  it('the responses that reveal a secret tell caches not to keep them', async () => {
    const created = await server.raw('POST', '/webhook-endpoints', {
      body: { url: 'http://127.0.0.1:9/c' },
    });
    expect(created.headers.get('cache-control')).toBe('no-store');
    const rotated = await server.raw('POST', `/webhook-endpoints/${created.body.data.id}/rotate-secret`);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const other = await server.newAccount('no-store');
    const key = await server.raw('POST', '/api-keys/rotate', { as: other.test });
    expect(key.status).toBe(201);
    expect(key.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the key-encryption key', () => {
  it('is required in production, and a malformed one is refused at start-up', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRETS_ENCRYPTION_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'development', SECRETS_ENCRYPTION_KEY: 'short' })).toThrow(
      /SECRETS_ENCRYPTION_KEY/,
    );
    const config = loadConfig({ NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: 'ab'.repeat(32) });
    expect(config.secretsEncryptionKey?.length).toBe(32);
  });

  it('a sealed secret copied onto another row, or opened with another key, does not open', () => {
    const box = createSecretBox(Buffer.alloc(32, 1));
    const sealed = box.seal('whsec_abc', 'we_1');
    expect(box.open(sealed, 'we_1')).toBe('whsec_abc');
    // Asked again after opening it once (the box remembers what it opened, per row).
    expect(() => box.open(sealed, 'we_2')).toThrow();
    expect(box.open(sealed, 'we_1')).toBe('whsec_abc');
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    expect(() => box.open(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`, 'we_1')).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 2)).open(sealed, 'we_1')).toThrow();
  });
});

/** A stored response as the versions before sealed secrets kept it: the secret revealed. */
function revealingResponse(id: string, secret: string): string {
  return JSON.stringify({ status: 'success', data: { id, secret } });
}

/** Stores a response under `key` from outside the server, as an older version wrote one. */
function storeResponse(server: TestServer, key: string, body: string): Promise<number> {
  return runSql(
    server,
    `INSERT INTO idempotency_keys (account_id, mode, key, fingerprint, status_code, body, created_at)
     VALUES (?, 'test', ?, 'f', 201, ?, ?)`,
    server.account.accountId,
    key,
    body,
    Date.now(),
  );
}

async function storedKeys(server: TestServer): Promise<string[]> {
  const rows = await queryRows<{ key: string }>(
    server,
    'SELECT key FROM idempotency_keys WHERE account_id = ? ORDER BY key',
    server.account.accountId,
  );
  return rows.map((row) => row.key);
}

/** The SQLite file of `server` (closed) as the versions before migration 009 left it. */
async function undoMigration9(server: TestServer): Promise<void> {
  for (const statement of [
    // Migration 017's tables and columns, gone.
    'DROP TABLE dashboard_challenges',
    'DROP TABLE dashboard_recovery_codes',
    'ALTER TABLE dashboard_users DROP COLUMN totp_secret',
    'ALTER TABLE dashboard_users DROP COLUMN totp_enabled_at',
    'ALTER TABLE dashboard_users DROP COLUMN totp_last_step',
    'ALTER TABLE accounts DROP COLUMN owners_need_two_step',
    // Migration 016's table, index and column, gone.
    'DROP TABLE dashboard_reset_requests',
    'DROP INDEX dashboard_links_by_user',
    'ALTER TABLE dashboard_links DROP COLUMN purpose',
    // Migration 014's columns and indexes, gone.
    'DROP INDEX payments_by_reference',
    'DROP INDEX payouts_by_reference',
    'DROP INDEX topups_by_reference',
    'ALTER TABLE payments DROP COLUMN metadata',
    'ALTER TABLE payouts DROP COLUMN metadata',
    'ALTER TABLE topups DROP COLUMN metadata',
    // Migration 013's column, gone.
    'ALTER TABLE accounts DROP COLUMN time_zone',
    // Migration 012's tables, gone, and on PostgreSQL its columns of payouts (SQLite's 012
    // rebuilds the payouts table from the columns before it, so its own are left).
    'DROP TABLE bank_statements',
    'DROP TABLE bank_batches',
    ...(testEngine === 'postgres'
      ? [
          'DROP INDEX payouts_unbatched',
          'DROP INDEX payouts_by_bank_batch',
          'ALTER TABLE payouts DROP CONSTRAINT payouts_one_recipient',
          'ALTER TABLE payouts DROP COLUMN recipient_iban, DROP COLUMN recipient_name, DROP COLUMN recipient_bic, DROP COLUMN bank_batch_id',
          'ALTER TABLE payouts ADD CONSTRAINT payouts_check CHECK ((recipient_msisdn IS NULL) <> (recipient_wallet_id IS NULL))',
        ]
      : []),
    // Migration 011's columns and indexes, gone.
    'DROP INDEX dashboard_sign_ins_by_pair',
    'DROP INDEX dashboard_sign_ins_by_attempt',
    'ALTER TABLE dashboard_sign_ins DROP COLUMN attempt_id',
    'ALTER TABLE api_keys DROP COLUMN role',
    // Migration 010's dropped indexes, back.
    "CREATE INDEX payments_by_operator_ref ON payments(operator_ref) WHERE status = 'initiated'",
    "CREATE INDEX topups_by_operator_ref ON topups(operator_ref) WHERE status = 'initiated'",
    "CREATE INDEX payouts_by_operator_ref ON payouts(operator_ref) WHERE status = 'pending'",
    'DROP TRIGGER idempotency_keys_forget_revealed_on_insert',
    'DROP TRIGGER idempotency_keys_forget_revealed_on_update',
    'DROP TABLE scrub_pending',
    'PRAGMA user_version = 8',
  ]) {
    await runSql(server, statement);
  }
}

describe('a stored response that reveals a secret', () => {
  // Whichever version or client writes it: the versions before sealed secrets stored the
  // response whole, and an older version opens a newer file without complaint. The database
  // itself forgets it (migration 009's triggers), on both engines.
  it('is forgotten as it is written or rewritten, and other stored responses are kept', async () => {
    const server = await startTestServer(allowLocalReceivers);
    try {
      const created = await server.raw('POST', '/webhook-endpoints', {
        body: { url: 'http://127.0.0.1:9/later' },
      });
      const secret = created.body.data.secret as string;
      const id = created.body.data.id as string;
      expect(await storeResponse(server, 'inserted', revealingResponse(id, secret))).toBe(1);
      expect(
        await storeResponse(server, 'api-key', JSON.stringify({ data: { secret_key: 'sk_test_abc' } })),
      ).toBe(1);
      // The same words inside a value, as JSON escapes them, are not a revealed secret.
      const lookalike = JSON.stringify({ data: { reference: '"secret":"whsec_x' } });
      expect(await storeResponse(server, 'lookalike', lookalike)).toBe(1);
      expect(await storeResponse(server, 'rewritten', JSON.stringify({ data: { id } }))).toBe(1);
      expect(
        await runSql(
          server,
          "UPDATE idempotency_keys SET body = ? WHERE account_id = ? AND key = 'rewritten'",
          revealingResponse(id, secret),
          server.account.accountId,
        ),
      ).toBe(1);

      expect(await storedKeys(server)).toEqual(['lookalike']);
      expect(await queryRows(server, 'SELECT id FROM scrub_pending')).toEqual([{ id: 1 }]);
      if (testEngine === 'sqlite') {
        // The writing connection had no secure_delete, as an older version's had not: the
        // bytes are still in a free part of a page until the next start rebuilds the file.
        expect(databaseBytes(server.dbPath)).toContain(secret.slice(-32));
        await server.service.close();
        const service = await startServiceOn(server, allowLocalReceivers);
        try {
          expect(databaseBytes(server.dbPath)).not.toContain(secret.slice(-32));
          expect(await queryRows(server, 'SELECT id FROM scrub_pending')).toEqual([]);
          // Keys made before roles existed (migration 011) keep full access (decision 0030).
          expect(await queryRows(server, 'SELECT DISTINCT role FROM api_keys')).toEqual([{ role: 'full' }]);
        } finally {
          await service.close();
        }
      }
    } finally {
      await server.close();
    }
  });
});

describe('upgrading a database written by an older version', () => {
  // SQLite only: the versions that stored secrets in clear ran on SQLite alone. A PostgreSQL
  // database was only ever written by versions that seal them, and opening one runs no such
  // clean-up (server/storage/open-store.ts): there is nothing older to upgrade on that engine.
  it.skipIf(testEngine === 'postgres')(
    'seals the signing secrets it stored in clear, forgets stored responses that revealed one, and leaves none in the file or the WAL',
    async () => {
      const server = await startTestServer(allowLocalReceivers);
      const dbPath = server.dbPath;
      const created = await server.raw('POST', '/webhook-endpoints', {
        body: { url: 'http://127.0.0.1:9/old' },
      });
      const secret = created.body.data.secret as string;
      const id = created.body.data.id as string;
      await server.service.close();

      // The file as the version before migration 009 left it: no triggers, no mark...
      await undoMigration9(server);
      // ...and what an older version before sealed secrets wrote there: the secret in clear, in
      // the table and in the stored response of an idempotent request.
      expect(await runSql(server, 'UPDATE webhook_endpoints SET secret = ? WHERE id = ?', secret, id)).toBe(
        1,
      );
      expect(await storeResponse(server, 'old-version', revealingResponse(id, secret))).toBe(1);
      expect(databaseBytes(dbPath)).toContain(secret);

      const service = await startServiceOn(server, allowLocalReceivers);
      try {
        expect(databaseBytes(dbPath)).not.toContain(secret.slice(-32));
        const row = await service.deps.store.read(async (tx) => tx.endpoints.byId(id));
        expect(row?.secret).toBe(secret);
        expect(await storedKeys(server)).toEqual([]);
        expect(await queryRows(server, 'SELECT id FROM scrub_pending')).toEqual([]);
      } finally {
        await service.close();
        await server.close();
      }
    },
  );

  it.skipIf(testEngine === 'postgres')(
    'forgets a stored response that revealed a secret even when no secret is in clear',
    async () => {
      const server = await startTestServer(allowLocalReceivers);
      const created = await server.raw('POST', '/webhook-endpoints', {
        body: { url: 'http://127.0.0.1:9/old' },
      });
      const secret = created.body.data.secret as string;
      await server.service.close();
      await undoMigration9(server);
      await storeResponse(server, 'old-version', revealingResponse(created.body.data.id as string, secret));
      await storeResponse(server, 'kept', JSON.stringify({ data: { id: 'pay_1' } }));
      expect(databaseBytes(server.dbPath)).toContain(secret);

      const service = await startServiceOn(server, allowLocalReceivers);
      try {
        expect(databaseBytes(server.dbPath)).not.toContain(secret.slice(-32));
        expect(await storedKeys(server)).toEqual(['kept']);
        // The upgrade added the triggers: what an older version writes from now on is forgotten.
        expect(await storeResponse(server, 'later', revealingResponse('we_2', 'whsec_later'))).toBe(1);
        expect(await storedKeys(server)).toEqual(['kept']);
      } finally {
        await service.close();
        await server.close();
      }
    },
  );
});
