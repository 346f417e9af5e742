/**
 * Crash: 20 clients send payments, payouts and top-ups to the real server (a child process);
 * it is killed with SIGKILL mid-load and restarted on the same database (the SQLite file, or with
 * `TEST_DATABASE=postgres` a fresh PostgreSQL database of the run's cluster). Then every request
 * that was answered 2xx exists exactly once, nothing else moved money, every balance equals its
 * ledger, settlement carries on to the sandbox's outcomes, and every event reaches the webhook
 * receiver registered before the crash.
 *
 * The crash, the restart, the clients' retries and the waits for recovery happen once, in the
 * set-up; each test then checks one of those promises on what the set-up recorded.
 *
 * SIGKILL kills the process, not the machine: what a committed transaction wrote is in the OS
 * page cache (SQLite) or the database server (PostgreSQL) either way. Losing power is not
 * simulated here (`synchronous=FULL`, PostgreSQL's fsync on commit are what cover it).
 */
import { describe, expect, it } from 'vitest';
import {
  type CallResult,
  type ChildServer,
  type CliAccount,
  type DatabaseTarget,
  startChildServer,
} from '../support/child-server.js';
import { callAs, startFundedServer } from './support/funded-server.js';
import { faultFile, random, recordOnce, seed } from './support/harness.js';
import {
  type LogicalRequest,
  logicalRequest,
  networkError,
  numbers,
  pollUntil,
  runClients,
  waitUntil,
} from './support/load.js';
import { describeDatabase, type MoneySnapshot, readMoney, watchUnansweredCommits } from './support/money.js';
import { type FaultReceiver, startFaultReceiver } from './support/receiver.js';
import { settledStatus, strangers, unsettled, waitForSettlement } from './support/settlement.js';

const clients = 20;
/** Webhooks are refused from this many answers on, so deliveries are queued at the crash. */
const refuseWebhooksAfter = 150;
const killAfterAnswers = 300;
// The receiver is on 127.0.0.1: sandbox endpoints may be local only with the opt-in. It refuses
// for a while on purpose: the circuit breaker must not pause it past the test's deadline.
const serverEnv = {
  WEBHOOK_RETRY_MAX_MS: '500',
  WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
  WEBHOOK_CIRCUIT_FAILURES: '1000',
};

interface Sent {
  request: LogicalRequest;
  response?: CallResult;
  networkError?: string;
  /** For a request whose answer the crash swallowed: the answer to its retry after the restart. */
  retry?: CallResult;
}

/** What the set-up did and saw, for the tests to check. */
interface CrashRun {
  database: DatabaseTarget;
  account: CliAccount;
  servers: { before: ChildServer; after: ChildServer };
  sent: Sent[];
  /** Whether the kill came while the server was paused between a commit and its answer. */
  aimed: boolean;
  /** The database right after the kill, before anything recovered. */
  atCrash: MoneySnapshot;
  restartedAt: number;
  /** The database once settlement finished (or its wait ran out). */
  settled: MoneySnapshot;
  /** The database once every delivery succeeded (or its wait ran out). */
  delivered: MoneySnapshot;
}

const file = faultFile('faults-crash-');
let receiver: FaultReceiver;
const run = {} as CrashRun;

/**
 * Clients sending one request after the other until `stop()`, each recorded with its answer
 * or the network error that cut it.
 */
function startClients(api: ReturnType<typeof callAs>, serviceId: string) {
  const next = random();
  const msisdns = [numbers.success, numbers.success, numbers.success2, numbers.fails, numbers.neverSettles];
  const kinds = ['payment', 'payout', 'topup'] as const;
  const sent: Sent[] = [];
  const answeredKeys = new Set<string>();
  const client = async (_: number, on: () => boolean) => {
    while (on()) {
      const i = sent.length;
      const kind = kinds[i % kinds.length] as (typeof kinds)[number];
      const msisdn = msisdns[Math.floor(next() * msisdns.length)] as string;
      // Payouts are large enough that the balance runs out and some are refused.
      const amount =
        kind === 'payout' ? 1000 + Math.floor(next() * 40) * 1000 : 100 + Math.floor(next() * 50) * 100;
      const record: Sent = { request: logicalRequest(kind, `crash-${seed}-${i}`, amount, msisdn, serviceId) };
      sent.push(record);
      const { path, body, key } = record.request;
      try {
        record.response = await api('POST', path, { body, idempotencyKey: key });
        answeredKeys.add(key);
      } catch (err) {
        record.networkError = networkError(err);
      }
    }
  };
  return { sent, answeredKeys, ...runClients(clients, client) };
}

