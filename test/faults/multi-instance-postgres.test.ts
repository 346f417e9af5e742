/**
 * Several instances on one PostgreSQL database: two real servers (`node dist/server/main.js`, as
 * `npm start` runs it), each with its settlement and webhook workers, share a fresh database of a
 * throwaway cluster. What a user must never notice: a second sandbox account or a double
 * migration when both start together, a balance overdrawn by payouts racing over both, an
 * Idempotency-Key that moves money twice, a payment settled or announced twice, work lost when one
 * instance is killed with SIGKILL, or a rate limit that each instance counts on its own.
 *
 * Each `describe` is one situation: its set-up starts the pair on a database of its own and does
 * what the situation needs; each test checks one promise on what the set-up recorded.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, callApi, repoRoot } from '../support/child-server.js';
import { queryPostgres } from '../support/postgres.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { postgresFaultFile, random, seed } from './support/harness.js';
import {
  type Account,
  balancesAgainstLedger,
  createAccountOn,
  createEndpoint,
  createService,
  deadlocksOnceClosed,
  deliveryAttempts,
  killWhileBothHoldLeases,
  leasesLeftBehind,
  type Pair,
  pairFor,
  paymentCredits,
  type paymentEvents,
  printedCredentials,
  receivedByEvent,
  settleAndDeliver,
  unexplainedCopies,
  xafBalance,
} from './support/instances-postgres.js';
import {
  expectedOutcome,
  type LogicalRequest,
  logicalRequest,
  networkError,
  numbers,
  waitUntil,
} from './support/load.js';
import type { MoneySnapshot } from './support/money.js';
import { alternate, itAnswersTheRace, type PayoutRace, racePayouts, send } from './support/payout-race.js';
import { unsettled, waitForSettlement } from './support/settlement.js';

const migrationVersions = readdirSync(join(repoRoot, 'server/storage/postgres/migrations'))
  .filter((f) => /^\d{3}_.+\.sql$/.test(f))
  .map((f) => Number(f.slice(0, 3)))
  .sort((x, y) => x - y);

const file = postgresFaultFile('faults-multi-pg-');

const statusAfterSettlement = (msisdn: string) =>
  expectedOutcome(msisdn) === 'success' ? 'success' : 'failed';

describe('two instances started at the same moment on an empty database', () => {
  const pair = pairFor(file);
  beforeAll(async () => {
    // Each instance says when its first-start check is over, whether it created the account or not.
    await waitUntil(
      () => [pair.a, pair.b].every((s) => s.output().includes('"msg":"accounts checked"')),
      15_000,
      () => 'an instance never finished its first-start check',
    );
  }, 90_000);

  it('print the sandbox credentials from one instance only', () => {
    expect([pair.a, pair.b].filter((s) => printedCredentials(s) !== undefined)).toHaveLength(1);
  });

  it('create one sandbox account, with a test and a live wallet', async () => {
    const accounts = await queryPostgres<{ api_user: string }>(pair.url, 'SELECT api_user FROM accounts');
    expect(accounts.map((a) => a.api_user)).toEqual([pair.account.apiUser]);
    const wallets = await queryPostgres<{ mode: string }>(pair.url, 'SELECT mode FROM wallets ORDER BY mode');
    expect(wallets.map((w) => w.mode)).toEqual(['live', 'test']);
  });

  it('apply every migration once', async () => {
    const migrations = await queryPostgres<{ version: number }>(
      pair.url,
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(migrations.map((m) => m.version)).toEqual(migrationVersions);
  });

  it('both serve that account, with the same answer, and stay up', async () => {
    const answers = await Promise.all(
      [pair.a, pair.b].map((s) => callApi(s.url, pair.account, 'GET', '/balance')),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(answers[0]?.body.data).toEqual(answers[1]?.body.data);
    expect(pair.a.alive() && pair.b.alive()).toBe(true);
    expect(pair.internalErrors()).toEqual([]);
  });
});

describe('payouts racing over both instances against a balance that funds a third of them', () => {
  const pair = pairFor(file);
  let funded: number;
  let race: PayoutRace;
  const answered = (status: number) => race.answered(status);

  beforeAll(async () => {
    const { a, b, account } = pair;
    // Funded by 4 top-ups through both instances.
    const fundings = Array.from({ length: 4 }, (_, i) =>
      logicalRequest('topup', `mi-${seed}-fund-${i}`, 5_000, numbers.success, ''),
    );
    funded = fundings.reduce((sum, t) => sum + t.amount, 0);
    const fundAnswers = await Promise.all(fundings.map((t, i) => send(alternate([a, b], i), account, t)));
    if (fundAnswers.some((r) => r.status !== 202)) throw new Error(fundAnswers.map((r) => r.text).join('\n'));
    await waitUntil(
      async () => (await xafBalance(a, account)) === funded,
      20_000,
      () => 'funding never settled',
    );
    // 60 payouts at once, alternating, asking for about 3 times the balance.
    race = await racePayouts([a, b], account, { prefix: 'mi', count: 60, minAmount: 500 });
  }, 120_000);

  // A retryable 503 is a race lost after every retry: documented, but not many.
  itAnswersTheRace(
    () => race,
    () => funded,
    6,
  );

  it('store exactly the accepted payouts: a 403 or 503 changed nothing', async () => {
    const rows = await queryPostgres<{ reference: string; n: number }>(
      pair.url,
      'SELECT reference, COUNT(*) AS n FROM payouts GROUP BY reference',
    );
    const stored = new Map(rows.map((r) => [r.reference, r.n]));
    const accepted = answered(202);
    for (const p of race.payouts) expect(stored.get(p.key) ?? 0, p.key).toBe(accepted.includes(p) ? 1 : 0);
  });

  it('leave the balance at funded − paid out on both, its ledger, smaller than every refused payout', async () => {
    const paidOut = race.paidOut();
    expect(paidOut).toBeLessThanOrEqual(funded);
    const balance = await xafBalance(pair.a, pair.account);
    expect(balance).toBe(funded - paidOut);
    expect(await xafBalance(pair.b, pair.account)).toBe(balance);
    // Every refused payout was larger than what was left when it was refused, so than what is left now.
    for (const p of answered(403)) expect(p.amount, p.key).toBeGreaterThan(balance);
    const ledger = await balancesAgainstLedger(pair.url);
    for (const row of ledger) expect(row.available, row.wallet_id).toBe(row.ledger);
    expect(ledger.map((r) => r.available)).toContain(balance);
    expect(pair.internalErrors()).toEqual([]);
  });
});

describe('one Idempotency-Key sent to both instances at once, 20 times', () => {
  const pair = pairFor(file);
  let sent: Array<{ key: string; answers: CallResult[] }>;

  beforeAll(async () => {
    const serviceId = await createService(pair.a, pair.account, 'Idempotency shop');
    sent = [];
    for (let i = 0; i < 20; i++) {
      const p = logicalRequest('payment', `mi-${seed}-idem-${i}`, 1000 + i, numbers.success, serviceId);
      const answers = await Promise.all([pair.a, pair.b].map((s) => send(s, pair.account, p)));
      sent.push({ key: p.key, answers });
    }
  }, 90_000);

  it('answer both 202 with the same payment', () => {
    for (const { key, answers } of sent) {
      expect(
        answers.map((r) => r.status),
        answers.map((r) => r.text).join('\n'),
      ).toEqual([202, 202]);
      expect(answers[0]?.body.data.transaction_id, key).toBe(answers[1]?.body.data.transaction_id);
    }
  });

  it('answer one of the two as the original and replay it to the other', () => {
    for (const { key, answers } of sent) {
      const replayed = answers.filter((r) => r.headers.get('idempotent-replayed') === 'true');
      expect(replayed.length, `${key}: exactly one original answer`).toBe(1);
    }
  });

  it('store one payment per key', async () => {
    const rows = await queryPostgres<{ reference: string; n: number }>(
      pair.url,
      'SELECT reference, COUNT(*) AS n FROM payments GROUP BY reference',
    );
    expect(rows.map((r) => r.reference).sort()).toEqual(sent.map((s) => s.key).sort());
    for (const r of rows) expect(r.n, r.reference).toBe(1);
    expect(pair.internalErrors()).toEqual([]);
  });
});

describe('payments made through both instances, settled and announced by both', () => {
  const pair = pairFor(file, {
    WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
    // A delivery goes out once while its attempt ends within its lease (WEBHOOK_TIMEOUT_MS + 3 s
    // from its claim, deliveries leased ahead included); past it, the other instance may send
    // it too, at least once by design. That lease is the budget this promise has: the
    // production one, not the fault tests' shorter 2 s, which a loaded machine outlasts.
    WEBHOOK_TIMEOUT_MS: '10000',
  });
  let receiver: Receiver;
  let payments: LogicalRequest[];
  let answers: CallResult[];
  let events: Awaited<ReturnType<typeof paymentEvents>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    file.closeAtEnd(receiver);
    const { a, b, account, url } = pair;
    await createEndpoint(a, account, receiver.url);
    const serviceId = await createService(b, account, 'Webhook shop');
    const msisdns = [numbers.success, numbers.success2, numbers.fails];
    payments = Array.from({ length: 40 }, (_, i) =>
      logicalRequest(
        'payment',
        `mi-${seed}-wh-${i}`,
        500 + i,
        msisdns[i % msisdns.length] as string,
        serviceId,
      ),
    );
    answers = await Promise.all(payments.map((p, i) => send(alternate([a, b], i), account, p)));
    // Every event received and every attempt recorded as succeeded: 30 s for each.
    events = await settleAndDeliver(url, receiver, 60_000);
  }, 120_000);

  it('accept every payment', () => {
    const refused = answers.filter((r) => r.status !== 202).map((r) => r.text);
    expect(refused).toEqual([]);
  });

  it('settle each payment to what its number decides, crediting each success once', async () => {
    const payment = new Map(payments.map((p, i) => [answers[i]?.body.data.transaction_id as string, p]));
    const rows = await queryPostgres<{ id: string; status: string }>(
      pair.url,
      'SELECT id, status FROM payments',
    );
    expect(rows).toHaveLength(payments.length);
    const credits = await paymentCredits(pair.url);
    for (const { id, status } of rows) {
      const p = payment.get(id);
      expect(p, id).toBeDefined();
      expect(status, p?.key).toBe(statusAfterSettlement(p?.msisdn as string));
      expect(credits.get(id) ?? 0, id).toBe(status === 'success' ? 1 : 0);
    }
    const ledger = await balancesAgainstLedger(pair.url);
    for (const row of ledger) expect(row.available, row.wallet_id).toBe(row.ledger);
  });

  it('announce each payment by one event', () => {
    const ids = answers.map((r) => r.body.data.transaction_id).sort();
    expect(events.map((e) => e.transaction_id).sort()).toEqual(ids);
  });

  it('deliver each event, as it is, and again only after an attempt of it failed', async () => {
    const received = receivedByEvent(receiver);
    expect(received.size).toBe(events.length);
    for (const e of events) {
      expect(received.get(e.id), e.id).toMatchObject({
        bodyId: e.id,
        event: e.event,
        transactionId: e.transaction_id,
      });
    }
    expect(await unexplainedCopies(pair.url, receiver)).toEqual([]);
    expect(pair.internalErrors()).toEqual([]);
  });
});

/** A payment the kill test sent, where it went, and what came back. */
interface Sent {
  key: string;
  msisdn: string;
  body: Record<string, unknown>;
  to: string;
  status?: number;
  transactionId?: string;
  networkError?: string;
}

