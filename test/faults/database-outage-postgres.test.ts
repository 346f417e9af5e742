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
 *
 * The outage, the calls made through it and the recovery happen once, in the set-up; each test
 * then checks one promise on what the set-up recorded.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallOptions, CallResult, ChildServer, DatabaseTarget } from '../support/child-server.js';
import { queryPostgres } from '../support/postgres.js';
import { callAs, startFundedServer } from './support/funded-server.js';
import { postgresFaultFile, recordOnce, seed } from './support/harness.js';
import {
  documented503,
  type LogicalRequest,
  logicalRequest,
  networkError,
  numbers,
  pollUntil,
  runClients,
  sleep,
  waitUntil,
} from './support/load.js';
import { type Kind, type MoneySnapshot, readMoney } from './support/money.js';

const secretsKey = randomBytes(32).toString('hex');
/** How long the database stays down: longer than the sandbox settlement delay below. */
const outageMs = 5_000;
const settleMs = 2_500;
const loadClients = 4;
/** Every bounded retry loop gives up after this long. */
const retryDeadlineMs = 30_000;

const file = postgresFaultFile('faults-pg-outage-');
let clusterDown = false;
/** Cleared when the test ends, however it ends: the load's clients stop retrying at once. */
let sending = true;

// Before the file's own clean-up (after hooks run last registered first): the load stops, and a
// cluster the test left down is started again, so that it can be stopped.
afterAll(async () => {
  sending = false;
  if (clusterDown)
    await file
      .cluster()
      .resume()
      .catch(() => undefined);
}, 60_000);

/** The id a creation answer names: a movement's, a service's or a webhook endpoint's. */
const idOf = (answer: CallResult) =>
  (answer.body?.data?.transaction_id ?? answer.body?.data?.service_id ?? answer.body?.data?.id) as string;

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
  /** Its answers while the database was down (two rounds). */
  answers: CallResult[];
  /** How many rows it had when the database came back. */
  rowsAtResume?: number;
  /** Its retry once the database was back, the replay of that retry, and its rows then. */
  retry?: CallResult;
  again?: CallResult;
  rowsAfterRetry?: number;
}

/** A write of each kind, and how to count the rows it made. */
function writesOf(serviceId: string): Write[] {
  const count = (sql: string, value: string) => async (url: string) =>
    (await queryPostgres(url, sql, [value])).length;
  const movement = (kind: Kind, path: string, table: string, amount: number): Write => {
    const key = `outage-write-${kind}-${seed}`;
    return {
      label: kind === 'topup' ? 'top-up' : kind,
      path,
      key,
      body: logicalRequest(kind, key, amount, numbers.success, serviceId).body,
      rows: count(`SELECT id FROM ${table} WHERE reference = ?`, key),
      answers: [],
    };
  };
  const endpointUrl = `http://127.0.0.1:9/outage-${seed}`;
  return [
    movement('payment', '/payments', 'payments', 1_500),
    movement('payout', '/payouts', 'payouts', 2_500),
    movement('topup', '/topups', 'topups', 3_500),
    {
      label: 'service',
      path: '/services',
      key: `outage-write-service-${seed}`,
      body: { name: `Outage service ${seed}` },
      rows: count('SELECT id FROM services WHERE name = ?', `Outage service ${seed}`),
      answers: [],
    },
    {
      label: 'webhook endpoint',
      path: '/webhook-endpoints',
      key: `outage-write-endpoint-${seed}`,
      body: { url: endpointUrl },
      rows: count('SELECT id FROM webhook_endpoints WHERE url = ?', endpointUrl),
      answers: [],
    },
  ];
}

/** A logical request of the load: retried with its key until answered other than 503. */
interface Logical {
  request: LogicalRequest;
  answers: CallResult[];
  networkErrors: string[];
}

/**
 * Clients sending payments and top-ups one after the other, through the stop and the start;
 * each logical request is retried with its key until it gets an answer other than 503.
 */
