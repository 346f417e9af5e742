/**
 * Crash: 20 clients send payments, payouts and top-ups to the real server (a child process);
 * it is killed with SIGKILL mid-load and restarted on the same database (the SQLite file, or with
 * `TEST_DATABASE=postgres` a fresh PostgreSQL database of the run's cluster). Then every request
 * that was answered 2xx exists exactly once, nothing else moved money, every balance equals its
 * ledger, settlement carries on to the sandbox's outcomes, and every event reaches the webhook
 * receiver registered before the crash.
 *
 * SIGKILL kills the process, not the machine: what a committed transaction wrote is in the OS
 * page cache (SQLite) or the database server (PostgreSQL) either way. Losing power is not
 * simulated here (`synchronous=FULL`, PostgreSQL's fsync on commit are what cover it).
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
  networkError,
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
import { type FaultReceiver, startFaultReceiver } from './support/receiver.js';

const clients = 20;
/** Webhooks are refused from this many answers on, so deliveries are queued at the crash. */
const refuseWebhooksAfter = 150;
const killAfterAnswers = 300;
const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);
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

const folder = tempFolder('faults-crash-');
const servers: ChildServer[] = [];
let receiver: FaultReceiver | undefined;

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await receiver?.close();
  folder.remove();
});

const statusOf: Record<LogicalRequest['kind'], Record<string, string>> = {
  payment: { success: 'success', failed: 'failed', pending: 'initiated' },
  topup: { success: 'success', failed: 'failed', pending: 'initiated' },
  payout: { success: 'success', failed: 'failed', pending: 'pending' },
};

