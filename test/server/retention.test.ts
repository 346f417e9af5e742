/**
 * Retention deletes what expired a bounded batch at a time (server/domain/retention.ts): one
 * statement deleting an hour of call logs held the only writer, and every request behind it,
 * for as long as it took. A backlog of expired call logs and idempotency records drains in
 * full batches, the oldest first, each pass saying there is more until one is not full; the
 * young rows stay.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { retention, retentionBatch, retentionCheckMs } from '../../server/domain/retention.js';
import { settlementPass } from '../../server/workers/settlement-worker.js';
import { queryRows, runSql } from '../support/database.js';
import { startTestServer, type TestServer } from '../support/server.js';

const day = 86_400_000;

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ LOG_RETENTION_DAYS: '30' });
});
afterEach(() => server.close());

/** Plants `count` call logs and as many idempotency records, the i-th made at `from + i`. */
async function plant(prefix: string, count: number, from: number) {
  const numbers = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})`;
  const { accountId } = server.account;
  await runSql(
    server,
    `${numbers} INSERT INTO call_logs (id, account_id, mode, request_id, method, path, status, duration_ms,
       created_at) SELECT ? || i, ?, 'test', ? || i, 'GET', '/v1/balance', 200, 1.5, CAST(? AS BIGINT) + i FROM n`,
    `planted-${prefix}-`,
    accountId,
    `req-${prefix}-`,
    from,
  );
  await runSql(
    server,
    `${numbers} INSERT INTO idempotency_keys (account_id, mode, key, fingerprint, status_code, body, created_at)
       SELECT ?, 'test', ? || i, 'f', 201, '{}', CAST(? AS BIGINT) + i FROM n`,
    accountId,
    `${prefix}-`,
    from,
  );
}

/** How many of each are left, and the oldest of each. */
async function left() {
  const [logs] = await queryRows<{ n: number; oldest: number }>(
    server,
    "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM call_logs WHERE id LIKE 'planted-%'",
  );
  const [records] = await queryRows<{ n: number; oldest: number }>(
    server,
    'SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM idempotency_keys',
  );
  return {
    logs: Number(logs?.n),
    oldestLog: Number(logs?.oldest),
    records: Number(records?.n),
    oldestRecord: Number(records?.oldest),
  };
}

describe('retention', () => {
  it('drains a backlog in full batches, the oldest first, and keeps what is within its window', async () => {
    const now = server.clock.now();
    const backlog = retentionBatch * 2 + 7;
    // Call logs 40 days old (kept 30) and idempotency records 2 days old (kept 24 hours)...
    await plant('old', backlog, now - 40 * day);
    await runSql(server, 'UPDATE idempotency_keys SET created_at = created_at + ?', 38 * day);
    // ...and a few of each made a second ago, which must stay.
    await plant('young', 3, now - 1_000);
    expect(await left()).toMatchObject({ logs: backlog + 3, records: backlog + 3 });

    const pass = retention(server.service.deps);
    expect(await pass()).toEqual({ purged: 2 * retentionBatch, more: true });
    expect(await left()).toEqual({
      logs: backlog + 3 - retentionBatch,
      oldestLog: now - 40 * day + retentionBatch,
      records: backlog + 3 - retentionBatch,
      oldestRecord: now - 2 * day + retentionBatch,
    });
    expect(await pass()).toEqual({ purged: 2 * retentionBatch, more: true });
    // The last of the backlog: not a full batch, so nothing more until the next check.
    expect(await pass()).toEqual({ purged: 14, more: false });
    expect(await left()).toEqual({ logs: 3, oldestLog: now - 1_000, records: 3, oldestRecord: now - 1_000 });
    await plant('later', 5, now - 40 * day);
    expect(await pass()).toEqual({ purged: 0, more: false });
    // Once the check interval has gone by, the tables are looked at again.
    server.clock.advance(retentionCheckMs);
    expect(await pass()).toEqual({ purged: 10, more: false });
  });

  it("runs in the settlement worker's pass, which asks for the next at once while batches are full", async () => {
    await plant('old', retentionBatch + 1, server.clock.now() - 40 * day);
    const pass = settlementPass(server.service.deps);
    const worker = { stopping: () => false };
    // Nothing to settle; a full batch of each deleted, so the worker is told to go on now.
    expect(await pass(worker)).toEqual({ count: 0, more: true });
    expect(await left()).toMatchObject({ logs: 1, records: 1 });
    expect(await pass(worker)).toEqual({ count: 0, more: false });
    expect(await left()).toMatchObject({ logs: 0, records: 0 });
  });
});