function startLoad(api: ReturnType<typeof callAs>, serviceId: string) {
  const logicals: Logical[] = [];
  const unexpected: string[] = [];
  const sendUntilAnswered = async ({ request, answers, networkErrors }: Logical) => {
    const deadline = Date.now() + retryDeadlineMs + outageMs;
    while (sending && Date.now() < deadline) {
      try {
        const options = { body: request.body, idempotencyKey: request.key, timeoutMs: 15_000 };
        const answer = await api('POST', request.path, options);
        answers.push(answer);
        if (answer.status !== 503) return;
      } catch (err) {
        // The API must stay up: a network error is the server gone or hung.
        networkErrors.push(networkError(err));
      }
      await sleep(100 + Math.floor(Math.random() * 100));
    }
    if (sending) unexpected.push(`${request.key}: no answer other than 503 in time`);
  };
  const client = async (c: number, on: () => boolean) => {
    for (let n = 0; on() && n < 1000; n++) {
      const kind = n % 2 === 0 ? 'payment' : 'topup';
      const amount = 100 + ((c * 7 + n) % 30) * 100;
      const request = logicalRequest(kind, `outage-${seed}-${c}-${n}`, amount, numbers.success, serviceId);
      const logical: Logical = { request, answers: [], networkErrors: [] };
      logicals.push(logical);
      await sendUntilAnswered(logical);
      await sleep(30);
    }
  };
  return { logicals, unexpected, ...runClients(loadClients, client) };
}

/** What the set-up did and saw, for the tests to check. */
interface OutageRun {
  url: string;
  database: DatabaseTarget;
  server: ChildServer;
  /** The API's pid before the outage. */
  pid: number;
  stoppedAt: number;
  resumedAt: number;
  writes: Write[];
  health: CallResult[];
  reads: CallResult[];
  /** Whether the API was alive when the outage ended, before the database came back. */
  aliveThroughOutage: boolean;
  healthAfter: CallResult;
  load: ReturnType<typeof startLoad>;
  /** The payment whose settlement fell due while the database was down. */
  dueId: string;
  settled: MoneySnapshot;
}

/** Every call while the database is down must be answered: a network error is the API dead or hung. */
function mustAnswer(server: ChildServer, api: ReturnType<typeof callAs>) {
  return (method: string, path: string, options: CallOptions = {}) =>
    api(method, path, options).catch((err: unknown) => {
      const state = server.alive() ? 'alive' : 'dead';
      throw new Error(
        `${method} ${path} got no answer (${networkError(err)}); the API is ${state}:\n${server.output().slice(-6000)}`,
      );
    });
}

/** Two rounds of writes, a health check and a read while the database is down: right after the stop (the pool's connections were just cut) and later (every new connection is refused). */
async function callWhileDown(call: ReturnType<typeof mustAnswer>, writes: Write[], stoppedAt: number) {
  const health: CallResult[] = [];
  const reads: CallResult[] = [];
  for (const round of [0, 1]) {
    if (round === 1) await sleep(Math.max(0, stoppedAt + outageMs / 2 - Date.now()));
    for (const write of writes) {
      write.answers.push(await call('POST', write.path, { body: write.body, idempotencyKey: write.key }));
    }
    health.push(await call('GET', '/healthz'));
    reads.push(await call('GET', '/balance'));
  }
  return { health, reads };
}

/** Each write retried with its key until answered other than 503, then once more (a replay). */
async function retryWrites(api: ReturnType<typeof callAs>, writes: Write[], url: string) {
  for (const write of writes) {
    const deadline = Date.now() + retryDeadlineMs;
    const options = { body: write.body, idempotencyKey: write.key };
    do {
      write.retry = await api('POST', write.path, options);
      if (write.retry.status !== 503) break;
      await sleep(200);
    } while (Date.now() < deadline);
    write.again = await api('POST', write.path, options);
    write.rowsAfterRetry = await write.rows(url);
  }
}

