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
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CallResult,
  type ChildServer,
  type CliAccount,
  createAccountWithCli,
  startChildServer,
} from '../support/child-server.js';
import { testEngine } from '../support/server.js';
import { callAs } from './support/funded-server.js';
import { faultFile, seed } from './support/harness.js';
import {
  documented503,
  type LogicalRequest,
  logicalRequest,
  numbers,
  pollUntil,
  sleep,
  waitUntil,
} from './support/load.js';
import { inspectMoney, type MoneySnapshot } from './support/money.js';
import { alternate, itAnswersTheRace, type PayoutRace, racePayouts, send } from './support/payout-race.js';

const funded = 20_000;
const parallelPayouts = 80;
const parallelTopups = 20;
/** Longer than the servers' busy_timeout (5 s), so a writer waiting for it gives up. */
const lockHoldMs = 9_000;

const file = faultFile('faults-two-processes-');

// Two processes sharing one SQLite FILE (its write lock); on PostgreSQL several instances share a
// database instead: multi-instance-postgres.test.ts.
describe.skipIf(testEngine === 'postgres')('two server processes on the same SQLite file', () => {
  let account: CliAccount;
  let a: ChildServer;
  let b: ChildServer;
  const dbPath = join(file.dir, 'payments.db');
  const get = (server: ChildServer, path: string) => callAs(server, account)('GET', path);

  // Both situations use the same file and the same two processes; each funds what it spends.
  beforeAll(async () => {
    account = await createAccountWithCli(dbPath, 'Two processes');
    [a, b] = await Promise.all([
      startChildServer({ dbPath, name: 'process-a' }).then(file.track),
      startChildServer({ dbPath, name: 'process-b' }).then(file.track),
    ]);
  });

  /** Tops up through `a` and waits until `b` sees it settled. */
  async function fund(key: string, amount: number) {
    const topup = await send(a, account, logicalRequest('topup', key, amount, numbers.success, ''));
    expect(topup.status, topup.text).toBe(202);
    await waitUntil(
      async () => (await get(b, `/topups/${topup.body.data.transaction_id}`)).body.data.status === 'success',
      15_000,
      () => `the top-up ${key} never settled`,
    );
  }

  describe('take parallel payouts asking for about 3 times the balance, and top-ups', () => {
    let before: number;
    let race: PayoutRace;
    let topups: LogicalRequest[];
    let topupResponses: CallResult[];
    let settled: MoneySnapshot;
    const answered = (status: number) => race.answered(status);
    const xafBalance = async () =>
      (await get(b, '/balance')).body.data.balances.find((x: { currency: string }) => x.currency === 'XAF')
        .available as number;

    beforeAll(async () => {
      await fund('two-fund', funded);
      before = await xafBalance();
      // 80 payouts at once, alternating between the processes.
      race = await racePayouts([a, b], account, { prefix: 'two', count: parallelPayouts, minAmount: 300 });
    }, 60_000);

    itAnswersTheRace(
      () => race,
      () => before,
      parallelPayouts,
    );

    it('never overdraw: the balance falls by what was paid out, below every refused payout', async () => {
      const paidOut = race.paidOut();
      expect(paidOut).toBeLessThanOrEqual(before);
      // Payouts to a success number are never reversed, and nothing else moved: the balance only
      // fell, so every refused payout was larger than what is left now.
      const balance = await xafBalance();
      expect(balance).toBe(before - paidOut);
      expect(balance).toBeGreaterThanOrEqual(0);
      for (const p of answered(403)) expect(p.amount, p.key).toBeGreaterThan(balance);
    });

    describe('then top-ups through both, which both settlement workers race to credit', () => {
      beforeAll(async () => {
        topups = Array.from({ length: parallelTopups }, (_, i) =>
          logicalRequest('topup', `two-${seed}-tu-${i}`, 1000 + i, numbers.success2, ''),
        );
        topupResponses = await Promise.all(topups.map((t, i) => send(alternate([b, a], i), account, t)));
        settled = await pollUntil(
          () => inspectMoney(dbPath),
          (snapshot) => snapshot.movements.every((m) => m.status === 'success'),
          20_000,
        );
      }, 60_000);

      it('accept every top-up and settle every movement', () => {
        expect(topupResponses.map((r) => r.status)).toEqual(topups.map(() => 202));
        expect(
          settled.movements.filter((m) => m.status !== 'success').map((m) => `${m.kind} ${m.id}`),
        ).toEqual([]);
      });

      it('hold exactly the accepted payouts', () => {
        const accepted = answered(202);
        for (const p of race.payouts) {
          expect(settled.byReference.get(p.key)?.length ?? 0, p.key).toBe(accepted.includes(p) ? 1 : 0);
        }
      });

      it('credit each top-up once: one ledger row and one event per item, the balance its ledger', () => {
        expect(settled.problems).toEqual([]);
        const paidOut = race.paidOut();
        const topupTotal = topups.reduce((sum, t) => sum + t.amount, 0);
        expect(settled.balances.map((w) => w.available)).toEqual([before - paidOut + topupTotal]);
        expect(file.internalErrors()).toEqual([]);
        console.info(
          `[faults/two-processes] seed ${seed}: ${parallelPayouts} parallel payouts over 2 processes asking ` +
            `${race.payouts.reduce((sum, p) => sum + p.amount, 0)} of ${before}: ${answered(202).length} × 202 (${paidOut}), ` +
            `${answered(403).length} × 403, ${answered(503).length} × 503; ${parallelTopups} top-ups settled once each by 2 racing workers`,
        );
      });
    });
  });

  it('answer 503 with Retry-After, changing nothing, when the write lock is held past busy_timeout', {
    timeout: 90_000,
  }, async () => {
    const started = Date.now();
    // Enough for the five payouts below, whatever ran before.
    await fund(`two-${seed}-lock-fund`, 1_000);
    // A third process whose workers stay idle for the next minute: its requests are the only
    // writers it has, so its first payout surely waits out the whole busy_timeout.
    const c = file.track(
      await startChildServer({
        dbPath,
        name: 'process-c',
        env: { SETTLEMENT_POLL_MS: '60000', WEBHOOK_POLL_MS: '60000' },
      }),
    );
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
        callAs(server, account)('POST', payout.path, {
          body: payout.body,
          idempotencyKey: payout.key,
          timeoutMs: 60_000,
        }),
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
      const retry = await send(server, account, payout);
      expect(retry.status, retry.text).toBe(202);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
    }
    const after = inspectMoney(dbPath);
    expect(after.problems).toEqual([]);
    for (const { payout } of requests) expect(after.byReference.get(payout.key)?.length, payout.key).toBe(1);

    const failures = file.internalErrors();
    expect(failures).toEqual([]);
    console.info(
      `[faults/two-processes] write lock held ${heldMs} ms by a third connection: payouts to processes c,c,c,a,b ` +
        `answered ${statuses.join(',')}; each 503 changed nothing and its retry created the payout once; ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });
});
