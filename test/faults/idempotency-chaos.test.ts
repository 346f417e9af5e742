/**
 * Idempotency under chaos: clients send payments, payouts and top-ups, each logical request
 * from two senders at once (a client that gave up waiting and retried while its first attempt
 * was still in flight), and every sender retries with the same Idempotency-Key after a network
 * error or a 503, while the server is killed with SIGKILL and restarted on the same database
 * several times (the SQLite file, or with `TEST_DATABASE=postgres` a fresh PostgreSQL database of
 * the run's cluster). At the end each logical request created exactly one movement, every answer
 * it got names that movement, and the money adds up.
 *
 * The load, the kills and the wait for settlement happen once, in the set-up; each test then
 * checks one promise on what the set-up recorded.
 */
import { describe, expect, it } from 'vitest';
import {
  type CallResult,
  type ChildServer,
  type DatabaseTarget,
  startChildServer,
} from '../support/child-server.js';
import { callAs, type FundedServer, startFundedServer } from './support/funded-server.js';
import { faultFile, random, recordOnce, seed } from './support/harness.js';
import {
  type LogicalRequest,
  logicalRequest,
  numbers,
  runClients,
  sleep,
  waitUntil,
} from './support/load.js';
import { describeDatabase, type MoneySnapshot, watchUnansweredCommits } from './support/money.js';
import { strangers, unsettled, waitForSettlement } from './support/settlement.js';

const kills = 4;
const clients = 10;
/** Each client waits this long between logical requests, so the load spans every kill. */
const paceMs = 40;
/** Requests each server answers before it is killed, however long a busy machine takes to start it. */
const answersBeforeKill = 10;
const maxLogical = 900;
/** A logical request still unanswered after this long fails the test. */
const perRequestDeadlineMs = 60_000;

interface Attempt {
  status?: number;
  replayed?: boolean;
  /** The network error's code: ECONNREFUSED while the server was down, another when a kill cut the request. */
  networkError?: string;
}

interface Logical {
  request: LogicalRequest;
  attempts: Attempt[];
  /** The definitive answer of each sender. */
  answers: CallResult[];
}

/** What the set-up did and saw, for the tests to check. */
interface ChaosRun {
  database: DatabaseTarget;
  logicals: Logical[];
  /** What went wrong on the clients' side: an undocumented 503, a request never answered. */
  unexpected: string[];
  /** Requests in flight at each kill. */
  inFlightAtKill: number[];
  /** Kills that came while the server was paused between a commit and its answer. */
  aimedHits: number;
  /** The database once settlement finished (or its wait ran out). */
  settled: MoneySnapshot;
}

const file = faultFile('faults-chaos-');
const run = {} as ChaosRun;

/**
 * Clients whose every logical request goes out from two senders at once, each retrying with
 * the same key until it gets an HTTP answer other than 503; `server()` is whichever runs now.
 */
function startSenders(funded: FundedServer, server: () => ChildServer) {
  const logicals: Logical[] = [];
  const unexpected: string[] = [];
  const answeredKeys = new Set<string>();
  let inFlight = 0;

  const sendUntilAnswered = async ({ request, attempts, answers }: Logical): Promise<void> => {
    const deadline = Date.now() + perRequestDeadlineMs;
    while (Date.now() < deadline) {
      const attempt: Attempt = {};
      attempts.push(attempt);
      inFlight++;
      try {
        const response = await callAs(server(), funded.account)('POST', request.path, {
          body: request.body,
          idempotencyKey: request.key,
          timeoutMs: 10_000,
        }).finally(() => inFlight--);
        attempt.status = response.status;
        attempt.replayed = response.headers.get('idempotent-replayed') === 'true';
        if (response.status !== 503) {
          answeredKeys.add(request.key);
          answers.push(response);
          return;
        }
        if (response.body?.error?.code !== 'service_unavailable' || !response.headers.get('retry-after')) {
          unexpected.push(`${request.key}: 503 without the documented envelope: ${response.text}`);
        }
      } catch (err) {
        attempt.networkError = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
      }
      await sleep(50 + Math.floor(Math.random() * 100));
    }
    unexpected.push(`${request.key}: no answer within ${perRequestDeadlineMs} ms`);
  };

  const next = random();
  const msisdns = [numbers.success, numbers.success2, numbers.fails, numbers.neverSettles];
  const kinds = ['payment', 'payout', 'topup'] as const;
  const client = async (_: number, on: () => boolean) => {
    while (on() && logicals.length < maxLogical) {
      const i = logicals.length;
      const kind = kinds[i % kinds.length] as (typeof kinds)[number];
      const msisdn = msisdns[Math.floor(next() * msisdns.length)] as string;
      const amount = 100 + Math.floor(next() * 20) * 100;
      const request = logicalRequest(kind, `chaos-${seed}-${i}`, amount, msisdn, funded.serviceId);
      const logical: Logical = { request, attempts: [], answers: [] };
      logicals.push(logical);
      await Promise.all([sendUntilAnswered(logical), sendUntilAnswered(logical)]);
      await sleep(paceMs);
    }
  };
  return { logicals, unexpected, answeredKeys, inFlight: () => inFlight, ...runClients(clients, client) };
}

