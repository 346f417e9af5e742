/**
 * Retention deletes what expired a bounded batch at a time (server/domain/retention.ts): one
 * statement deleting an hour of call logs held the only writer, and every request behind it,
 * for as long as it took. A backlog of expired call logs and idempotency records drains in
 * full batches, the oldest first, each batch saying there is more until one is not full; the
 * young rows stay. The retention worker runs the next batch at once while there is more, and
 * otherwise every 10 s (the last test, with fake timers).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../server/domain/context.js';
import { purgeExpiredBatch, retentionBatch, retentionCheckMs } from '../../server/domain/retention.js';
import { createLogger } from '../../server/observability/logger.js';
import { startRetentionWorker } from '../../server/workers/retention-worker.js';
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

    const batch = () => purgeExpiredBatch(server.service.deps);
    expect(await batch()).toEqual({ purged: 2 * retentionBatch, more: true });
    expect(await left()).toEqual({
      logs: backlog + 3 - retentionBatch,
      oldestLog: now - 40 * day + retentionBatch,
      records: backlog + 3 - retentionBatch,
      oldestRecord: now - 2 * day + retentionBatch,
    });
    expect(await batch()).toEqual({ purged: 2 * retentionBatch, more: true });
    // The last of the backlog: not a full batch, so nothing more for now.
    expect(await batch()).toEqual({ purged: 14, more: false });
    expect(await left()).toEqual({ logs: 3, oldestLog: now - 1_000, records: 3, oldestRecord: now - 1_000 });
    expect(await batch()).toEqual({ purged: 0, more: false });
    // Rows that expire later are deleted by a later batch.
    await plant('later', 5, now - 40 * day);
    expect(await batch()).toEqual({ purged: 10, more: false });
  });

  it("runs as the retention worker's pass, which says how many rows it deleted", async () => {
    await plant('old', retentionBatch + 1, server.clock.now() - 40 * day);
    expect(await server.purgeExpired()).toBe(2 * retentionBatch);
    expect(await left()).toMatchObject({ logs: 1, records: 1 });
    expect(await server.purgeExpired()).toBe(2);
    expect(await left()).toMatchObject({ logs: 0, records: 0 });
  });

  it('as a worker, takes the next batch at once while batches come back full, then waits 10 s', async () => {
    vi.useFakeTimers();
    try {
      // What each batch deletes, in turn: a full one of records, a full one of logs, then neither.
      const batches = [
        { records: retentionBatch, logs: 0 },
        { records: 3, logs: retentionBatch },
        { records: 0, logs: 7 },
      ];
      let runs = 0;
      const deps = {
        clock: server.clock,
        config: server.service.deps.config,
        store: { run: async () => batches[runs++] ?? { records: 0, logs: 0 } },
      } as unknown as Deps;
      const worker = startRetentionWorker(deps, createLogger({ level: 'silent' }), { autostart: true });
      const expectRuns = async (ms: number, expected: number) => {
        await vi.advanceTimersByTimeAsync(ms);
        expect(runs, `after ${ms} ms more`).toBe(expected);
      };
      await expectRuns(retentionCheckMs - 10, 0);
      await expectRuns(10, 1);
      await expectRuns(10, 3);
      await expectRuns(retentionCheckMs - 20, 3);
      await expectRuns(20, 4);
      await worker.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