describe('kill -9 under load, then restart on the same database', () => {
  it('keeps every answered request exactly once, moves nothing else, and resumes settlement and webhooks', {
    timeout: 150_000,
  }, async () => {
    const started = Date.now();
    const database = await testDatabase(folder.dir);
    const account: CliAccount = await createAccountWithCli(database, 'Crash test');
    let server = await startChildServer({ ...database, name: 'before-crash', env: serverEnv });
    servers.push(server);
    const api = (method: string, path: string, options: Parameters<typeof callApi>[4] = {}) =>
      callApi(server.url, account, method, path, options);

    receiver = await startFaultReceiver();
    const endpoint = await api('POST', '/webhook-endpoints', { body: { url: receiver.url } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const service = await api('POST', '/services', { body: { name: 'Crash shop' } });
    expect(service.status, service.text).toBe(201);
    const serviceId = service.body.data.service_id as string;
    const fund = await api('POST', '/topups', {
      idempotencyKey: 'crash-fund',
      body: logicalRequest('topup', 'crash-fund', 300_000, numbers.success, serviceId).body,
    });
    expect(fund.status, fund.text).toBe(202);
    await waitUntil(
      async () =>
        (await api('GET', `/topups/${fund.body.data.transaction_id}`)).body.data.status === 'success',
      15_000,
      () => 'the funding top-up never settled',
    );

    // Load: 20 clients, each sending one request after the other until the crash.
    const random = seededRandom(seed);
    const msisdns = [numbers.success, numbers.success, numbers.success2, numbers.fails, numbers.neverSettles];
    const kinds = ['payment', 'payout', 'topup'] as const;
    const sent: Sent[] = [];
    let next = 0;
    let answered = 0;
    const answeredKeys = new Set<string>();
    let stop = false;
    const client = async () => {
      while (!stop) {
        const i = next++;
        const kind = kinds[i % kinds.length] as (typeof kinds)[number];
        const msisdn = msisdns[Math.floor(random() * msisdns.length)] as string;
        // Payouts are large enough that the balance runs out and some are refused.
        const amount =
          kind === 'payout' ? 1000 + Math.floor(random() * 40) * 1000 : 100 + Math.floor(random() * 50) * 100;
        const request = logicalRequest(kind, `crash-${seed}-${i}`, amount, msisdn, serviceId);
        const record: Sent = { request };
        sent.push(record);
        try {
          record.response = await api('POST', request.path, {
            body: request.body,
            idempotencyKey: request.key,
          });
          answeredKeys.add(request.key);
          answered++;
        } catch (err) {
          record.networkError = networkError(err);
        }
      }
    };
    const running = Array.from({ length: clients }, client);
    await waitUntil(
      () => answered >= refuseWebhooksAfter,
      60_000,
      () => `only ${answered} answers`,
      5,
    );
    receiver.setAccepting(false);
    // Enough answers, and deliveries left pending by the refusals (payments settle 200 ms after
    // they are made: a fast server answers its 300 before any has settled).
    const refused = () => receiver?.deliveries.filter((d) => d.answered === 503).length ?? 0;
    await waitUntil(
      () => answered >= killAfterAnswers && refused() >= 5,
      60_000,
      () => `only ${answered} answers, ${refused()} deliveries refused`,
      5,
    );
    // Aim the kill: pause the server until it is caught between a commit and its answer.
    const watcher = await watchUnansweredCommits(
      database,
      (reference) => reference === 'crash-fund' || answeredKeys.has(reference),
    );
    const aimed = await watcher.pauseBetweenCommitAndAnswer(server);
    await watcher.close();
    const killing = server.kill();
    stop = true;
    await killing;
    await Promise.all(running);
    const killedAt = Date.now();

    // Right after the crash, before anything recovers: the database is already consistent.
    const atCrash: MoneySnapshot = await readMoney(database);
    expect(atCrash.problems).toEqual([]);
    const pendingAtCrash = atCrash.deliveries.filter((d) => d.status === 'pending');
    const eventsById = new Map(atCrash.events.map((e) => [e.id, e]));
    const inFlight = sent.filter((s) => s.networkError !== undefined);
    const committedInFlight = inFlight.filter((s) => atCrash.byReference.has(s.request.key));

    // Every answer before the crash was a documented one: 202, or 403 for an unfundable payout.
    const unexpected = sent
      .filter((s) => s.response)
      .filter((s) => {
        const r = s.response as CallResult;
        if (r.status === 202) return false;
        return !(
          r.status === 403 &&
          s.request.kind === 'payout' &&
          r.body?.error?.code === 'insufficient_balance'
        );
      })
      .map((s) => `${s.request.kind} ${s.request.key}: ${s.response?.status} ${s.response?.text}`);
    expect(unexpected).toEqual([]);

    // Restart on the same database; the receiver accepts again.
    server = await startChildServer({ ...database, name: 'after-crash', env: serverEnv });
    servers.push(server);
    const restartedAt = Date.now();
    receiver.setAccepting(true);

    // Clients retry, with the same key, every request whose answer the crash swallowed: a
    // request that had committed is replayed, one that had not is created now.
    for (const record of inFlight) {
      for (let attempt = 0; attempt < 5 && !record.retry; attempt++) {
        try {
          record.retry = await api('POST', record.request.path, {
            body: record.request.body,
            idempotencyKey: record.request.key,
          });
        } catch {
          await sleep(200);
        }
      }
      expect(record.retry, `retry of ${record.request.key}`).toBeDefined();
      const retry = record.retry as CallResult;
      const before = atCrash.byReference.get(record.request.key);
      if (before) {
        expect(retry.status, `${record.request.key} committed before the crash: ${retry.text}`).toBe(202);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body.data.transaction_id).toBe(before[0]?.id);
      } else {
        expect([202, 403], `${record.request.key}: ${retry.text}`).toContain(retry.status);
      }
    }

    // Settlement resumes: every transaction reaches what its number decides.
    const reached = (snapshot: MoneySnapshot) =>
      snapshot.movements.every((m) => {
        const msisdn = m.msisdn ?? '';
        return m.status === statusOf[m.kind][expectedOutcome(msisdn)];
      });
    let latest = await readMoney(database);
    await waitUntil(
      async () => {
        latest = await readMoney(database);
        return reached(latest);
      },
      30_000,
      () =>
        `not settled: ${latest.movements
          .filter((m) => m.status !== statusOf[m.kind][expectedOutcome(m.msisdn ?? '')])
          .map((m) => `${m.kind} ${m.id} ${m.msisdn} ${m.status}`)
          .slice(0, 10)
          .join('; ')}`,
    );

    // Webhook deliveries resume: every event reaches the receiver at least once.
    await waitUntil(
      async () => {
        latest = await readMoney(database);
        const accepted = receiver?.accepted() ?? new Set<string>();
        return (
          latest.deliveries.every((d) => d.status === 'succeeded') &&
          latest.events.every((e) => accepted.has(e.id))
        );
      },
      30_000,
      () => {
        const accepted = receiver?.accepted() ?? new Set<string>();
        const missing = latest.events.filter((e) => !accepted.has(e.id)).map((e) => e.id);
        const notDone = latest.deliveries.filter((d) => d.status !== 'succeeded').length;
        return `${missing.length} events never received (${missing.slice(0, 5).join(', ')}), ${notDone} deliveries not succeeded`;
      },
    );

    const recoveredAfterMs = Date.now() - restartedAt;
    const final = await readMoney(database);
    expect(final.problems).toEqual([]);

    // Every request answered 2xx (before the crash, or on its retry) exists exactly once, with
    // the id it was answered with; every refused one created nothing.
    const keys = new Set(sent.map((s) => s.request.key));
    const notExactlyOnce: string[] = [];
    let answered2xx = 0;
    for (const s of sent) {
      const answer = s.response ?? s.retry;
      const rows = final.byReference.get(s.request.key) ?? [];
      if (answer && answer.status >= 200 && answer.status < 300) {
        answered2xx++;
        const id = answer.body.data.transaction_id as string;
        if (rows.length !== 1 || rows[0]?.id !== id) {
          notExactlyOnce.push(
            `${s.request.key} answered ${id} but the database holds [${rows.map((r) => r.id)}]`,
          );
        }
        const read = await api('GET', `${s.request.path}/${id}`);
        const want = statusOf[s.request.kind][expectedOutcome(s.request.msisdn)];
        if (
          read.status !== 200 ||
          read.body.data.amount !== s.request.amount ||
          read.body.data.reference !== s.request.key ||
          read.body.data.status !== want
        ) {
          notExactlyOnce.push(
            `GET ${s.request.path}/${id}: ${read.status} ${read.text} (expected status ${want})`,
          );
        }
      } else if (rows.length > 0) {
        notExactlyOnce.push(
          `${s.request.key} was answered ${answer?.status} but created [${rows.map((r) => r.id)}]`,
        );
      }
    }
    expect(notExactlyOnce).toEqual([]);

    // Nothing but these requests (and the funding top-up) moved money.
    const strangers = final.movements
      .filter((m) => m.reference === null || (!keys.has(m.reference) && m.reference !== 'crash-fund'))
      .map((m) => `${m.kind} ${m.id} reference ${m.reference}`);
    expect(strangers).toEqual([]);

    // The balance the API shows is the one the ledger holds.
    const balance = await api('GET', '/balance');
    const walletId = balance.body.data.wallet_id as string;
    const storedBalance = final.balances.find(
      (b) => b.wallet_id === walletId && b.currency === 'XAF',
    )?.available;
    expect(balance.body.data.balances.find((b: { currency: string }) => b.currency === 'XAF').available).toBe(
      storedBalance,
    );

    // Every delivery queued at the crash arrived after the restart; nothing unknown arrived.
    const acceptedAfter = new Set(
      receiver.deliveries.filter((d) => d.answered === 200 && d.at >= restartedAt).map((d) => d.eventId),
    );
    const lost = pendingAtCrash.filter((d) => !acceptedAfter.has(d.event_id)).map((d) => d.event_id);
    expect(lost).toEqual([]);
    const allEvents = new Set(final.events.map((e) => e.id));
    expect(receiver.deliveries.filter((d) => !allEvents.has(d.eventId) || d.bodyId !== d.eventId)).toEqual(
      [],
    );
    // One delivery per event and endpoint: none was queued twice.
    expect(final.deliveries.length).toBe(final.events.length);

    // No request failed with a 500 on either side of the crash.
    const failures = internalErrors(servers);
    expect(failures).toEqual([]);

    const answers = sent.filter((s) => s.response).length;
    console.info(
      `[faults/crash] ${describeDatabase(database)}, seed ${seed}: ${sent.length} requests from ${clients} clients, ${answers} answered before the kill ` +
        `(${sent.filter((s) => s.response?.status === 202).length} × 202, ${sent.filter((s) => s.response?.status === 403).length} × 403), ` +
        `${inFlight.length} cut by the kill${aimed ? ' (aimed: killed while paused between a commit and its answer)' : ' (not aimed: no pause caught a commit without its answer)'}, ${committedInFlight.length} of them had committed and were replayed on retry; ` +
        `${answered2xx} exist exactly once; ${pendingAtCrash.length} webhook deliveries queued at the crash ` +
        `(${eventsById.size} events then, ${final.events.length} at the end, ${acceptedAfter.size} accepted after the restart); ` +
        `settled and delivered ${(recoveredAfterMs / 1000).toFixed(1)} s after the restart, ` +
        `restart took ${((restartedAt - killedAt) / 1000).toFixed(1)} s, whole test ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(pendingAtCrash.length).toBeGreaterThan(0);
    expect(inFlight.length).toBeGreaterThan(0);
    await server.stop();
  });
});