/** Loads the server until webhook deliveries are refused, then kills it, aimed if it can be. */
async function loadAndKill(
  server: ChildServer,
  database: DatabaseTarget,
  load: ReturnType<typeof startClients>,
) {
  const answers = () => load.answeredKeys.size;
  await waitUntil(
    () => answers() >= refuseWebhooksAfter,
    60_000,
    () => `only ${answers()} answers`,
    5,
  );
  receiver.setAccepting(false);
  // Enough answers, and deliveries left pending by the refusals (payments settle 200 ms after
  // they are made: a fast server answers its 300 before any has settled).
  const refused = () => receiver.deliveries().filter((d) => d.answered === 503).length;
  await waitUntil(
    () => answers() >= killAfterAnswers && refused() >= 5,
    60_000,
    () => `only ${answers()} answers, ${refused()} deliveries refused`,
    5,
  );
  // Aim the kill: pause the server until it is caught between a commit and its answer.
  const watcher = await watchUnansweredCommits(
    database,
    (reference) => reference === 'crash-fund' || load.answeredKeys.has(reference),
  );
  const aimed = await watcher.pauseBetweenCommitAndAnswer(server);
  await watcher.close();
  const killing = server.kill();
  await load.stop();
  await killing;
  return aimed;
}

/**
 * Clients retry, with the same key, every request whose answer the crash swallowed, until it is
 * answered (a test then fails a retry that never was).
 */
async function retrySwallowed(api: ReturnType<typeof callAs>, sent: Sent[]) {
  for (const record of sent.filter((s) => s.networkError !== undefined)) {
    const { path, body, key } = record.request;
    record.retry = await pollUntil(
      () => api('POST', path, { body, idempotencyKey: key }).catch(() => undefined),
      (answer) => answer !== undefined,
      15_000,
      200,
    );
  }
}

/** Every delivery succeeded and every event reached the receiver. */
function allDelivered(snapshot: MoneySnapshot): boolean {
  const accepted = receiver.accepted();
  return (
    snapshot.deliveries.every((d) => d.status === 'succeeded') &&
    snapshot.events.every((e) => accepted.has(e.id))
  );
}

async function crashUnderLoad(): Promise<CrashRun> {
  receiver = await startFaultReceiver();
  file.closeAtEnd(receiver);
  const funded = await startFundedServer({
    dir: file.dir,
    name: 'crash',
    env: serverEnv,
    webhookUrl: receiver.url,
    funding: 300_000,
  });
  const { database, account, serviceId } = funded;
  const before = file.track(funded.server);

  const load = startClients(callAs(before, account), serviceId);
  const aimed = await loadAndKill(before, database, load);
  const atCrash = await readMoney(database);

  const after = file.track(await startChildServer({ ...database, name: 'after-crash', env: serverEnv }));
  const restartedAt = Date.now();
  receiver.setAccepting(true);
  await retrySwallowed(callAs(after, account), load.sent);
  const settled = await waitForSettlement(database);
  const delivered = await pollUntil(() => readMoney(database), allDelivered, 30_000);
  return {
    database,
    account,
    servers: { before, after },
    sent: load.sent,
    aimed,
    atCrash,
    restartedAt,
    settled,
    delivered,
  };
}

/** The set-up's report: what the kill cut, whether it was aimed, what it left queued. */
function summary(run: CrashRun): string {
  const cut = run.sent.filter((s) => s.networkError !== undefined);
  return (
    `[faults/crash] ${describeDatabase(run.database)}, seed ${seed}: ${run.sent.length} requests from ${clients} clients, ` +
    `${run.sent.length - cut.length} answered before the kill, ${cut.length} cut by it ` +
    `(${run.aimed ? 'aimed: killed while paused between a commit and its answer' : 'not aimed: no pause caught a commit without its answer'}), ` +
    `${cut.filter((s) => run.atCrash.byReference.has(s.request.key)).length} of them had committed; ` +
    `${run.atCrash.deliveries.filter((d) => d.status === 'pending').length} webhook deliveries queued at the crash`
  );
}

