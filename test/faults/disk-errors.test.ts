/**
 * Disk and database errors: the real server on a database it cannot write (a read-only file)
 * or on a full disk. Every write must answer 503 `service_unavailable` in the error envelope
 * with `Retry-After` (never 500) and commit nothing, not even part of a movement; reads and
 * idempotent replays keep working; a settlement that falls due meanwhile waits; and once the
 * fault is lifted, the same requests retried with the same keys go through exactly once.
 *
 * How each fault is made, and why:
 * - Read-only file: `chmod 0444` on the database before the server starts. Making it read-only
 *   *while the server runs* is not possible on Linux: permissions and mount flags are checked
 *   when a file is opened, and the server keeps its descriptors open for its whole life;
 *   remounting the file system read-only fails with EBUSY while a file on it is open for
 *   writing. Root ignores file permissions, so when the tests run as root the server is started
 *   as user 65534 (nobody), for whom `chmod 0444` bites.
 * - Read-only file system (root only, where `mount` is allowed): the server refuses to start.
 * - Full disk: a 2 MB tmpfs mounted for the test (root only) holds the database, and a filler
 *   file takes its last byte while the server runs. Without root, the next best is a file size
 *   limit (`ulimit -f`, RLIMIT_FSIZE) on the server process: writes past 32 KB fail with EFBIG
 *   (Node ignores SIGXFSZ), which SQLite reports as SQLITE_IOERR_WRITE, or SQLITE_FULL for a
 *   short write. SQLite's `PRAGMA max_page_count` cannot be used: it applies only to the
 *   connection that sets it, and the server's connection is its own.
 *   `FAULTS_DISK_FULL=tmpfs|rlimit` forces one technique.
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { secretsKeyFilePath } from '../../server/storage/secret-box.js';
import {
  type CallResult,
  type ChildServer,
  ChildServerStartError,
  type CliAccount,
  createAccountWithCli,
  startChildServer,
} from '../support/child-server.js';
import { testEngine } from '../support/server.js';
import { callAs } from './support/funded-server.js';
import { faultFile } from './support/harness.js';
import { documented503, logicalRequest, numbers, sleep, tempFolder, waitUntil } from './support/load.js';
import { inspectMoney, openReadOnly, tableCounts } from './support/money.js';

const isRoot = process.getuid?.() === 0;
const nobody = { uid: 65534, gid: 65534 };

function tryMountTmpfs(): boolean {
  if (!isRoot) return false;
  const probe = tempFolder('faults-mount-probe-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe.dir], { stdio: 'ignore' });
    execFileSync('umount', [probe.dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    probe.remove();
  }
}
const canMount = tryMountTmpfs();
/** The writes register a sandbox endpoint on 127.0.0.1: that needs the opt-in. */
const localEndpoints = { WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' };

const diskFullTechnique = (process.env.FAULTS_DISK_FULL ?? (canMount ? 'tmpfs' : 'rlimit')) as
  | 'tmpfs'
  | 'rlimit';

const file = faultFile('faults-disk-');
const mounts: string[] = [];
// Once the servers stopped, before the folder is removed.
file.closeAtEnd({
  close() {
    for (const mount of mounts.reverse()) {
      try {
        execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
      } catch {
        // Already unmounted.
      }
    }
  },
});

/** A folder of its own for one situation, in the file's folder, and the database path in it. */
function situationFolder(name: string): { dir: string; dbPath: string } {
  const dir = join(file.dir, name);
  mkdirSync(dir);
  return { dir, dbPath: join(dir, 'payments.db') };
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Whether the server logged an error with a SQLite code matching `pattern`: the fault did hit it. */
function logged(server: ChildServer, pattern: RegExp): boolean {
  return server
    .errorLines()
    .some((l) => pattern.test(String((l.err as { code?: string } | undefined)?.code)));
}

/** The SQLite error codes a server logged, with how many times: what the report quotes. */
function errorCodesOf(server: ChildServer): string {
  const counts = new Map<string, number>();
  for (const line of server.errorLines()) {
    const code = String((line.err as { code?: string } | undefined)?.code ?? line.msg);
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return [...counts].map(([code, n]) => `${code} × ${n}`).join(', ') || 'none';
}

interface Prepared {
  account: CliAccount;
  serviceId: string;
  /** A payout made with an Idempotency-Key: its stored answer must replay under the fault. */
  replayable: { key: string; body: Record<string, unknown>; transactionId: string };
  /** A payment whose operator outcome (success) falls due while the fault lasts... */
  pendingPaymentId: string;
  /** ...at the latest at this time (epoch ms). */
  pendingDueAt: number;
}

/**
 * The preparing server settles only 2 s after a request: long enough that its payment is
 * surely still waiting when the fault begins, even on a loaded machine.
 */
const prepareSettleMs = 2000;

/**
 * Creates an account, a service, a funded balance, a payout with a stored idempotent answer,
 * and a payment still waiting for its operator, on a server the function starts and returns.
 * Returns once the call log holds each of its `requests`: the server then has no call-log row
 * left to write, so killing it or taking its disk cannot cut one short, and the file holds
 * exactly one row per request (the count a fault must leave unchanged).
 */
async function prepare(
  dbPath: string,
): Promise<{ prepared: Prepared; server: ChildServer; requests: number }> {
  const account = await createAccountWithCli(dbPath, 'Disk faults');
  const server = await startChildServer({
    dbPath,
    name: 'prepare',
    env: { SANDBOX_SETTLE_MS: String(prepareSettleMs), ...localEndpoints },
  });
  file.track(server);
  let requests = 0;
  const call = callAs(server, account);
  const api: typeof call = (...args) => {
    requests += 1;
    return call(...args);
  };
  const service = await api('POST', '/services', { body: { name: 'Disk shop' } });
  expect(service.status, service.text).toBe(201);
  const serviceId = service.body.data.service_id as string;
  const fund = await api('POST', '/topups', {
    body: logicalRequest('topup', 'disk-fund', 50_000, numbers.success, serviceId).body,
  });
  expect(fund.status, fund.text).toBe(202);
  await waitUntil(
    async () => (await api('GET', `/topups/${fund.body.data.transaction_id}`)).body.data.status === 'success',
    20_000,
    () => 'the funding top-up never settled',
  );
  const replay = logicalRequest('payout', 'disk-replayable', 1000, numbers.neverSettles, serviceId);
  const payout = await api('POST', replay.path, { body: replay.body, idempotencyKey: replay.key });
  expect(payout.status, payout.text).toBe(202);
  const pending = logicalRequest('payment', 'disk-pending', 2500, numbers.success, serviceId);
  const payment = await api('POST', pending.path, { body: pending.body });
  expect(payment.status, payment.text).toBe(202);
  // Written after its answer, as the rows before it were: once it is in, they all are.
  const lastRequestId = payment.headers.get('x-request-id') as string;
  await waitUntil(
    () => callLogged(dbPath, lastRequestId),
    10_000,
    () => `the call log of ${lastRequestId} never reached the file`,
    20,
  );
  return {
    server,
    requests,
    prepared: {
      account,
      serviceId,
      replayable: { key: replay.key, body: replay.body, transactionId: payout.body.data.transaction_id },
      pendingPaymentId: payment.body.data.transaction_id,
      pendingDueAt: Date.now() + prepareSettleMs,
    },
  };
}

/** Whether the call log holds the request `requestId` (read-only, beside the running server). */
function callLogged(dbPath: string, requestId: string): boolean {
  const db = openReadOnly(dbPath);
  try {
    return db.prepare('SELECT 1 FROM call_logs WHERE request_id = ?').get(requestId) !== undefined;
  } finally {
    db.close();
  }
}

/** Kills the preparing server before its payment can settle, and folds the WAL into the file. */
async function freeze(server: ChildServer, dbPath: string, prepared: Prepared): Promise<void> {
  await server.kill();
  // Everything the killed server committed goes into the file itself and the WAL is emptied, so
  // the counts and the hash taken next are the whole truth, commits whose index update the kill
  // cut short included (the checkpoint recovers the WAL first).
  const truncated = truncateWal(dbPath);
  expect(truncated).toMatchObject({ busy: 0, log: 0 });
  expect(truncated.walBytes).toBe(0);
  const payment = inspectMoney(dbPath).movements.find((m) => m.id === prepared.pendingPaymentId);
  expect(payment?.status).toBe('initiated');
}

/**
 * Stops the server (SIGSTOP) with its WAL folded into the file and truncated, so the fault
 * bites: a WAL that was fully copied back is reused from its start, in blocks the file already
 * has, and writes that fit there succeed even on a full disk (durably: they are the disk's own
 * blocks). The server's checkpoint thread copies the WAL back often, and its workers and call
 * log commit now and then: stopped, nothing of it can allocate WAL blocks again before the
 * disk is full. Tried again when the server was stopped in the middle of a commit.
 */
async function stopWithEmptyWal(server: ChildServer, dbPath: string): Promise<void> {
  await waitUntil(
    async () => {
      server.pause();
      const truncated = truncateWal(dbPath, 100);
      if (truncated.busy === 0 && truncated.walBytes === 0) return true;
      server.resume();
      return false;
    },
    5_000,
    () => 'the WAL could not be truncated',
  );
}

/**
 * `wal_checkpoint(TRUNCATE)` on a connection of the test's own: SQLite's answer, and the size of
 * the WAL after it (0 when there is none). A connection that never reads does not even open the
 * WAL (closing it checkpoints nothing), so the checkpoint is asked for; it recovers the WAL first.
 */
function truncateWal(dbPath: string, busyTimeoutMs = 5_000): { busy: number; log: number; walBytes: number } {
  const db = new Database(dbPath, { timeout: busyTimeoutMs });
  try {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number }>;
    const wal = `${dbPath}-wal`;
    return {
      busy: result?.busy ?? 1,
      log: result?.log ?? -1,
      walBytes: existsSync(wal) ? statSync(wal).size : 0,
    };
  } finally {
    db.close();
  }
}

interface FaultWrite {
  label: string;
  method: 'POST' | 'PUT';
  path: string;
  body: Record<string, unknown>;
  key?: string;
  /** The `reference` that finds a movement this request created. */
  reference?: string;
}

function faultWrites(prefix: string, serviceId: string): FaultWrite[] {
  const payment = logicalRequest('payment', `${prefix}-payment`, 1200, numbers.success, serviceId);
  const payout = logicalRequest('payout', `${prefix}-payout`, 700, numbers.success, serviceId);
  const topup = logicalRequest('topup', `${prefix}-topup`, 900, numbers.success, serviceId);
  return [
    {
      label: 'payment',
      method: 'POST',
      path: payment.path,
      body: payment.body,
      key: payment.key,
      reference: payment.key,
    },
    {
      label: 'payout',
      method: 'POST',
      path: payout.path,
      body: payout.body,
      key: payout.key,
      reference: payout.key,
    },
    {
      label: 'top-up',
      method: 'POST',
      path: topup.path,
      body: topup.body,
      key: topup.key,
      reference: topup.key,
    },
    {
      label: 'service',
      method: 'POST',
      path: '/services',
      body: { name: `${prefix} shop` },
      key: `${prefix}-service`,
    },
    {
      label: 'webhook endpoint',
      method: 'POST',
      path: '/webhook-endpoints',
      body: { url: 'http://127.0.0.1:9/hooks', description: prefix },
      key: `${prefix}-endpoint`,
    },
    { label: 'service update', method: 'PUT', path: `/services/${serviceId}`, body: { description: prefix } },
  ];
}

interface FaultOutcome {
  writes: FaultWrite[];
  answers: CallResult[];
}

/**
 * The checks every fault shares, against a server running under the fault: writes answer 503
 * (or, where `mayCommit`, a 2xx that then exists once), reads and replays work, the due
 * settlement waits, nothing partial is in the file, and the server stays up.
 */
async function underFault(
  server: ChildServer,
  dbPath: string,
  prepared: Prepared,
  prefix: string,
  mayCommit: boolean,
): Promise<FaultOutcome> {
  const api = callAs(server, prepared.account);
  const writes = faultWrites(prefix, prepared.serviceId);
  const answers: CallResult[] = [];
  for (const write of writes) {
    answers.push(
      await api(write.method, write.path, {
        body: write.body,
        ...(write.key ? { idempotencyKey: write.key } : {}),
      }),
    );
  }
  const wrong = answers
    .map((answer, i) => ({ answer, write: writes[i] as FaultWrite }))
    .filter(
      ({ answer }) => !documented503(answer) && !(mayCommit && answer.status >= 200 && answer.status < 300),
    )
    .map(
      ({ answer, write }) =>
        `${write.method} ${write.path} (${write.label}): ${answer.status} ${answer.text}`,
    );
  expect(wrong).toEqual([]);
  expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);

  // Reads, and the replay of an answer stored before the fault, still work.
  const balance = await api('GET', '/balance');
  expect(balance.status, balance.text).toBe(200);
  const replay = await api('POST', '/payouts', {
    body: prepared.replayable.body,
    idempotencyKey: prepared.replayable.key,
  });
  expect(replay.status, replay.text).toBe(202);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.data.transaction_id).toBe(prepared.replayable.transactionId);
  const payouts = await api('GET', '/payouts', {});
  expect(payouts.status, payouts.text).toBe(200);

  // The pending payment's operator outcome is due now; settling it is a write, so it waits.
  await sleep(Math.max(1500, prepared.pendingDueAt + 1000 - Date.now()));
  const payment = await api('GET', `/payments/${prepared.pendingPaymentId}`);
  expect(payment.status, payment.text).toBe(200);
  expect(payment.body.data.status).toBe('initiated');
  expect(server.alive()).toBe(true);

  // Nothing partial: the file is consistent, and each refused request left no trace.
  const snapshot = inspectMoney(dbPath);
  expect(snapshot.problems).toEqual([]);
  for (const [i, write] of writes.entries()) {
    if (!write.reference) continue;
    const rows = snapshot.byReference.get(write.reference) ?? [];
    expect(rows.length, `${write.label} answered ${answers[i]?.status}`).toBe(
      answers[i]?.status === 503 ? 0 : 1,
    );
  }
  const xaf = (balance.body.data.balances as Array<{ currency: string; available: number }>).find(
    (b) => b.currency === 'XAF',
  );
  const fileBalance = snapshot.balances.find(
    (b) => b.wallet_id === balance.body.data.wallet_id && b.currency === 'XAF',
  );
  expect(xaf?.available).toBe(fileBalance?.available);
  return { writes, answers };
}

