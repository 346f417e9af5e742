/**
 * The PostgreSQL server going away while the API runs: PostgreSQL's counterpart of
 * disk-errors.test.ts (whose read-only file and full disk are about SQLite's file). A real server
 * (`node dist/server/main.js`, as `npm start` runs it) works on a fresh database of a throwaway cluster
 * of this file's own; the cluster is stopped with `pg_ctl stop -m immediate` (every connection
 * cut at once, as in a crash of the database server) while clients keep sending, and started again.
 *
 * While it is down, every write answers 503 `service_unavailable` in the error envelope with
 * `Retry-After` (never a 500, never a stack trace), and so does `GET /v1/healthz`; the API
 * process stays up. Once the database is back, the API answers again without a restart, the same
 * requests retried with the same Idempotency-Keys each create exactly one movement, a settlement
 * that fell due meanwhile is made once, and every balance equals its ledger.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CallResult,
  type ChildServer,
  callApi,
  createAccountWithCli,
  type DatabaseTarget,
  startChildServer,
} from '../support/child-server.js';
import { type PostgresCluster, queryPostgres, startPostgresCluster } from '../support/postgres.js';
import {
  documented503,
  internalErrors,
  type LogicalRequest,
  logicalRequest,
  networkError,
  numbers,
  sleep,
  tempFolder,
  waitUntil,
} from './support/load.js';
import { readMoney } from './support/money.js';

const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);
const secretsKey = randomBytes(32).toString('hex');
/** How long the database stays down: longer than the sandbox settlement delay below. */
const outageMs = 5_000;
const settleMs = 2_500;
const loadClients = 4;
/** Every bounded retry loop gives up after this long. */
const retryDeadlineMs = 30_000;

const folder = tempFolder('faults-pg-outage-');
let cluster: PostgresCluster | undefined;
let clusterDown = false;
const servers: ChildServer[] = [];
/** Cleared when the test ends, however it ends: the load's clients stop retrying at once. */
let sending = true;

beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 120_000);

afterAll(async () => {
  sending = false;
  await Promise.all(servers.map((s) => s.stop()));
  if (clusterDown) await cluster?.resume().catch(() => undefined);
  await cluster?.stop();
  folder.remove();
}, 60_000);

