/**
 * Concurrency across processes: two servers on the same SQLite file take parallel payouts
 * against a balance that funds only some of them, and both settle the same pending items.
 * SQLite's write lock serialises them (`BEGIN IMMEDIATE`); a writer that waits longer than
 * `busy_timeout` (5 s) must answer 503 `service_unavailable` with `Retry-After` and change
 * nothing, never 500. To make that wait happen on purpose, the test itself holds the write lock
 * longer than the timeout while payouts arrive at all three servers.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChildServer,
  type CliAccount,
  callApi,
  createAccountWithCli,
  startChildServer,
} from '../support/child-server.js';
import { testEngine } from '../support/server.js';
import {
  documented503,
  internalErrors,
  logicalRequest,
  numbers,
  seededRandom,
  sleep,
  tempFolder,
  waitUntil,
} from './support/load.js';
import { inspectMoney, type MoneySnapshot } from './support/money.js';

const funded = 20_000;
const parallelPayouts = 80;
const parallelTopups = 20;
/** Longer than the servers' busy_timeout (5 s), so a writer waiting for it gives up. */
const lockHoldMs = 9_000;
const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);

const folder = tempFolder('faults-two-processes-');
const servers: ChildServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  folder.remove();
});

// Two processes sharing one SQLite FILE (its write lock); on PostgreSQL several instances share a
// database instead: multi-instance-postgres.test.ts.
describe.skipIf(testEngine === 'postgres')('two server processes on the same SQLite file', () => {
  let account: CliAccount;
  let a: ChildServer;
  let b: ChildServer;
  const dbPath = join(folder.dir, 'payments.db');
  const on = (
    server: ChildServer,
    method: string,
    path: string,
    options: Parameters<typeof callApi>[4] = {},
  ) => callApi(server.url, account, method, path, options);

  // Both tests use the same file and the same two processes; the second does not depend on
  // what the first checked, only on the balance the first left (at least 0).
  beforeAll(async () => {
    account = await createAccountWithCli(dbPath, 'Two processes');
    [a, b] = await Promise.all([
      startChildServer({ dbPath, name: 'process-a' }),
      startChildServer({ dbPath, name: 'process-b' }),
    ]);
    servers.push(a, b);
  });

  it('never overdraw under parallel payouts, and settle each item once', { timeout: 90_000 }, async () => {
    const started = Date.now();

    const fund = await on(a, 'POST', '/topups', {
      idempotencyKey: 'two-fund',
      body: logicalRequest('topup', 'two-fund', funded, numbers.success, '').body,
    });
    expect(fund.status, fund.text).toBe(202);
    await waitUntil(
      async () =>
        (await on(b, 'GET', `/topups/${fund.body.data.transaction_id}`)).body.data.status === 'success',
      15_000,
      () => 'the funding top-up never settled',
    );

    // 80 payouts at once, alternating between the processes, asking for about 3 times the balance.
    const random = seededRandom(seed);
    const payouts = Array.from({ length: parallelPayouts }, (_, i) =>
      logicalRequest(
        'payout',
        `two-${seed}-po-${i}`,
        300 + Math.floor(random() * 10) * 100,
        numbers.success,
        '',
      ),
    );
    const responses = await Promise.all(
      payouts.map((p, i) => on(i % 2 === 0 ? a : b, 'POST', p.path, { body: p.body, idempotencyKey: p.key })),
    );
    const accepted = payouts.filter((_, i) => responses[i]?.status === 202);
    const refused = payouts.filter((_, i) => responses[i]?.status === 403);
    const unavailable = payouts.filter((_, i) => responses[i]?.status === 503);
    const other = responses
      .map((r, i) => ({ r, p: payouts[i] }))
      .filter(({ r }) => ![202, 403, 503].includes(r.status))
      .map(({ r, p }) => `${p?.key}: ${r.status} ${r.text}`);
    expect(other).toEqual([]);
    for (const [i, r] of responses.entries()) {
      if (r.status === 403) expect(r.body.error.code, payouts[i]?.key).toBe('insufficient_balance');
      if (r.status === 503) expect(documented503(r), r.text).toBe(true);
    }
    const paidOut = accepted.reduce((sum, p) => sum + p.amount, 0);
    expect(paidOut).toBeLessThanOrEqual(funded);
    expect(refused.length).toBeGreaterThan(0);

    // Payouts to a success number are never reversed, and nothing else moved: the balance only
    // fell, so every refused payout was larger than what is left now.
    const balance = (await on(b, 'GET', '/balance')).body.data.balances.find(
      (x: { currency: string }) => x.currency === 'XAF',
    ).available as number;
    expect(balance).toBe(funded - paidOut);
    expect(balance).toBeGreaterThanOrEqual(0);
    for (const p of refused) expect(p.amount, p.key).toBeGreaterThan(balance);

    // Top-ups through both processes; both settlement workers race to credit them.
    const topups = Array.from({ length: parallelTopups }, (_, i) =>
      logicalRequest('topup', `two-${seed}-tu-${i}`, 1000 + i, numbers.success2, ''),
    );
    const topupResponses = await Promise.all(
      topups.map((t, i) => on(i % 2 === 0 ? b : a, 'POST', t.path, { body: t.body, idempotencyKey: t.key })),
    );
    expect(topupResponses.map((r) => r.status)).toEqual(topups.map(() => 202));

    let snapshot: MoneySnapshot = inspectMoney(dbPath);
    await waitUntil(
      () => {
        snapshot = inspectMoney(dbPath);
        return snapshot.movements.every((m) => m.status === 'success');
      },
      20_000,
      () => `still pending: ${snapshot.movements.filter((m) => m.status !== 'success').length}`,
    );
    expect(snapshot.problems).toEqual([]);
    for (const p of payouts) {
      const rows = snapshot.byReference.get(p.key) ?? [];
      expect(rows.length, p.key).toBe(accepted.includes(p) ? 1 : 0);
    }
    const topupTotal = topups.reduce((sum, t) => sum + t.amount, 0);
    const wallet = snapshot.balances[0];
    expect(snapshot.balances.length).toBe(1);
    expect(wallet?.available).toBe(funded - paidOut + topupTotal);

    // Both processes' settlement workers raced over the same items: none was settled twice (one
    // ledger row and one event per item, checked by inspectMoney), and no request failed.
    const failures = internalErrors(servers);
    expect(failures).toEqual([]);
    console.info(
      `[faults/two-processes] seed ${seed}: ${parallelPayouts} parallel payouts over 2 processes asking ` +
        `${payouts.reduce((s, p) => s + p.amount, 0)} of ${funded}: ${accepted.length} × 202 (${paidOut}), ` +
        `${refused.length} × 403, ${unavailable.length} × 503; balance ${balance} ≥ 0 and equal to its ledger; ` +
        `${parallelTopups} top-ups settled once each by 2 racing workers; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });

  it('answer 503 with Retry-After, changing nothing, when the write lock is held past busy_timeout', {
    timeout: 90_000,
  }, async () => {
    const started = Date.now();
    // A third process whose workers stay idle for the next minute: its requests are the only
    // writers it has, so its first payout surely waits out the whole busy_timeout.
    const c = await startChildServer({
      dbPath,
      name: 'process-c',
      env: { SETTLEMENT_POLL_MS: '60000', WEBHOOK_POLL_MS: '60000' },
    });
    servers.push(c);
    const before = inspectMoney(dbPath);

    const locker = new Database(dbPath);
    locker.pragma('busy_timeout = 10000');
    locker.exec('BEGIN IMMEDIATE');
    const lockedAt = Date.now();
    const release = sleep(lockHoldMs).then(() => {
      locker.exec('ROLLBACK');
      locker.close();
    });
    const requests = [c, c, c, a, b].map((server, i) => ({
      server,
      payout: logicalRequest('payout', `two-${seed}-locked-${i}`, 100 + i, numbers.success, ''),
    }));
    const responses = await Promise.all(
      requests.map(({ server, payout }) =>
        on(server, 'POST', payout.path, { body: payout.body, idempotencyKey: payout.key, timeoutMs: 60_000 }),
      ),
    );
    await release;
    const heldMs = Date.now() - lockedAt;

    const statuses = responses.map((r) => r.status);
    for (const r of responses) {
      if (r.status !== 202) expect(documented503(r), `${r.status} ${r.text}`).toBe(true);
    }
    expect(statuses).toContain(503);

    // A 503 changed nothing; a 202 (after the lock was released) created its payout once.
    const during = inspectMoney(dbPath);
    expect(during.problems).toEqual([]);
    for (const [i, { payout }] of requests.entries()) {
      const rows = during.byReference.get(payout.key) ?? [];
      expect(rows.length, `${payout.key} answered ${statuses[i]}`).toBe(statuses[i] === 202 ? 1 : 0);
    }
    const moved = during.movements.length - before.movements.length;
    expect(moved).toBe(statuses.filter((s) => s === 202).length);

    // The client retries each 503 with the same key, and it goes through exactly once.
    for (const [i, { server, payout }] of requests.entries()) {
      if (statuses[i] !== 503) continue;
      const retry = await on(server, 'POST', payout.path, { body: payout.body, idempotencyKey: payout.key });
      expect(retry.status, retry.text).toBe(202);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
    }
    const after = inspectMoney(dbPath);
    expect(after.problems).toEqual([]);
    for (const { payout } of requests) expect(after.byReference.get(payout.key)?.length, payout.key).toBe(1);

    const failures = internalErrors(servers);
    expect(failures).toEqual([]);
    console.info(
      `[faults/two-processes] write lock held ${heldMs} ms by a third connection: payouts to processes c,c,c,a,b ` +
        `answered ${statuses.join(',')}; each 503 changed nothing and its retry created the payout once; ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });
});