/** Once the fault is lifted: the settlement resumes and each refused request goes through once. */
async function afterLift(
  server: ChildServer,
  dbPath: string,
  prepared: Prepared,
  outcome: FaultOutcome,
): Promise<number> {
  const api = callAs(server, prepared.account);
  let retried = 0;
  for (const [i, write] of outcome.writes.entries()) {
    if (outcome.answers[i]?.status !== 503) continue;
    retried++;
    const retry = await api(write.method, write.path, {
      body: write.body,
      ...(write.key ? { idempotencyKey: write.key } : {}),
    });
    expect(retry.status, `${write.label} retried: ${retry.text}`).toBeGreaterThanOrEqual(200);
    expect(retry.status, `${write.label} retried: ${retry.text}`).toBeLessThan(300);
    expect(retry.headers.get('idempotent-replayed'), `${write.label} was not stored before`).toBeNull();
  }
  await waitUntil(
    async () => (await api('GET', `/payments/${prepared.pendingPaymentId}`)).body.data.status === 'success',
    15_000,
    () => 'the pending payment did not settle once the fault was lifted',
  );
  const snapshot = inspectMoney(dbPath);
  expect(snapshot.problems).toEqual([]);
  for (const write of outcome.writes) {
    if (write.reference) expect(snapshot.byReference.get(write.reference)?.length, write.label).toBe(1);
  }
  expect(file.internalErrors()).toEqual([]);
  return retried;
}

