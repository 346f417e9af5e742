/**
 * Two real servers (`node dist/server/main.js`, as `npm start` runs it) on one fresh database of
 * a throwaway PostgreSQL cluster, and what the multi-instance tests read from that database:
 * balances against their ledger, payments, their credits and events, webhook deliveries, their
 * leases and recorded attempts.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import {
  type ChildServer,
  type CliAccount,
  callApi,
  createAccountWithCli,
  startChildServer,
} from '../../support/child-server.js';
import { queryPostgres } from '../../support/postgres.js';
import type { Receiver } from '../../support/webhook-receiver.js';
import type { PostgresFaultFile } from './harness.js';
import { internalErrors, pollUntil, sleep, waitUntil } from './load.js';

export type Account = Pick<CliAccount, 'apiUser' | 'testKey'>;

/** Two instances on one database, and the sandbox account the first start created. */
export interface Pair {
  url: string;
  a: ChildServer;
  b: ChildServer;
  account: Account;
  /** 5xx answers other than the documented 503 of either instance. */
  internalErrors(): ReturnType<typeof internalErrors>;
}

const secretsKey = randomBytes(32).toString('hex');

/** The sandbox credentials a first start printed (`export PAYMENTS_API_USER=...` lines). */
export function printedCredentials(server: ChildServer): Account | undefined {
  const output = server.output();
  const apiUser = /export PAYMENTS_API_USER=(\S+)/.exec(output)?.[1];
  const testKey = /export PAYMENTS_API_KEY=(\S+)/.exec(output)?.[1];
  return apiUser && testKey ? { apiUser, testKey } : undefined;
}

/** Waits for the first start's credentials, whichever instance printed them. */
async function sandboxAccount(pair: ChildServer[]): Promise<Account> {
  let account: Account | undefined;
  await waitUntil(
    () => {
      account = pair.map(printedCredentials).find((a) => a !== undefined);
      return account !== undefined;
    },
    15_000,
    () => `no instance printed sandbox credentials:\n${pair.map((s) => s.output().slice(-2000)).join('\n')}`,
  );
  return account as Account;
}

/**
 * A fresh database of the file's cluster and two instances on it, started at the same moment,
 * each on its own free port, stopped when the file ends.
 */
async function startPair(file: PostgresFaultFile, env: Record<string, string>): Promise<Pair> {
  const url = await file.cluster().createDatabase();
  const serverEnv = { NODE_ENV: 'test', DATABASE_URL: url, SECRETS_ENCRYPTION_KEY: secretsKey, ...env };
  // DATABASE_PATH (the helper always sets one) is ignored once DATABASE_URL is set.
  const dbPath = join(file.dir, 'unused.db');
  const [a, b] = await Promise.all([
    startChildServer({ dbPath, name: 'instance-a', env: serverEnv }).then(file.track),
    startChildServer({ dbPath, name: 'instance-b', env: serverEnv }).then(file.track),
  ]);
  return { url, a, b, account: await sandboxAccount([a, b]), internalErrors: () => internalErrors([a, b]) };
}

/**
 * The pair a `describe` works on, with `env` added to the instances' settings: started before
 * the describe's own set-up (by a `beforeAll` registered first), and filled into the object
 * returned here then.
 */
export function pairFor(file: PostgresFaultFile, env: Record<string, string> = {}): Pair {
  const pair = {} as Pair;
  beforeAll(async () => {
    Object.assign(pair, await startPair(file, env));
  }, 90_000);
  return pair;
}

/** Another account on the pair's database, made with the admin CLI as an operator would. */
export function createAccountOn(pair: Pair, dir: string, name: string): Promise<Account> {
  return createAccountWithCli(
    {
      dbPath: join(dir, 'unused.db'),
      databaseEnv: { DATABASE_URL: pair.url, SECRETS_ENCRYPTION_KEY: secretsKey },
    },
    name,
  );
}

/**
 * Deadlocks PostgreSQL detected in the pair's database so far. A backend reports its counts to
 * the statistics now and then, and always when it exits: read after the instances stopped and
 * their connections ended, the count is complete, however busy the machine was.
 */