async function chaos(): Promise<ChaosRun> {
  const funded = await startFundedServer({ dir: file.dir, name: 'chaos', funding: 5_000_000 });
  let server = file.track(funded.server);
  const load = startSenders(funded, () => server);

  // Let the load run a little, kill, restart on the same database; again. Every other kill is
  // aimed: the server is paused at random moments until it is caught holding a committed
  // movement it has not answered, and killed then.
  const killMoment = random(1);
  const watcher = await watchUnansweredCommits(
    funded.database,
    (reference) => reference === 'chaos-fund' || load.answeredKeys.has(reference),
  );
  const inFlightAtKill: number[] = [];
  let aimedHits = 0;
  /** Waits until the server running now answered `answersBeforeKill` requests. */
  const loadReachesServer = async () => {
    const answeredBefore = load.answeredKeys.size;
    await waitUntil(
      () => load.answeredKeys.size >= answeredBefore + answersBeforeKill,
      60_000,
      () => `${server.name} answered ${load.answeredKeys.size - answeredBefore} requests`,
      5,
    );
  };
  for (let k = 1; k <= kills; k++) {
    await loadReachesServer();
    await sleep(Math.floor(killMoment() * 1000));
    if (k % 2 === 0 && (await watcher.pauseBetweenCommitAndAnswer(server))) aimedHits++;
    inFlightAtKill.push(load.inFlight());
    await server.kill();
    server = file.track(await startChildServer({ ...funded.database, name: `chaos-${k}` }));
  }
  await watcher.close();
  // The last restart is answering too before the load stops.
  await loadReachesServer();
  await load.stop();
  const settled = await waitForSettlement(funded.database);
  const { database } = funded;
  return {
    database,
    logicals: load.logicals,
    unexpected: load.unexpected,
    inFlightAtKill,
    aimedHits,
    settled,
  };
}

/** The set-up's report: the attempts the senders made, and what each kill caught. */
function summary(run: ChaosRun): string {
  const attempts = run.logicals.flatMap((l) => l.attempts);
  const refused = attempts.filter((a) => a.networkError === 'ECONNREFUSED').length;
  return (
    `[faults/idempotency-chaos] ${describeDatabase(run.database)}, seed ${seed}: ` +
    `${run.logicals.length} logical requests, each from 2 concurrent senders; ${attempts.length} HTTP attempts: ` +
    `${attempts.filter((a) => a.networkError).length - refused} cut by a kill, ${refused} refused while down, ` +
    `${attempts.filter((a) => a.status === 503).length} × 503, ${attempts.filter((a) => a.replayed).length} answered by replay; ` +
    `${kills} kills (${run.aimedHits} caught between a commit and its answer) with ` +
    `${run.inFlightAtKill.join(', ')} requests in flight`
  );
}

describe('retries with the same Idempotency-Key while the server is killed and restarted', () => {
  recordOnce(run, chaos, summary, 180_000);

  it('kills the server with requests in flight (the premise)', () => {
    expect(run.inFlightAtKill.some((n) => n > 0)).toBe(true);
  });

  it('answers every sender of every request, a 503 only in its documented form', () => {
    expect(run.unexpected).toEqual([]);
  });

  it('answers both senders of every request 202', () => {
    const wrong = run.logicals
      .filter(({ answers }) => answers.length !== 2 || answers.some((a) => a.status !== 202))
      .map(
        ({ request, answers }) =>
          `${request.key}: ${answers.map((a) => `${a.status} ${a.text}`).join(' | ')}`,
      );
    expect(wrong).toEqual([]);
  });

  it('creates exactly one movement per request, the one every answer names', () => {
    const wrong: string[] = [];
    for (const { request, answers } of run.logicals) {
      const rows = run.settled.byReference.get(request.key) ?? [];
      const ids = new Set(answers.map((a) => a.body?.data?.transaction_id));
      if (rows.length !== 1) {
        wrong.push(`${request.key}: ${rows.length} movements in the database [${rows.map((r) => r.id)}]`);
      } else if (ids.size !== 1 || !ids.has(rows[0]?.id)) {
        wrong.push(`${request.key}: answered with [${[...ids]}] but the database holds ${rows[0]?.id}`);
      } else if (rows[0]?.amount !== request.amount || rows[0]?.kind !== request.kind) {
        wrong.push(`${request.key}: the database holds ${rows[0]?.kind} ${rows[0]?.amount}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('moves no money but these requests and the funding top-up', () => {
    const keys = run.logicals.map((l) => l.request.key);
    expect(strangers(run.settled, keys, 'chaos-fund')).toEqual([]);
    expect(run.settled.movements.length).toBe(run.logicals.length + 1);
  });

  it('settles every movement to what its number decides, each balance equal to its ledger', () => {
    expect(unsettled(run.settled).slice(0, 10)).toEqual([]);
    expect(run.settled.problems).toEqual([]);
  });

  it('answers no request with a 500 across the kills', () => {
    expect(file.internalErrors()).toEqual([]);
  });
});