// About the SQLite file (its permissions, its disk); PostgreSQL's counterpart is the database
// going away: database-outage-postgres.test.ts.
describe.skipIf(testEngine === 'postgres')('a read-only database file', () => {
  it('answers every write 503, serves reads and replays, commits nothing, and recovers', {
    timeout: 120_000,
  }, async () => {
    const started = Date.now();
    const { dir, dbPath } = situationFolder('read-only');
    const { prepared, server: preparing, requests } = await prepare(dbPath);
    await freeze(preparing, dbPath, prepared);

    chmodSync(dbPath, 0o444);
    if (isRoot) {
      chmodSync(file.dir, 0o755); // mkdtemp made it 0700: the server's user must reach its folder
      chownSync(dir, nobody.uid, nobody.gid);
      chownSync(dbPath, nobody.uid, nobody.gid);
      // The key that seals webhook secrets, generated beside the database, belongs to the server's user.
      chownSync(secretsKeyFilePath(dbPath), nobody.uid, nobody.gid);
    }
    const countsBefore = tableCounts(dbPath);
    // One row per request the preparing server answered, none more, none missing.
    expect(countsBefore.call_logs).toBe(requests);
    const hashBefore = sha256(dbPath);

    const readOnly = await startChildServer({
      dbPath,
      name: 'read-only',
      env: localEndpoints,
      ...(isRoot ? { user: nobody } : {}),
    });
    file.track(readOnly);
    const outcome = await underFault(readOnly, dbPath, prepared, 'ro', false);
    expect(logged(readOnly, /^SQLITE_READONLY/)).toBe(true);
    await readOnly.stop();
    const shutdown = await readOnly.exited;
    const shutdownError = readOnly.logLines().find((l) => l.msg === 'shutdown failed')?.err as
      | { code?: string; message?: string }
      | undefined;

    // Not a row written under the fault: the call log still holds the preparing server's rows only.
    expect(tableCounts(dbPath)).toEqual(countsBefore);
    expect(sha256(dbPath)).toBe(hashBefore);

    for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);
    const writable = await startChildServer({ dbPath, name: 'writable-again', env: localEndpoints });
    file.track(writable);
    const retried = await afterLift(writable, dbPath, prepared, outcome);
    await writable.stop();
    console.info(
      `[faults/disk-errors] read-only file (${isRoot ? 'chmod 0444, server run as uid 65534' : 'chmod 0444'}): ` +
        `${outcome.answers.map((a) => a.status).join(',')} for ${outcome.writes.map((w) => w.label).join(', ')}; ` +
        `errors logged: ${errorCodesOf(readOnly)}; reads and replay 200/202; file bytes unchanged; graceful shutdown exited ${shutdown.code}${shutdownError ? ` (shutdown failed: ${shutdownError.code} ${shutdownError.message})` : ''}; ` +
        `${retried} retried with the same keys once writable, each created once; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });

  it.skipIf(!canMount)(
    'on a read-only file system the server refuses to start and changes nothing',
    { timeout: 60_000 },
    async () => {
      const { dir, dbPath } = situationFolder('ro-source');
      const mount = situationFolder('ro-mount').dir;
      await createAccountWithCli(dbPath, 'Read-only file system');
      const hashBefore = sha256(dbPath);
      execFileSync('mount', ['--bind', dir, mount]);
      mounts.push(mount);
      execFileSync('mount', ['-o', 'remount,ro,bind', mount]);

      const error = await startChildServer({ dbPath: join(mount, 'payments.db'), name: 'read-only-fs' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(ChildServerStartError);
      const startError = error as ChildServerStartError;
      expect(startError.code).not.toBe(0);
      expect(startError.code).not.toBeNull();
      expect(startError.output).toMatch(/unable to open database file|SQLITE_CANTOPEN|SQLITE_READONLY/);
      execFileSync('umount', [mount]);
      mounts.pop();
      expect(sha256(dbPath)).toBe(hashBefore);
      console.info(
        `[faults/disk-errors] read-only file system: the server exited ${startError.code} before listening: ` +
          `${startError.output.split('\n')[0]}`,
      );
    },
  );
});

/** A server running on a full disk, what was prepared before, and how to give the space back. */
interface FullDisk {
  faulty: ChildServer;
  prepared: Prepared;
  /** The requests the server answered before the disk filled: one call-log row each. */
  requests: number;
  /** Gives the space back; returns the server to go on with. */
  lift: () => Promise<ChildServer>;
  /** Bytes of filler written (tmpfs only). */
  filled: number;
}

/**
 * A 2 MB tmpfs whose last byte a filler file takes while the server runs (paused meanwhile,
 * with its WAL truncated, so the fault bites); its payment falls due when the disk is full.
 */
async function fillTmpfs(dir: string, dbPath: string): Promise<FullDisk> {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir]);
  mounts.push(dir);
  // Its call log is all written (prepare waits for it): no row of it finds the disk full.
  const { prepared, server: faulty, requests } = await prepare(dbPath);
  await stopWithEmptyWal(faulty, dbPath);
  // The premise: the payment is still waiting for its operator when the disk fills up.
  const payment = inspectMoney(dbPath).movements.find((m) => m.id === prepared.pendingPaymentId);
  expect(payment?.status).toBe('initiated');
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  let filled = 0;
  for (const size of [65_536, 4096, 512, 1]) {
    const chunk = Buffer.alloc(size, 1);
    for (;;) {
      try {
        const written = writeSync(fd, chunk);
        filled += written;
        if (written < size) break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        break;
      }
    }
  }
  closeSync(fd);
  faulty.resume();
  const lift = async () => {
    // Space comes back as an operator would give it: the file system grows, not just the
    // filler's bytes. Those alone would soon be taken again: the WAL grows up to its
    // checkpoint threshold (1000 pages, 4 MB) before being reused, more than the 2 MB here.
    execFileSync('mount', ['-o', 'remount,size=64m', dir]);
    unlinkSync(filler);
    return faulty;
  };
  return { faulty, prepared, requests, lift, filled };
}

/**
 * A file size limit on the server process: its WAL cannot grow past 32 KB (the shared memory
 * file needs exactly that), so no money movement fits.
 */
async function limitFileSize(dbPath: string): Promise<FullDisk> {
  const ready = await prepare(dbPath);
  const { prepared } = ready;
  await freeze(ready.server, dbPath, prepared);
  const faulty = await startChildServer({
    dbPath,
    name: 'size-limited',
    env: localEndpoints,
    prefix: ['/bin/sh', '-c', 'ulimit -f 64 && exec "$0" "$@"'],
  });
  file.track(faulty);
  const lift = async () => {
    await faulty.stop();
    const again = await startChildServer({ dbPath, name: 'unlimited-again', env: localEndpoints });
    file.track(again);
    return again;
  };
  return { faulty, prepared, requests: ready.requests, lift, filled: 0 };
}

// About the SQLite file's disk; see database-outage-postgres.test.ts for PostgreSQL.
describe.skipIf(testEngine === 'postgres')('a full disk', () => {
  it(`answers writes 503, serves reads, commits nothing partial, and recovers (${diskFullTechnique})`, {
    timeout: 120_000,
  }, async () => {
    const started = Date.now();
    const { dir, dbPath } = situationFolder('full-disk');
    const tmpfs = diskFullTechnique === 'tmpfs';
    const { faulty, prepared, requests, lift, filled } = tmpfs
      ? await fillTmpfs(dir, dbPath)
      : await limitFileSize(dbPath);

    const countsBefore = tableCounts(dbPath);
    const outcome = await underFault(faulty, dbPath, prepared, 'full', !tmpfs);
    // Not a row was written while the disk was full: not a movement, not a call log (the one
    // row of each request answered before it, exactly).
    if (tmpfs) {
      expect(countsBefore.call_logs).toBe(requests);
      expect(tableCounts(dbPath)).toEqual(countsBefore);
    }
    expect(logged(faulty, tmpfs ? /^SQLITE_FULL/ : /^SQLITE_(FULL|IOERR)/)).toBe(true);
    const errorCodes = errorCodesOf(faulty);
    const recovered = await lift();
    const retried = await afterLift(recovered, dbPath, prepared, outcome);
    await recovered.stop();
    console.info(
      `[faults/disk-errors] full disk (${tmpfs ? `2 MB tmpfs, ${filled} bytes of filler` : 'ulimit -f 64 (32 KB)'}): ` +
        `${outcome.answers.map((a) => a.status).join(',')} for ${outcome.writes.map((w) => w.label).join(', ')}; ` +
        `errors logged: ${errorCodes}; reads and replay 200/202; server stayed up; ` +
        `${retried} retried with the same keys after the space came back, each created once; ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });
});