/**
 * Eight clients sending `total` payments into `sent`, to either instance of `pair` until
 * `killed()`, then to `a` only.
 */
function startKillLoad(pair: Pair, serviceId: string, sent: Sent[], total: number, killed: () => boolean) {
  const msisdns = [numbers.success, numbers.success2, numbers.fails];
  let answered = 0;
  const client = async () => {
    while (sent.length < total) {
      const i = sent.length;
      const p = logicalRequest(
        'payment',
        `mi-${seed}-kill-${i}`,
        700 + i,
        msisdns[i % 3] as string,
        serviceId,
      );
      const server = killed() ? pair.a : alternate([pair.a, pair.b], i);
      const record: Sent = { key: p.key, msisdn: p.msisdn, body: p.body, to: server.name };
      sent.push(record);
      try {
        const r = await send(server, pair.account, p);
        record.status = r.status;
        record.transactionId = r.body?.data?.transaction_id;
        if (r.status !== 202) record.networkError = `${r.status} ${r.text}`;
        answered++;
      } catch (err) {
        record.networkError = networkError(err);
      }
    }
  };
  return { answered: () => answered, running: Promise.all(Array.from({ length: 8 }, client)) };
}

describe('an instance killed with SIGKILL mid-load: the survivor finishes its work', () => {
  // Two deliveries in flight per instance, each slot holding two more leased ahead: one instance
  // holds at most six leases, so seven at once mean the other one holds some.
  const [slotsPerEndpoint, leaseAhead] = [2, 2];
  const killAfter = 40;
  const pair = pairFor(file, {
    WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
    WEBHOOK_CIRCUIT_FAILURES: '1000',
    WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(slotsPerEndpoint),
    WEBHOOK_LEASE_AHEAD: String(leaseAhead),
    // The dead instance's leases end 3 s after this deadline; the receiver answers in 800 ms,
    // so 5 s (instead of the default 10) only shortens the wait for them.
    WEBHOOK_TIMEOUT_MS: '5000',
  });
  let receiver: Receiver;
  const sent: Sent[] = [];
  let lost: Sent[];
  let leasedAtKill: Map<string, number>;
  let leftBehind: string[];
  let events: Awaited<ReturnType<typeof paymentEvents>>;

  beforeAll(async () => {
    const { a, account, url } = pair;
    // Slow enough that the deliveries the kill finds in flight are still in flight when it lands.
    receiver = await startReceiver({ delayMs: 800 });
    file.closeAtEnd(receiver);
    await createEndpoint(a, account, receiver.url);
    const serviceId = await createService(a, account, 'Crash shop');
    let killed = false;
    const clients = startKillLoad(pair, serviceId, sent, 120, () => killed);
    await waitUntil(
      () => clients.answered() >= killAfter,
      60_000,
      () => `only ${clients.answered()} answers`,
      5,
    );
    leasedAtKill = await killWhileBothHoldLeases(pair, slotsPerEndpoint * (1 + leaseAhead));
    killed = true;
    const leftBehindRead = leasesLeftBehind(url, leasedAtKill);
    await clients.running;
    // What the dead instance never answered is retried on the survivor with the same key.
    lost = sent.filter((s) => s.status === undefined);
    for (const s of lost) {
      const r = await send(a, account, { path: '/payments', body: s.body, key: s.key });
      Object.assign(s, {
        status: r.status,
        transactionId: r.body?.data?.transaction_id,
        to: `${s.to}, then ${a.name}`,
      });
      if (r.status !== 202) s.networkError = `retry: ${r.status} ${r.text}`;
    }
    leftBehind = await leftBehindRead;
    // The dead instance's leases end (WEBHOOK_TIMEOUT_MS + 3 s) and the survivor sends them.
    events = await settleAndDeliver(url, receiver, 45_000);
  }, 150_000);

  it('kills it while it holds webhook leases (the premise)', () => {
    expect(leftBehind.length, 'no webhook lease was left behind by the killed instance').toBeGreaterThan(0);
  });

  it('takes every payment the dead instance never answered, on a retry with its key, and stays up', () => {
    expect(sent.filter((s) => s.status !== 202).map((s) => `${s.key}: ${s.networkError}`)).toEqual([]);
    expect(pair.a.alive()).toBe(true);
  });

  it('stores each payment once, with the id it was answered with, settled to what its number decides', async () => {
    const rows = await queryPostgres<{ id: string; reference: string; status: string }>(
      pair.url,
      'SELECT id, reference, status FROM payments',
    );
    expect(rows).toHaveLength(sent.length);
    const byKey = new Map(rows.map((r) => [r.reference, r]));
    for (const s of sent) {
      expect(byKey.get(s.key), s.key).toMatchObject({
        id: s.transactionId,
        status: statusAfterSettlement(s.msisdn),
      });
    }
  });

  it('credits each successful payment once and announces each payment by one event', async () => {
    const rows = await queryPostgres<{ id: string; status: string }>(
      pair.url,
      'SELECT id, status FROM payments',
    );
    const credits = await paymentCredits(pair.url);
    for (const r of rows) expect(credits.get(r.id) ?? 0, r.id).toBe(r.status === 'success' ? 1 : 0);
    expect(events).toHaveLength(rows.length);
    expect(new Set(events.map((e) => e.transaction_id)).size).toBe(rows.length);
    const ledger = await balancesAgainstLedger(pair.url);
    for (const row of ledger) expect(row.available, row.wallet_id).toBe(row.ledger);
  });

  it('delivers every event, the deliveries whose leases the dead instance left behind included', async () => {
    const received = receivedByEvent(receiver);
    expect(events.filter((e) => !received.has(e.id)).map((e) => e.id)).toEqual([]);
    expect(received.size).toBe(events.length);
    const deliveries = await deliveryAttempts(pair.url);
    expect(deliveries.filter((d) => d.status !== 'succeeded').map((d) => d.id)).toEqual([]);
    const orphans = deliveries.filter((d) => leftBehind.includes(d.id));
    expect(orphans.map((d) => d.status)).toEqual(leftBehind.map(() => 'succeeded'));
  });

  it('sends a delivery again only after an attempt of it failed, or once when the killed instance held it', async () => {
    expect(await unexplainedCopies(pair.url, receiver, new Set(leasedAtKill.keys()))).toEqual([]);
    expect(pair.internalErrors()).toEqual([]);
  });
});