async function outage(): Promise<OutageRun> {
  const url = await file.cluster().createDatabase();
  const funded = await startFundedServer({
    dir: file.dir,
    name: 'outage',
    funding: 500_000,
    database: {
      dbPath: join(file.dir, 'unused.db'),
      databaseEnv: { DATABASE_URL: url, SECRETS_ENCRYPTION_KEY: secretsKey },
    },
    env: {
      SANDBOX_SETTLE_MS: String(settleMs),
      WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
      // A statement that hangs on a half-dead connection gives up quickly.
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    },
  });
  const { server, database, serviceId } = funded;
  file.track(server);
  const api = callAs(server, funded.account);
  const load = startLoad(api, serviceId);
  await waitUntil(
    () => load.logicals.filter((l) => l.answers.some((a) => a.status === 202)).length >= 20,
    30_000,
    () => `only ${load.logicals.length} requests under way before the stop`,
    20,
  );
  // A payment whose sandbox outcome (success) falls due while the database is down.
  const due = await api('POST', '/payments', {
    idempotencyKey: 'outage-due',
    body: logicalRequest('payment', 'outage-due', 4_321, numbers.success, serviceId).body,
  });
  if (due.status !== 202) throw new Error(`the due payment: ${due.status} ${due.text}`);

  const pid = server.pid;
  await file.cluster().pause();
  clusterDown = true;
  const stoppedAt = Date.now();
  const writes = writesOf(serviceId);
  const { health, reads } = await callWhileDown(mustAnswer(server, api), writes, stoppedAt);
  // The outage lasts past the due payment's settlement time.
  await sleep(Math.max(0, stoppedAt + outageMs - Date.now()));
  const aliveThroughOutage = server.alive();

  await file.cluster().resume();
  clusterDown = false;
  const resumedAt = Date.now();
  for (const write of writes) write.rowsAtResume = await write.rows(url);
  const healthAfter = await pollUntil(
    () => api('GET', '/healthz'),
    (h) => h.status === 200,
    retryDeadlineMs,
    200,
  );
  await retryWrites(api, writes, url);
  await load.stop();
  const dueId = due.body.data.transaction_id as string;
  const settled = await pollUntil(
    () => readMoney(database),
    (snapshot) => snapshot.movements.every((m) => m.status === 'success'),
    retryDeadlineMs,
  );
  return {
    url,
    database,
    server,
    pid,
    stoppedAt,
    resumedAt,
    writes,
    health,
    reads,
    aliveThroughOutage,
    healthAfter,
    load,
    dueId,
    settled,
  };
}

/** The set-up's report: how long the database was down, and what was sent meanwhile. */
function summary(run: OutageRun): string {
  const answers = run.load.logicals.flatMap((l) => l.answers);
  return (
    `[faults/database-outage-postgres] seed ${seed}: database down ${((run.resumedAt - run.stoppedAt) / 1000).toFixed(1)} s ` +
    `(pg_ctl stop -m immediate); ${run.writes.length} writes in two rounds, healthz and GET /balance twice while down; ` +
    `load: ${run.load.logicals.length} logical requests from ${loadClients} clients, ${answers.filter((a) => a.status === 503).length} × 503`
  );
}