export async function deadlocksOnceClosed(url: string): Promise<number> {
  await waitUntil(
    async () => {
      const [row] = await queryPostgres<{ n: number }>(
        url,
        'SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      return row?.n === 0;
    },
    15_000,
    () => 'connections to the database stayed open after both instances stopped',
  );
  const [row] = await queryPostgres<{ deadlocks: number }>(
    url,
    'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
  );
  return row?.deadlocks ?? Number.NaN;
}

export async function xafBalance(server: ChildServer, account: Account): Promise<number> {
  const response = await callApi(server.url, account, 'GET', '/balance');
  if (response.status !== 200) throw new Error(`GET /balance: ${response.status} ${response.text}`);
  return response.body.data.balances.find((x: { currency: string }) => x.currency === 'XAF')
    .available as number;
}

export async function createService(server: ChildServer, account: Account, name: string): Promise<string> {
  const service = await callApi(server.url, account, 'POST', '/services', { body: { name } });
  if (service.status !== 201) throw new Error(`POST /services: ${service.status} ${service.text}`);
  return service.body.data.service_id as string;
}

/** Registers a webhook endpoint for `url` (throws when it is not created). */
export async function createEndpoint(server: ChildServer, account: Account, url: string): Promise<void> {
  const endpoint = await callApi(server.url, account, 'POST', '/webhook-endpoints', { body: { url } });
  if (endpoint.status !== 201)
    throw new Error(`POST /webhook-endpoints: ${endpoint.status} ${endpoint.text}`);
}

/** Every balance next to the sum of its ledger, read straight from the database. */
export function balancesAgainstLedger(url: string) {
  return queryPostgres<{ wallet_id: string; currency: string; available: number; ledger: number }>(
    url,
    `SELECT b.wallet_id, b.currency, b.available, COALESCE(SUM(l.amount), 0) AS ledger
       FROM balances b LEFT JOIN ledger_entries l ON l.wallet_id = b.wallet_id AND l.currency = b.currency
      GROUP BY b.wallet_id, b.currency, b.available`,
  );
}

/** How many payments still wait for their operator. */
async function initiatedPayments(url: string): Promise<number> {
  const [row] = await queryPostgres<{ n: number }>(
    url,
    `SELECT COUNT(*) AS n FROM payments WHERE status = 'initiated'`,
  );
  return row?.n ?? 0;
}

export function paymentEvents(url: string) {
  return queryPostgres<{ id: string; event: string; transaction_id: string }>(
    url,
    `SELECT id, event, transaction_id FROM events WHERE event IN ('payment.completed', 'payment.failed')`,
  );
}

/** Ledger credits per payment id. */
export async function paymentCredits(url: string): Promise<Map<string, number>> {
  const rows = await queryPostgres<{ source_id: string; n: number }>(
    url,
    `SELECT source_id, COUNT(*) AS n FROM ledger_entries WHERE type = 'payment' GROUP BY source_id`,
  );
  return new Map(rows.map((r) => [r.source_id, r.n]));
}

/** Webhook deliveries the receiver got, by event id (header `x-webhook-id`), checked against their body. */
export function receivedByEvent(
  receiver: Pick<Receiver, 'received'>,
): Map<string, { count: number; event: string; transactionId: string; bodyId: string }> {
  const byId = new Map<string, { count: number; event: string; transactionId: string; bodyId: string }>();
  for (const r of receiver.received) {
    const id = String(r.headers['x-webhook-id'] ?? '');
    const body = JSON.parse(r.body) as { id: string; event: string; data: { transaction_id: string } };
    const seen = byId.get(id);
    if (seen) seen.count += 1;
    else
      byId.set(id, { count: 1, event: body.event, transactionId: body.data.transaction_id, bodyId: body.id });
  }
  return byId;
}

/** Webhook deliveries leased now (pending, `locked_until` in the future), with their lease. */
async function leasedDeliveries(url: string): Promise<Map<string, number>> {
  const rows = await queryPostgres<{ id: string; locked_until: number }>(
    url,
    `SELECT id, locked_until FROM webhook_deliveries WHERE status = 'pending' AND locked_until > $1`,
    [Date.now()],
  );
  return new Map(rows.map((r) => [r.id, r.locked_until]));
}

/**
 * Freezes `b` (SIGSTOP) at a moment both instances hold webhook leases (more than one instance
 * may hold, `mostOneInstanceHolds`), reads them, and kills it; returns the leases read. Frozen,
 * none it holds can end between that read and the kill, however long a busy machine takes; if
 * it held none then, it runs on and the read is tried again.
 */
export async function killWhileBothHoldLeases(
  pair: Pair,
  mostOneInstanceHolds: number,
): Promise<Map<string, number>> {
  let leased = new Map<string, number>();
  await waitUntil(
    async () => {
      if ((await leasedDeliveries(pair.url)).size <= mostOneInstanceHolds) return false;
      pair.b.pause();
      leased = await leasedDeliveries(pair.url);
      if (leased.size > mostOneInstanceHolds) return true;
      pair.b.resume();
      return false;
    },
    30_000,
    () => 'both instances never held webhook leases at once',
    5,
  );
  await pair.b.kill();
  return leased;
}

/**
 * Of the leases read while an instance was frozen just before its kill, those it left behind.
 * The survivor's lease on a delivery changes when its attempt ends (it records the answer); a
 * dead instance's stays as it was until it ends. So the leases are read until every one has
 * ended: one seen changed by a read that finished before its end was the survivor's.
 */
export async function leasesLeftBehind(url: string, leased: Map<string, number>): Promise<string[]> {
  const survivors = new Set<string>();
  const ids = [...leased.keys()];
  for (;;) {
    const open = ids.filter((id) => (leased.get(id) as number) > Date.now() && !survivors.has(id));
    if (open.length === 0) break;
    const rows = await queryPostgres<{ id: string; status: string; locked_until: number | null }>(
      url,
      'SELECT id, status, locked_until FROM webhook_deliveries WHERE id = ANY($1)',
      [open],
    );
    const readAt = Date.now();
    for (const row of rows) {
      const lease = leased.get(row.id) as number;
      if (readAt < lease && (row.status !== 'pending' || row.locked_until !== lease)) survivors.add(row.id);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return ids.filter((id) => !survivors.has(id));
}

/** How long a test watches, once everything arrived, for a duplicate that would come late. */
const lateDuplicateWindowMs = 1_500;

/**
 * Waits until no payment waits for its operator, then until the receiver got every payment
 * event and every delivery's attempts are recorded as succeeded (`deliveryTimeoutMs`), then
 * watches a while for a late copy; returns the payment events.
 */
export async function settleAndDeliver(
  url: string,
  receiver: Pick<Receiver, 'received'>,
  deliveryTimeoutMs: number,
): Promise<Awaited<ReturnType<typeof paymentEvents>>> {
  await pollUntil(
    () => initiatedPayments(url),
    (n) => n === 0,
    30_000,
  );
  const events = await paymentEvents(url);
  await pollUntil(
    async () => ({ received: receivedByEvent(receiver), deliveries: await deliveryAttempts(url) }),
    ({ received, deliveries }) =>
      events.every((e) => received.has(e.id)) && deliveries.every((d) => d.status === 'succeeded'),
    deliveryTimeoutMs,
  );
  // Nothing more should arrive: what does in this window is a duplicate.
  await sleep(lateDuplicateWindowMs);
  return events;
}

/** Each delivery's event, status, and the attempts the instances recorded for it. */
export async function deliveryAttempts(url: string) {
  return queryPostgres<{
    id: string;
    event_id: string;
    status: string;
    recorded: number;
    succeeded: number;
    errors: string | null;
  }>(
    url,
    `SELECT d.id, d.event_id, d.status, COUNT(a.seq) AS recorded,
            COUNT(a.seq) FILTER (WHERE a.error IS NULL AND a.response_status BETWEEN 200 AND 299) AS succeeded,
            STRING_AGG(COALESCE(a.error, a.response_status::TEXT), ', ' ORDER BY a.seq) AS errors
       FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
      GROUP BY d.id, d.event_id, d.status`,
  );
}

/**
 * The deliveries the receiver got more often than the instances account for. Webhooks go out at
 * least once, by design: an attempt whose answer did not come back in time is recorded as failed
 * and sent again (on a busy machine, that happens). So every copy received must be an attempt
 * an instance recorded, and each delivery must have exactly one successful attempt; a killed
 * instance may have sent, unrecorded, one copy of each delivery it held a lease on
 * (`heldByKilled`).
 */
export async function unexplainedCopies(
  url: string,
  receiver: Pick<Receiver, 'received'>,
  heldByKilled: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const received = receivedByEvent(receiver);
  return (await deliveryAttempts(url))
    .map((d) => ({ ...d, copies: received.get(d.event_id)?.count ?? 0 }))
    .filter((d) => d.succeeded !== 1 || d.copies > d.recorded + (heldByKilled.has(d.id) ? 1 : 0))
    .map(
      (d) =>
        `${d.event_id}: received ${d.copies} times; ${d.recorded} attempts recorded, ${d.succeeded} successful ` +
        `(${d.errors ?? 'none'})${heldByKilled.has(d.id) ? ', leased by the killed instance' : ''}`,
    );
}
