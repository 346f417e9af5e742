/**
 * Idempotency under chaos: clients send payments, payouts and top-ups, each logical request
 * from two senders at once (a client that gave up waiting and retried while its first attempt
 * was still in flight), and every sender retries with the same Idempotency-Key after a network
 * error or a 503, while the server is killed with SIGKILL and restarted on the same database
 * several times (the SQLite file, or with `TEST_DATABASE=postgres` a fresh PostgreSQL database of
 * the run's cluster). At the end each logical request created exactly one movement, every answer
 * it got names that movement, and the money adds up.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  type CallResult,
  type ChildServer,
  type CliAccount,
  callApi,
  createAccountWithCli,
  startChildServer,
} from '../support/child-server.js';
import {
  expectedOutcome,
  internalErrors,
  type LogicalRequest,
  logicalRequest,
  numbers,
  seededRandom,
  sleep,
  tempFolder,
  waitUntil,
} from './support/load.js';
import {
  describeDatabase,
  type MoneySnapshot,
  readMoney,
  testDatabase,
  watchUnansweredCommits,
} from './support/money.js';

const kills = 4;
const clients = 10;
/** Each client waits this long between logical requests, so the load spans every kill. */
const paceMs = 40;
const maxLogical = 900;
/** A logical request still unanswered after this long fails the test. */
const perRequestDeadlineMs = 60_000;
const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);

interface Attempt {
  status?: number;
  transactionId?: string;
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

const folder = tempFolder('faults-chaos-');
const servers: ChildServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  folder.remove();
});

const statusOf: Record<LogicalRequest['kind'], Record<string, string>> = {
  payment: { success: 'success', failed: 'failed', pending: 'initiated' },
  topup: { success: 'success', failed: 'failed', pending: 'initiated' },
  payout: { success: 'success', failed: 'failed', pending: 'pending' },
};