describe('the PostgreSQL server stopped (pg_ctl stop -m immediate) while the API runs', () => {
  const run = {} as OutageRun;
  recordOnce(run, outage, summary, 150_000);

  const outageAnswers = () =>
    run.writes.flatMap((w) => w.answers.map((answer) => ({ label: w.label, answer })));

  it('stops the database with the load under way and the due payment not yet settled (the premise)', async () => {
    expect(
      run.load.logicals.filter((l) => l.answers.some((a) => a.status === 202)).length,
    ).toBeGreaterThanOrEqual(20);
    const [credit] = await queryPostgres<{ created_at: number }>(
      run.url,
      "SELECT created_at FROM ledger_entries WHERE source_id = ? AND type = 'payment'",
      [run.dueId],
    );
    expect(credit?.created_at, 'the due payment settled before the database stopped').toBeGreaterThanOrEqual(
      run.stoppedAt,
    );
  });

  it('answers every write 503 service_unavailable with Retry-After while the database is down', () => {
    const undocumented = outageAnswers()
      .filter(({ answer }) => !documented503(answer))
      .map(({ label, answer }) => `${label}: ${answer.status} ${answer.text}`);
    expect(undocumented).toEqual([]);
  });

  it('answers the health check and a read 503 while the database is down', () => {
    expect(run.health.map((h) => h.status)).toEqual([503, 503]);
    expect(run.health.every((h) => h.body?.error?.code === 'service_unavailable')).toBe(true);
    // A read needs the database too: a 503 as well, never a 500.
    expect(run.reads.filter((r) => !documented503(r)).map((r) => `${r.status} ${r.text}`)).toEqual([]);
  });

  it('shows no stack frame, driver error or server file in any answer while the database is down', () => {
    const answers = [...outageAnswers().map((w) => w.answer), ...run.health, ...run.reads];
    expect(answers.filter((r) => leak.test(r.text)).map((r) => r.text)).toEqual([]);
  });

  it('stays up through the outage, never cutting a request of the load', () => {
    expect(
      run.aliveThroughOutage,
      `the API died while the database was down:\n${run.server.output().slice(-3000)}`,
    ).toBe(true);
    expect(run.load.logicals.flatMap((l) => l.networkErrors)).toEqual([]);
  });

  it('committed nothing behind a 503', () => {
    expect(run.writes.map((w) => [w.label, w.rowsAtResume])).toEqual(run.writes.map((w) => [w.label, 0]));
  });

  it('answers the health check 200 again once the database is back, without a restart', () => {
    expect(run.healthAfter.status, run.healthAfter.text).toBe(200);
    expect(run.server.pid).toBe(run.pid);
    expect(run.server.alive()).toBe(true);
  });

  it('takes each write retried with its key once the database is back, once', () => {
    for (const write of run.writes) {
      const retry = write.retry as CallResult;
      expect([201, 202], `${write.label}: ${retry.text}`).toContain(retry.status);
      expect(retry.headers.get('idempotent-replayed'), write.label).not.toBe('true');
      expect(idOf(retry), `${write.label}: ${retry.text}`).toBeTruthy();
      expect(write.rowsAfterRetry, write.label).toBe(1);
    }
  });

  it('replays each of those writes when it is sent once more, the webhook endpoint by naming it', () => {
    for (const { label, retry, again } of run.writes) {
      if (label === 'webhook endpoint') {
        // Its signing secret is shown once: a retry is told so, naming the endpoint it created.
        expect(again?.status, `${label} replay: ${again?.text}`).toBe(409);
        expect(again?.body.error.code).toBe('secret_not_replayed');
        expect(again?.body.error.message).toContain(idOf(retry as CallResult));
      } else {
        expect(again?.status, `${label} replay: ${again?.text}`).toBe(retry?.status);
        expect(again?.headers.get('idempotent-replayed'), label).toBe('true');
        expect(again?.text).toBe(retry?.text);
      }
    }
  });

  it('answers every request of the load 202 in the end, stored once under the id it named', async () => {
    expect(run.load.unexpected).toEqual([]);
    const stored = await queryPostgres<{ id: string; reference: string }>(
      run.url,
      'SELECT id, reference FROM payments UNION ALL SELECT id, reference FROM topups',
    );
    const wrong: string[] = [];
    for (const { request, answers, networkErrors } of run.load.logicals) {
      const final = answers.at(-1);
      const rows = stored.filter((r) => r.reference === request.key).map((r) => r.id);
      for (const a of answers) {
        if (a.status !== 202 && !documented503(a)) wrong.push(`${request.key}: ${a.status} ${a.text}`);
      }
      if (networkErrors.length > 0) wrong.push(`${request.key}: network errors ${networkErrors.join('; ')}`);
      if (final?.status !== 202) wrong.push(`${request.key}: last answer ${final?.status} ${final?.text}`);
      else if (rows.length !== 1 || rows[0] !== final.body.data.transaction_id) {
        wrong.push(`${request.key}: answered ${final.body.data.transaction_id}, stored [${rows}]`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('settles the payment that fell due during the outage, once', async () => {
    const due = run.settled.movements.find((m) => m.id === run.dueId);
    expect(due?.status).toBe('success');
    const credits = await queryPostgres<{ n: number }>(
      run.url,
      "SELECT COUNT(*) AS n FROM ledger_entries WHERE source_id = ? AND type = 'payment'",
      [run.dueId],
    );
    expect(credits[0]?.n).toBe(1);
  });

  it('settles everything else, every balance equal to its ledger, with no 500 and no restart', () => {
    expect(
      run.settled.movements.filter((m) => m.status !== 'success').map((m) => `${m.kind} ${m.id} ${m.status}`),
    ).toEqual([]);
    expect(run.settled.problems).toEqual([]);
    expect(file.internalErrors()).toEqual([]);
    expect(run.server.pid).toBe(run.pid);
  });
});