describe('one rate limit across both instances', () => {
  const pair = pairFor(file, { RATE_LIMIT_PER_WINDOW: '20', RATE_LIMIT_WINDOW_MS: '60000' });
  let answers: CallResult[];

  beforeAll(async () => {
    answers = [];
    for (let i = 0; i < 40; i++) {
      answers.push(await callApi(alternate([pair.a, pair.b], i).url, pair.account, 'GET', '/balance'));
    }
  }, 90_000);

  it('answer 20 of 40 requests alternating over both, and refuse the other 20 with 429 and Retry-After', () => {
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length, statuses.join(',')).toBe(20);
    expect(statuses.filter((s) => s === 429).length, statuses.join(',')).toBe(20);
    for (const r of answers.filter((a) => a.status === 429)) {
      expect(r.body.error.code).toBe('rate_limited');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(pair.internalErrors()).toEqual([]);
  });
});

/** One request of the mixed money load: what it moves, where it went, and its answer. */
interface MoneyCall {
  label: string;
  from: number;
  path: '/payouts' | '/payouts/bulk' | '/refunds';
  body: Record<string, unknown>;
  key: string;
  /** What leaves the accounts altogether (refunds and payouts to numbers); transfers stay inside. */
  leaves: number;
  answer?: CallResult;
  ms?: number;
}