describe('kill -9 under load, then restart on the same database', () => {
  recordOnce(run, crashUnderLoad, summary, 150_000);

  const cutByTheKill = () => run.sent.filter((s) => s.networkError !== undefined);

  it('is killed with requests in flight and webhook deliveries queued (the premise)', () => {
    expect(cutByTheKill().length).toBeGreaterThan(0);
    expect(run.atCrash.deliveries.filter((d) => d.status === 'pending').length).toBeGreaterThan(0);
  });

  it('leaves the database consistent at the moment of the crash', () => {
    expect(run.atCrash.problems).toEqual([]);
  });

  it('answered only 202, or 403 insufficient_balance for a payout, before the crash', () => {
    const unexpected = run.sent
      .filter((s): s is Sent & { response: CallResult } => s.response !== undefined)
      .filter(({ request, response: r }) => {
        if (r.status === 202) return false;
        return !(
          r.status === 403 &&
          request.kind === 'payout' &&
          r.body?.error?.code === 'insufficient_balance'
        );
      })
      .map((s) => `${s.request.kind} ${s.request.key}: ${s.response.status} ${s.response.text}`);
    expect(unexpected).toEqual([]);
  });

  it('replays a retried request that had committed, with its id, and takes one that had not', () => {
    for (const { request, retry } of cutByTheKill()) {
      expect(retry, `retry of ${request.key}`).toBeDefined();
      const committed = run.atCrash.byReference.get(request.key);
      if (committed) {
        expect(retry?.status, `${request.key} committed before the crash: ${retry?.text}`).toBe(202);
        expect(retry?.headers.get('idempotent-replayed')).toBe('true');
        expect(retry?.body.data.transaction_id).toBe(committed[0]?.id);
      } else {
        expect([202, 403], `${request.key}: ${retry?.text}`).toContain(retry?.status);
      }
    }
  });

  it('settles every movement to what its number decides after the restart', () => {
    expect(unsettled(run.settled).slice(0, 10)).toEqual([]);
  });

  it('holds every request answered 2xx exactly once, with the id and the status it was answered with', async () => {
    const final = run.delivered;
    const notExactlyOnce: string[] = [];
    for (const { request, response, retry } of run.sent) {
      const answer = response ?? retry;
      const rows = final.byReference.get(request.key) ?? [];
      if (!answer || answer.status < 200 || answer.status >= 300) continue;
      const id = answer.body.data.transaction_id as string;
      if (rows.length !== 1 || rows[0]?.id !== id) {
        notExactlyOnce.push(
          `${request.key} answered ${id} but the database holds [${rows.map((r) => r.id)}]`,
        );
      }
      const read = await callAs(run.servers.after, run.account)('GET', `${request.path}/${id}`);
      const want = settledStatus(request.kind, request.msisdn);
      const { amount, reference, status } = read.body?.data ?? {};
      if (read.status !== 200 || amount !== request.amount || reference !== request.key || status !== want) {
        notExactlyOnce.push(
          `GET ${request.path}/${id}: ${read.status} ${read.text} (expected status ${want})`,
        );
      }
    }
    expect(notExactlyOnce).toEqual([]);
  });

  it('created nothing for a request that was refused', () => {
    const created = run.sent
      .map((s) => ({ key: s.request.key, answer: s.response ?? s.retry }))
      .filter(({ answer }) => !answer || answer.status < 200 || answer.status >= 300)
      .filter(({ key }) => run.delivered.byReference.has(key))
      .map(({ key, answer }) => `${key} was answered ${answer?.status} but created a movement`);
    expect(created).toEqual([]);
  });

  it('moved no money but these requests and the funding top-up', () => {
    const keys = run.sent.map((s) => s.request.key);
    expect(strangers(run.delivered, keys, 'crash-fund')).toEqual([]);
  });

  it('ends with every balance equal to its ledger, and the API shows that balance', async () => {
    expect(run.delivered.problems).toEqual([]);
    const balance = await callAs(run.servers.after, run.account)('GET', '/balance');
    const walletId = balance.body.data.wallet_id as string;
    const stored = run.delivered.balances.find((b) => b.wallet_id === walletId && b.currency === 'XAF');
    const shown = balance.body.data.balances.find((b: { currency: string }) => b.currency === 'XAF');
    expect(shown.available).toBe(stored?.available);
  });

  it('delivers every event after the restart, those queued at the crash included', () => {
    const accepted = receiver.accepted();
    expect(run.delivered.events.filter((e) => !accepted.has(e.id)).map((e) => e.id)).toEqual([]);
    expect(run.delivered.deliveries.filter((d) => d.status !== 'succeeded').map((d) => d.id)).toEqual([]);
    const acceptedAfter = new Set(
      receiver
        .deliveries()
        .filter((d) => d.answered === 200 && d.at >= run.restartedAt)
        .map((d) => d.eventId),
    );
    const queuedAtCrash = run.atCrash.deliveries.filter((d) => d.status === 'pending');
    expect(queuedAtCrash.filter((d) => !acceptedAfter.has(d.event_id)).map((d) => d.event_id)).toEqual([]);
  });

  it('delivers nothing unknown, and queues one delivery per event', () => {
    const allEvents = new Set(run.delivered.events.map((e) => e.id));
    expect(receiver.deliveries().filter((d) => !allEvents.has(d.eventId) || d.bodyId !== d.eventId)).toEqual(
      [],
    );
    expect(run.delivered.deliveries.length).toBe(run.delivered.events.length);
  });

  it('answered no request with a 500 on either side of the crash', () => {
    expect(file.internalErrors()).toEqual([]);
  });
});