/** What an answer must never show: a stack frame, a driver's error, a file of the server. */
const leak = /\n\s+at |\bat \S+ \(|node_modules|ECONNREFUSED|ECONNRESET|Connection terminated|\.ts:\d+/;

/** One write the test makes while the database is down, retried with its key once it is back. */
interface Write {
  label: string;
  path: string;
  key: string;
  body: Record<string, unknown>;
  /** How many rows of the database it created: exactly one once it went through. */
  rows(url: string): Promise<number>;
  answers: CallResult[];
}

describe('the PostgreSQL server stopped (pg_ctl stop -m immediate) while the API runs', () => {
  it('answers every write and the health check 503, changes nothing, and recovers without a restart', {
    timeout: 150_000,
  }, async () => {
    const started = Date.now();
    const url = await (cluster as PostgresCluster).createDatabase();
    const database: DatabaseTarget = {
      // Unused: DATABASE_URL wins.
      dbPath: join(folder.dir, 'unused.db'),
      databaseEnv: { DATABASE_URL: url, SECRETS_ENCRYPTION_KEY: secretsKey },
    };
    const account = await createAccountWithCli(database, 'Outage test');
    const server = await startChildServer({
      ...database,
      name: 'api',
      env: {
        SANDBOX_SETTLE_MS: String(settleMs),
        WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
        // A statement that hangs on a half-dead connection gives up quickly.
        DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      },
    });
    servers.push(server);
    const api = (method: string, path: string, options: Parameters<typeof callApi>[4] = {}) =>
      callApi(server.url, account, method, path, options);
    /** A call that must be answered: a network error means the API died or hung, shown with its log. */
    const mustAnswer = (method: string, path: string, options: Parameters<typeof callApi>[4] = {}) =>
      callApi(server.url, account, method, path, options).catch((err: unknown) => {
        throw new Error(
          `${method} ${path} got no answer (${networkError(err)}); the API is ${server.alive() ? 'alive' : 'dead'}:\n` +
            server.output().slice(-6000),
        );
      });

    const service = await api('POST', '/services', { body: { name: 'Outage shop' } });
    expect(service.status, service.text).toBe(201);
    const serviceId = service.body.data.service_id as string;
    const fund = await api('POST', '/topups', {
      idempotencyKey: 'outage-fund',
      body: logicalRequest('topup', 'outage-fund', 500_000, numbers.success, serviceId).body,
    });
    expect(fund.status, fund.text).toBe(202);
    await waitUntil(
      async () =>
        (await api('GET', `/topups/${fund.body.data.transaction_id}`)).body.data.status === 'success',
      20_000,
      () => 'the funding top-up never settled',
    );
    // A payment whose sandbox outcome (success) falls due while the database is down.
    const due = await api('POST', '/payments', {
      idempotencyKey: 'outage-due',
      body: logicalRequest('payment', 'outage-due', 4_321, numbers.success, serviceId).body,
    });
    expect(due.status, due.text).toBe(202);
    const dueId = due.body.data.transaction_id as string;

    // Load: clients send payments and top-ups one after the other, through the stop and the
    // start; each logical request is retried with its key until it gets an answer other than 503.
    interface Logical {
      request: LogicalRequest;
      answers: CallResult[];
      networkErrors: string[];
    }
    const logicals: Logical[] = [];
    let loadOn = true;
    const unexpected: string[] = [];
    const sendUntilAnswered = async (logical: Logical) => {
      const deadline = Date.now() + retryDeadlineMs + outageMs;
      while (sending && Date.now() < deadline) {
        try {
          const answer = await api('POST', logical.request.path, {
            body: logical.request.body,
            idempotencyKey: logical.request.key,
            timeoutMs: 15_000,
          });
          logical.answers.push(answer);
          if (answer.status !== 503) return;
        } catch (err) {
          // The API must stay up: a network error is the server gone or hung.
          logical.networkErrors.push(networkError(err));
        }
        await sleep(100 + Math.floor(Math.random() * 100));
      }
      if (sending) unexpected.push(`${logical.request.key}: no answer other than 503 in time`);
    };
    const client = async (c: number) => {
      for (let n = 0; loadOn && n < 1000; n++) {
        const kind = n % 2 === 0 ? 'payment' : 'topup';
        const key = `outage-${seed}-${c}-${n}`;
        const logical: Logical = {
          request: logicalRequest(kind, key, 100 + ((c * 7 + n) % 30) * 100, numbers.success, serviceId),
          answers: [],
          networkErrors: [],
        };
        logicals.push(logical);
        await sendUntilAnswered(logical);
        await sleep(30);
      }
    };
    const running = Array.from({ length: loadClients }, (_, c) => client(c));
    await waitUntil(
      () => logicals.filter((l) => l.answers.some((a) => a.status === 202)).length >= 20,
      30_000,
      () => `only ${logicals.length} requests under way before the stop`,
      20,
    );

    // The database goes away.
    const pid = server.pid;
    await (cluster as PostgresCluster).pause();
    clusterDown = true;
    const stoppedAt = Date.now();

    const writes: Write[] = [
      {
        label: 'payment',
        path: '/payments',
        key: `outage-write-payment-${seed}`,
        body: logicalRequest('payment', `outage-write-payment-${seed}`, 1_500, numbers.success, serviceId)
          .body,
        rows: async (u) =>
          (
            await queryPostgres(u, 'SELECT id FROM payments WHERE reference = ?', [
              `outage-write-payment-${seed}`,
            ])
          ).length,
        answers: [],
      },
      {
        label: 'payout',
        path: '/payouts',
        key: `outage-write-payout-${seed}`,
        body: logicalRequest('payout', `outage-write-payout-${seed}`, 2_500, numbers.success, serviceId).body,
        rows: async (u) =>
          (
            await queryPostgres(u, 'SELECT id FROM payouts WHERE reference = ?', [
              `outage-write-payout-${seed}`,
            ])
          ).length,
        answers: [],
      },
      {
        label: 'top-up',
        path: '/topups',
        key: `outage-write-topup-${seed}`,
        body: logicalRequest('topup', `outage-write-topup-${seed}`, 3_500, numbers.success, serviceId).body,
        rows: async (u) =>
          (
            await queryPostgres(u, 'SELECT id FROM topups WHERE reference = ?', [
              `outage-write-topup-${seed}`,
            ])
          ).length,
        answers: [],
      },
      {
        label: 'service',
        path: '/services',
        key: `outage-write-service-${seed}`,
        body: { name: `Outage service ${seed}` },
        rows: async (u) =>
          (await queryPostgres(u, 'SELECT id FROM services WHERE name = ?', [`Outage service ${seed}`]))
            .length,
        answers: [],
      },
      {
        label: 'webhook endpoint',
        path: '/webhook-endpoints',
        key: `outage-write-endpoint-${seed}`,
        body: { url: `http://127.0.0.1:9/outage-${seed}` },
        rows: async (u) =>
          (
            await queryPostgres(u, 'SELECT id FROM webhook_endpoints WHERE url = ?', [
              `http://127.0.0.1:9/outage-${seed}`,
            ])
          ).length,
        answers: [],
      },
    ];

    // Two rounds while it is down: right after the stop (the pool's connections were just cut)
    // and later (every new connection is refused); the health check and a read each time.
    const health: CallResult[] = [];
    const reads: CallResult[] = [];
    for (const round of [0, 1]) {
      if (round === 1) await sleep(Math.max(0, stoppedAt + outageMs / 2 - Date.now()));
      for (const write of writes) {
        write.answers.push(
          await mustAnswer('POST', write.path, { body: write.body, idempotencyKey: write.key }),
        );
      }
      health.push(await mustAnswer('GET', '/healthz'));
      reads.push(await mustAnswer('GET', '/balance'));
    }
    const outageWrites = writes.flatMap((w) => w.answers.map((a) => ({ label: w.label, answer: a })));
    expect(
      outageWrites
        .filter(({ answer }) => !documented503(answer))
        .map(({ label, answer }) => `${label}: ${answer.status} ${answer.text}`),
    ).toEqual([]);
    expect(health.map((h) => h.status)).toEqual([503, 503]);
    expect(health.every((h) => h.body?.error?.code === 'service_unavailable')).toBe(true);
    // A read needs the database too: a 503 as well, never a 500.
    expect(reads.filter((r) => !documented503(r)).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const leaked = [...outageWrites.map((w) => w.answer), ...health, ...reads]
      .filter((r) => leak.test(r.text))
      .map((r) => r.text);
    expect(leaked).toEqual([]);

    // The outage lasts past the due payment's settlement time; the API stays up meanwhile.
    await sleep(Math.max(0, stoppedAt + outageMs - Date.now()));
    expect(server.alive(), `the API died while the database was down:\n${server.output().slice(-3000)}`).toBe(
      true,
    );
    expect(logicals.flatMap((l) => l.networkErrors)).toEqual([]);
    const during = logicals.flatMap((l) => l.answers).filter((a) => a.status === 503).length;

    // The database comes back; the same process answers again.
    await (cluster as PostgresCluster).resume();
    clusterDown = false;
    const resumedAt = Date.now();
    // The 503s committed nothing: none of the writes exists yet.
    for (const write of writes) expect(await write.rows(url), write.label).toBe(0);
    let healthAfter: CallResult | undefined;
    await waitUntil(
      async () => {
        healthAfter = await callApi(server.url, account, 'GET', '/healthz');
        return healthAfter.status === 200;
      },
      retryDeadlineMs,
      () => `healthz still ${healthAfter?.status} ${healthAfter?.text}`,
      200,
    );
    const recoveredAfterMs = Date.now() - resumedAt;
    expect(server.pid).toBe(pid);
    expect(server.alive()).toBe(true);

    // The same requests, retried with the same keys, go through; once more, they replay.
    const created = new Map<string, string>();
    for (const write of writes) {
      let retry: CallResult | undefined;
      const deadline = Date.now() + retryDeadlineMs;
      while (Date.now() < deadline) {
        retry = await api('POST', write.path, { body: write.body, idempotencyKey: write.key });
        if (retry.status !== 503) break;
        await sleep(200);
      }
      const answer = retry as CallResult;
      expect([201, 202], `${write.label}: ${answer.text}`).toContain(answer.status);
      expect(answer.headers.get('idempotent-replayed'), write.label).not.toBe('true');
      const id = (answer.body.data.transaction_id ??
        answer.body.data.service_id ??
        answer.body.data.id) as string;
      expect(id, `${write.label}: ${answer.text}`).toBeTruthy();
      created.set(write.label, id);
      const again = await api('POST', write.path, { body: write.body, idempotencyKey: write.key });
      if (write.path === '/webhook-endpoints') {
        // Its signing secret is shown once: a retry is told so, naming the endpoint it created.
        expect(again.status, `${write.label} replay: ${again.text}`).toBe(409);
        expect(again.body.error.code).toBe('secret_not_replayed');
        expect(again.body.error.message).toContain(id);
      } else {
        expect(again.status, `${write.label} replay: ${again.text}`).toBe(answer.status);
        expect(again.headers.get('idempotent-replayed'), write.label).toBe('true');
        expect(again.text).toBe(answer.text);
      }
      expect(await write.rows(url), write.label).toBe(1);
    }

    loadOn = false;
    await Promise.all(running);
    expect(unexpected).toEqual([]);

    // Every logical request of the load exists exactly once, under the id its answer named.
    const wrong: string[] = [];
    let answered503 = 0;
    let committedBehind503 = 0;
    const snapshotRows = await queryPostgres<{ id: string; reference: string }>(
      url,
      'SELECT id, reference FROM payments UNION ALL SELECT id, reference FROM topups',
    );
    const byReference = new Map<string, string[]>();
    for (const r of snapshotRows)
      byReference.set(r.reference, [...(byReference.get(r.reference) ?? []), r.id]);
    for (const logical of logicals) {
      const final = logical.answers.at(-1);
      const rows = byReference.get(logical.request.key) ?? [];
      const had503 = logical.answers.some((a) => a.status === 503);
      if (had503) answered503++;
      for (const a of logical.answers) {
        if (a.status !== 202 && !documented503(a))
          wrong.push(`${logical.request.key}: ${a.status} ${a.text}`);
      }
      if (logical.networkErrors.length > 0) {
        wrong.push(`${logical.request.key}: network errors ${logical.networkErrors.join('; ')}`);
      }
      if (final?.status !== 202) {
        wrong.push(`${logical.request.key}: last answer ${final?.status} ${final?.text}`);
        continue;
      }
      if (rows.length !== 1 || rows[0] !== final.body.data.transaction_id) {
        wrong.push(`${logical.request.key}: answered ${final.body.data.transaction_id}, stored [${rows}]`);
      }
      // A 503 then a replay: the commit went through but its acknowledgement was cut.
      if (had503 && final.headers.get('idempotent-replayed') === 'true') committedBehind503++;
    }
    expect(wrong).toEqual([]);

    // The payment that fell due meanwhile is settled, once.
    let dueStatus = '';
    await waitUntil(
      async () => {
        dueStatus = (await api('GET', `/payments/${dueId}`)).body.data.status;
        return dueStatus === 'success';
      },
      retryDeadlineMs,
      () => `the payment due during the outage is still ${dueStatus}`,
    );
    const credits = await queryPostgres<{ n: number }>(
      url,
      "SELECT COUNT(*) AS n FROM ledger_entries WHERE source_id = ? AND type = 'payment'",
      [dueId],
    );
    expect(credits[0]?.n).toBe(1);

    // Settlement finishes the rest; then the money adds up.
    let problems: string[] = [];
    let unsettled = 0;
    await waitUntil(
      async () => {
        const snapshot = await readMoney(database);
        problems = snapshot.problems;
        unsettled = snapshot.movements.filter((m) => m.status !== 'success').length;
        return unsettled === 0;
      },
      retryDeadlineMs,
      () => `${unsettled} movements not settled yet`,
    );
    expect(problems).toEqual([]);
    expect(internalErrors([server])).toEqual([]);
    expect(server.pid).toBe(pid);

    console.info(
      `[faults/database-outage-postgres] seed ${seed}: database down ${((resumedAt - stoppedAt) / 1000).toFixed(1)} s ` +
        `(pg_ctl stop -m immediate); ${outageWrites.length} writes (${writes.map((w) => w.label).join(', ')}, two rounds) ` +
        `all 503 service_unavailable, healthz 503 twice, GET /balance 503 twice; the API process (pid ${pid}) stayed up; ` +
        `healthz 200 again ${(recoveredAfterMs / 1000).toFixed(1)} s after the start, no restart; the ${writes.length} writes retried ` +
        `with their keys created one row each and replayed after; load: ${logicals.length} logical requests from ${loadClients} clients, ` +
        `${during} × 503, ${answered503} of them answered 503 at least once, ${committedBehind503} of those had committed ` +
        `behind the 503 (replayed on retry), each exactly once; the payment due during the outage settled once; ` +
        `whole test ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    await server.stop();
  });
});