/**
 * Transfers between every two of the accounts in both directions, bulk payouts whose items go to
 * the other two wallets in either order (and one number), and two partial refunds of every
 * payment at once: each touches two or more balances, or a balance and its payment, that others
 * touch in the opposite order.
 */
function mixedMoneyCalls(wallets: string[], payments: string[][], random: () => number): MoneyCall[] {
  const calls: MoneyCall[] = [];
  const others = (i: number) => wallets.map((_, j) => j).filter((j) => j !== i);
  for (const [from] of wallets.entries()) {
    for (const to of others(from)) {
      for (let n = 0; n < 4; n++) {
        const key = `mx-${seed}-t${from}${to}-${n}`;
        const amount = 500 + Math.floor(random() * 10) * 100;
        const body = {
          amount,
          currency: 'XAF',
          recipient_wallet_id: wallets[to],
          payout_type: 'transfer',
          reference: key,
        };
        calls.push({ label: `transfer ${from}→${to}`, from, path: '/payouts', body, key, leaves: 0 });
      }
    }
    for (const [n, order] of [others(from), others(from).reverse()].entries()) {
      const key = `mx-${seed}-b${from}-${n}`;
      const items = [
        ...order.map((to) => ({ amount: 700, recipient_wallet_id: wallets[to], payout_type: 'transfer' })),
        { amount: 300, recipient_msisdn: numbers.success, payout_type: 'withdrawal' },
      ];
      calls.push({
        label: `bulk ${from}→${order}`,
        from,
        path: '/payouts/bulk',
        body: { currency: 'XAF', items },
        key,
        leaves: 300,
      });
    }
    for (const payment of payments[from] ?? []) {
      for (let n = 0; n < 2; n++) {
        const key = `mx-${seed}-r${payment}-${n}`;
        const body = { payment_id: payment, amount: 1_500, reference: key };
        calls.push({ label: `refund of ${from}`, from, path: '/refunds', body, key, leaves: 1_500 });
      }
    }
  }
  // Shuffled, so that opposite movements are sent side by side.
  for (let i = calls.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [calls[i], calls[j]] = [calls[j] as MoneyCall, calls[i] as MoneyCall];
  }
  return calls;
}