describe('retries with the same Idempotency-Key while the server is killed and restarted', () => {
  it('create each movement exactly once', { timeout: 180_000 }, async () => {
    const started = Date.now();
    const database = await testDatabase(folder.dir);
    const account: CliAccount = await createAccountWithCli(database, 'Chaos test');
    let server = await startChildServer({ ...database, name: 'chaos-0' });
    servers.push(server);
    const api = (method: string, path: string, options: Parameters<typeof callApi>[4] = {}) =>
      callApi(server.url, account, method, path, options);

    const service = await api('POST', '/services', { body: { name: 'Chaos shop' } });
    expect(service.status, service.text).toBe(201);
    const serviceId = service.body.data.service_id as string;
    const fund = await api('POST', '/topups', {
      idempotencyKey: 'chaos-fund',
      body: logicalRequest('topup', 'chaos-fund', 5_000_000, numbers.success, serviceId).body,
    });
    expect(fund.status, fund.text).toBe(202);
    await waitUntil(
      async () =>
        (await api('GET', `/topups/${fund.body.data.transaction_id}`)).body.data.status === 'success',
      15_000,
      () => 'the funding top-up never settled',
    );

    const answeredKeys = new Set<string>();
    let httpRequests = 0;
    let inFlight = 0;
    let transient503 = 0;
    const unexpected: string[] = [];

    /** One sender: tries until it gets an HTTP answer other than 503, with the same key. */
    const sendUntilAnswered = async (logical: Logical): Promise<void> => {
      const deadline = Date.now() + perRequestDeadlineMs;
      while (Date.now() < deadline) {
        const attempt: Attempt = {};
        logical.attempts.push(attempt);
        httpRequests++;
        inFlight++;
        try {
          const response = await api('POST', logical.request.path, {
            body: logical.request.body,
            idempotencyKey: logical.request.key,
            timeoutMs: 10_000,
          }).finally(() => inFlight--);
          attempt.status = response.status;
          attempt.replayed = response.headers.get('idempotent-replayed') === 'true';
          if (response.status === 503) {
            transient503++;
            if (
              response.body?.error?.code !== 'service_unavailable' ||
              !response.headers.get('retry-after')
            ) {
              unexpected.push(
                `${logical.request.key}: 503 without the documented envelope: ${response.text}`,
              );
            }
          } else {
            answeredKeys.add(logical.request.key);
            attempt.transactionId = response.body?.data?.transaction_id;
            logical.answers.push(response);
            return;
          }
        } catch (err) {
          const cause = (err as { cause?: { code?: string } }).cause;
          attempt.networkError = cause?.code ?? (err as Error).name;
        }
        await sleep(50 + Math.floor(Math.random() * 100));
      }
      unexpected.push(`${logical.request.key}: no answer within ${perRequestDeadlineMs} ms`);
    };

    const random = seededRandom(seed);
    const msisdns = [numbers.success, numbers.success2, numbers.fails, numbers.neverSettles];
    const kinds = ['payment', 'payout', 'topup'] as const;
    const logicals: Logical[] = [];
    let loadOn = true;
    const client = async () => {
      while (loadOn && logicals.length < maxLogical) {
        const i = logicals.length;
        const kind = kinds[i % kinds.length] as (typeof kinds)[number];
        const msisdn = msisdns[Math.floor(random() * msisdns.length)] as string;
        const amount = 100 + Math.floor(random() * 20) * 100;
        const logical: Logical = {
          request: logicalRequest(kind, `chaos-${seed}-${i}`, amount, msisdn, serviceId),
          attempts: [],
          answers: [],
        };
        logicals.push(logical);
        await Promise.all([sendUntilAnswered(logical), sendUntilAnswered(logical)]);
        await sleep(paceMs);
      }
    };
    const running = Array.from({ length: clients }, client);

    // Chaos: let the load run a little, kill, restart on the same database; again. Every other kill
    // is aimed: the server is paused at random moments until it is caught holding a committed
    // movement it has not answered, and killed then.
    const watcher = await watchUnansweredCommits(
      database,
      (reference) => reference === 'chaos-fund' || answeredKeys.has(reference),
    );
    const downtimes: number[] = [];
    const inFlightAtKill: number[] = [];
    let aimedHits = 0;
    for (let k = 1; k <= kills; k++) {
      await sleep(1000 + Math.floor(random() * 1000));
      if (k % 2 === 0 && (await watcher.pauseBetweenCommitAndAnswer(server))) aimedHits++;
      inFlightAtKill.push(inFlight);
      await server.kill();
      const killedAt = Date.now();
      server = await startChildServer({ ...database, name: `chaos-${k}` });
      servers.push(server);
      downtimes.push(Date.now() - killedAt);
    }
    await watcher.close();
    await sleep(500);
    loadOn = false;
    await Promise.all(running);
    expect(unexpected).toEqual([]);

    // Settlement finishes what is left, then the database is checked.
    let snapshot: MoneySnapshot = await readMoney(database);
    await waitUntil(
      async () => {
        snapshot = await readMoney(database);
        return snapshot.movements.every(
          (m) => m.status === statusOf[m.kind][expectedOutcome(m.msisdn ?? '')],
        );
      },
      30_000,
      () =>
        `not settled: ${snapshot.movements
          .filter((m) => m.status !== statusOf[m.kind][expectedOutcome(m.msisdn ?? '')])
          .slice(0, 10)
          .map((m) => `${m.kind} ${m.id} ${m.msisdn} ${m.status}`)
          .join('; ')}`,
    );
    expect(snapshot.problems).toEqual([]);

    const wrong: string[] = [];
    /** Requests whose committing attempt lost its answer to a kill: every answer they got is a replay. */
    let lostAnswers = 0;
    for (const logical of logicals) {
      const rows = snapshot.byReference.get(logical.request.key) ?? [];
      const ids = new Set(logical.answers.map((a) => a.body?.data?.transaction_id));
      const statuses = logical.answers.map((a) => a.status);
      if (statuses.length !== 2 || statuses.some((s) => s !== 202)) {
        wrong.push(
          `${logical.request.key}: answers ${statuses.join(',')}: ${logical.answers.map((a) => a.text).join(' | ')}`,
        );
      }
      if (rows.length !== 1) {
        wrong.push(
          `${logical.request.key}: ${rows.length} movements in the database [${rows.map((r) => r.id)}]`,
        );
      } else if (ids.size !== 1 || !ids.has(rows[0]?.id)) {
        wrong.push(
          `${logical.request.key}: answered with [${[...ids]}] but the database holds ${rows[0]?.id}`,
        );
      } else if (rows[0]?.amount !== logical.request.amount || rows[0]?.kind !== logical.request.kind) {
        wrong.push(`${logical.request.key}: the database holds ${rows[0]?.kind} ${rows[0]?.amount}`);
      }
      if (logical.answers.every((a) => a.headers.get('idempotent-replayed') === 'true')) lostAnswers++;
    }
    expect(wrong).toEqual([]);

    const keys = new Set(logicals.map((l) => l.request.key));
    const strangers = snapshot.movements
      .filter((m) => m.reference === null || (!keys.has(m.reference) && m.reference !== 'chaos-fund'))
      .map((m) => `${m.kind} ${m.id} reference ${m.reference}`);
    expect(strangers).toEqual([]);
    expect(snapshot.movements.length).toBe(logicals.length + 1);

    const failures = internalErrors(servers);
    expect(failures).toEqual([]);

    const networkErrors = logicals.flatMap((l) => l.attempts.filter((a) => a.networkError));
    const refused = networkErrors.filter((a) => a.networkError === 'ECONNREFUSED').length;
    const replays = logicals.reduce((n, l) => n + l.attempts.filter((a) => a.replayed).length, 0);
    console.info(
      `[faults/idempotency-chaos] ${describeDatabase(database)}, seed ${seed}: ${logicals.length} logical requests, each from 2 concurrent senders; ` +
        `${httpRequests} HTTP attempts: ${networkErrors.length - refused} cut by a kill, ${refused} refused while down, ${transient503} × 503, ` +
        `${replays} answered by replay; ${lostAnswers} requests committed but lost their answer to a kill and were replayed; ` +
        `${kills} kills (${aimedHits} caught between a commit and its answer) with ${inFlightAtKill.join(', ')} requests in flight (restart ${downtimes.map((d) => `${(d / 1000).toFixed(1)} s`).join(', ')}); ` +
        `${snapshot.movements.length - 1} movements, exactly one per request; whole test ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(inFlightAtKill.some((n) => n > 0)).toBe(true);
    await server.stop();
  });
});