describe('money moved both ways at once between three accounts, over both instances', () => {
  const funding = 200_000;
  const collected = 4_000;
  // Every movement touches two or three of the same three balances, so they commit one after
  // the other: on a 2-core machine shared with other suites, the last may wait longer than the
  // 10 s a unit is retried by default before its 503. What this test tells apart is whether
  // they wait for each other in a circle (deadlocks, each found after deadlock_timeout), not
  // how fast the machine is: the budget is given room, and the deadlocks are counted.
  const pair = pairFor(file, { DATABASE_STATEMENT_TIMEOUT_MS: '30000' });
  let calls: MoneyCall[];
  let deadlocks: number;
  let money: MoneySnapshot;
  let funded: number;

  beforeAll(async () => {
    const accounts = [
      pair.account,
      await createAccountOn(pair, file.dir, 'Mixed Y'),
      await createAccountOn(pair, file.dir, 'Mixed Z'),
    ];
    const wallets: string[] = [];
    const payments: string[][] = [];
    for (const [i, account] of accounts.entries()) {
      const server = alternate([pair.a, pair.b], i);
      const balance = await callApi(server.url, account, 'GET', '/balance');
      wallets.push(balance.body.data.wallet_id as string);
      const serviceId = await createService(server, account, `Mixed shop ${i}`);
      const topup = logicalRequest('topup', `mx-${seed}-fund-${i}`, funding, numbers.success, '');
      const answers = [await send(server, account, topup)];
      for (let n = 0; n < 3; n++) {
        const p = logicalRequest(
          'payment',
          `mx-${seed}-pay-${i}-${n}`,
          collected,
          numbers.success,
          serviceId,
        );
        answers.push(await send(server, account, p));
      }
      if (answers.some((r) => r.status !== 202)) throw new Error(answers.map((r) => r.text).join('\n'));
      payments.push(answers.slice(1).map((r) => r.body.data.transaction_id as string));
    }
    funded = accounts.length * (funding + 3 * collected);
    const target = { dbPath: join(file.dir, 'unused.db'), databaseEnv: { DATABASE_URL: pair.url } };
    const settled = await waitForSettlement(target);
    if (unsettled(settled).length > 0) throw new Error(`never settled: ${unsettled(settled).join(', ')}`);

    calls = mixedMoneyCalls(wallets, payments, random());
    await Promise.all(
      calls.map(async (call, i) => {
        const started = Date.now();
        const server = alternate([pair.a, pair.b], i);
        call.answer = await callApi(server.url, accounts[call.from] as Account, 'POST', call.path, {
          body: call.body,
          idempotencyKey: call.key,
          timeoutMs: 120_000,
        });
        call.ms = Date.now() - started;
      }),
    );
    money = await waitForSettlement(target);
    await Promise.all([pair.a.stop(), pair.b.stop()]);
    deadlocks = await deadlocksOnceClosed(pair.url);
    const times = calls.map((c) => c.ms ?? 0).sort((x, y) => x - y);
    console.info(
      `[faults/multi-instance-postgres] ${calls.length} mixed movements at once, answered in ` +
        `${times[0]} to ${times.at(-1)} ms (median ${times[times.length >> 1]}); ${deadlocks} deadlocks`,
    );
  }, 180_000);

  it('accept every one of them: no 503, no refusal', () => {
    const refused = calls.filter((c) => (c.answer?.status ?? 0) !== 202);
    expect(refused.map((c) => `${c.label} ${c.key}: ${c.answer?.status} ${c.answer?.text}`)).toEqual([]);
  });

  it('never wait for PostgreSQL to find a deadlock: every balance is locked in one order', () => {
    expect(deadlocks).toBe(0);
  });

  it('keep every balance equal to its ledger, each movement recorded as its state implies', () => {
    expect(money.problems).toEqual([]);
    expect(unsettled(money)).toEqual([]);
  });

  it('conserve the money: the balances hold what came in less what left to numbers', () => {
    const left = calls.filter((c) => c.answer?.status === 202).reduce((sum, c) => sum + c.leaves, 0);
    const held = money.balances.reduce((sum, b) => sum + b.available, 0);
    expect(held).toBe(funded - left);
    expect(pair.internalErrors()).toEqual([]);
  });
});
