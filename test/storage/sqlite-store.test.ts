/**
 * The SQLite store's ways of keeping work off the request path: the writer thread that runs named
 * units of work (server/storage/unit.ts) while the event loop goes on; units that ride with the
 * next group commit (`runSoon`, what the call log writes with); and the thread that copies the
 * WAL back into the database file so the event loop does not (the checkpointer);
 * `checkpoint()`, which must leave the WAL empty even while that thread or a reader is busy; and
 * reads, which run side by side on connections of their own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPermissionValues } from '../../generated/openapi.js';
import { createAccount } from '../../server/domain/accounts.js';
import { ApiError, fromStorage } from '../../server/domain/errors.js';
import { newId } from '../../server/domain/ids.js';
import { accountPage } from '../../server/domain/lists.js';
import { recordCalls } from '../../server/domain/logs.js';
import { insertPayment } from '../../server/domain/payments.js';
import { databaseUnavailable } from '../../server/http/error-handler.js';
import { openStore } from '../../server/storage/open-store.js';
import { InvalidCursor } from '../../server/storage/pagination.js';
import type { CallLogRow, PaymentRow } from '../../server/storage/rows.js';
import { startCheckpointer } from '../../server/storage/sqlite/checkpointer.js';
import { threadEnded } from '../../server/storage/sqlite/thread.js';
import type { Store } from '../../server/storage/store.js';
import { repoRoot } from '../support/child-server.js';
import { exitedWithOutput } from '../support/process-exit.js';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const silent = pino({ level: 'silent' });

/**
 * Resolves in a later turn of the event loop, after this turn's setImmediate callbacks. A timer
 * alone is not enough: called from a check-phase callback, a setImmediate queued now runs in the
 * next turn's check phase, after that turn's timers, and on a busy machine a 5-ms timer is
 * already due then (one CI run failed so). The immediate queued once the timer has fired runs
 * in the same check phase as those queued before it, after them.
 */
const nextTurn = async () => {
  await new Promise<void>((resolve) => setTimeout(resolve, 5));
  await new Promise<void>((resolve) => setImmediate(resolve));
};

async function openAt(server: boolean): Promise<{ store: Store; path: string }> {
  const path = join(dir, `store-${++files}.db`);
  const config = { databasePath: path, database: null, secretsEncryptionKey: Buffer.alloc(32, 7) };
  return { path, store: await openStore(config, server ? { server: { logger: silent } } : {}) };
}

function logRow(n: number): Omit<CallLogRow, 'seq'> {
  return {
    id: newId('log'),
    account_id: null,
    mode: null,
    request_id: `req_${n}`,
    method: 'GET',
    path: `/v1/payments/${'x'.repeat(120)}${n}`,
    status: 200,
    duration_ms: 1.5,
    key_id: null,
    error_code: null,
    created_at: Date.now(),
    user_id: null,
  };
}

/** Rows in call_logs, read on a connection of the test's own (the last commit, WAL included). */
function logCount(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM call_logs').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Resolves with what `promise` gave, or with 'still waiting' after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  return Promise.race([
    promise,
    new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), ms)),
  ]);
}

describe.each([
  ['on the writer thread', true],
  ['in place (a command-line store)', false],
])('runSoon, named units %s (SQLite)', (_, server) => {
  it('commits with the next batch of writes instead of waiting for its delay', async () => {
    const { store, path } = await openAt(server);
    const soon = store.runSoon(recordCalls, () => ({ rows: [logRow(1)] }), 60_000);
    await store.run(recordCalls, { rows: [logRow(2)] });
    expect(await within(soon, 5_000)).toBeUndefined();
    expect(logCount(path)).toBe(2);
    await store.close();
  });

  it('takes its arguments when it boards the batch, not when it was queued', async () => {
    const { store, path } = await openAt(server);
    const rows = [logRow(1)];
    const soon = store.runSoon(recordCalls, () => ({ rows }), 30);
    rows.push(logRow(2), logRow(3));
    await within(soon, 5_000);
    expect(logCount(path)).toBe(3);
    await store.close();
  });

  it('with no write coming, commits once its delay is over', async () => {
    const { store, path } = await openAt(server);
    const soon = store.runSoon(recordCalls, () => ({ rows: [logRow(1)] }), 30);
    await expect(within(soon, 5_000)).resolves.toBeUndefined();
    expect(logCount(path)).toBe(1);
    await store.close();
  });

  it('a unit that throws rolls back alone: the batch it rode with commits', async () => {
    const { store, path } = await openAt(server);
    const twice = logRow(1);
    const soon = store.runSoon(recordCalls, () => ({ rows: [logRow(3), twice, twice] }), 60_000);
    soon.catch(() => undefined);
    await store.run(recordCalls, { rows: [logRow(2)] });
    await expect(soon).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
    expect(logCount(path)).toBe(1);
    await store.close();
  });

  it('close() writes the units still waiting for a batch', async () => {
    const { store, path } = await openAt(server);
    const soon = store.runSoon(recordCalls, () => ({ rows: [logRow(1), logRow(2), logRow(3)] }), 60_000);
    await store.close();
    await expect(within(soon, 1_000)).resolves.toBeUndefined();
    expect(logCount(path)).toBe(3);
  });

  it('named units and closures commit in the order they were queued', async () => {
    const { store, path } = await openAt(server);
    const queued = [
      store.transact((tx) => tx.logs.insertMany([logRow(1)])),
      store.run(recordCalls, { rows: [logRow(2), logRow(3)] }),
      store.transact((tx) => tx.logs.insertMany([logRow(4)])),
      store.run(recordCalls, { rows: [logRow(5)] }),
    ];
    await Promise.all(queued);
    const db = new Database(path, { readonly: true });
    const order = db.prepare('SELECT request_id FROM call_logs ORDER BY seq').pluck().all();
    db.close();
    expect(order).toEqual(['req_1', 'req_2', 'req_3', 'req_4', 'req_5']);
    await store.close();
  });

  it("a unit's ApiError reaches the caller as an ApiError, with its status and code", async () => {
    const { store } = await openAt(server);
    const account = await createAccount(store, { name: 'Shop' }, Date.now());
    const caller = {
      accountId: account.accountId,
      mode: 'test' as const,
      keyId: 'key_x',
      walletId: 'wal_x',
      defaultCurrency: 'XAF',
      role: 'full' as const,
      permissions: apiPermissionValues,
    };
    const row = { service_id: 'svc_missing' } as Parameters<typeof insertPayment.run>[1]['row'];
    const refused = await store.run(insertPayment, { caller, row }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 422, code: 'service_not_found', param: 'service_id' });
    await store.close();
  });
});

describe.each([
  ['on the reader thread', true],
  ['in place (a command-line store)', false],
])('view, named reads %s (SQLite)', (_, server) => {
  async function withPayments(n: number) {
    const opened = await openAt(server);
    const account = await createAccount(opened.store, { name: 'Shop' }, Date.now());
    const db = new Database(opened.path);
    const wallet = db
      .prepare("SELECT id FROM wallets WHERE account_id = ? AND mode = 'test'")
      .pluck()
      .get(account.accountId);
    const service = newId('svc');
    db.prepare(
      "INSERT INTO services (id, account_id, mode, name, type, status, created_at, updated_at) VALUES (?, ?, 'test', 'Shop', 'other', 'active', 0, 0)",
    ).run(service, account.accountId);
    db.close();
    const caller = {
      accountId: account.accountId,
      mode: 'test' as const,
      keyId: 'key_x',
      walletId: String(wallet),
      defaultCurrency: 'XAF',
      role: 'full' as const,
      permissions: apiPermissionValues,
    };
    for (let i = 0; i < n; i += 1) {
      await opened.store.run(insertPayment, {
        caller,
        row: {
          id: newId('pay'),
          account_id: account.accountId,
          mode: 'test',
          status: 'initiated',
          failure_code: null,
          refunded_amount: 0,
          created_at: i,
          updated_at: i,
          completed_at: null,
          amount: 100 + i,
          currency: 'XAF',
          flow: 'hosted',
          payment_method: null,
          customer_msisdn: null,
          service_id: service,
          reference: null,
          metadata: null,
          return_url: null,
          checkout_token: `cs_${newId('cs')}`,
          operator_ref: null,
          next_check_at: null,
          expires_at: i + 1000,
        },
      });
    }
    return { ...opened, accountId: account.accountId };
  }

  it('reads a page of what was committed, newest first, and pages on with its cursor', async () => {
    const { store, accountId } = await withPayments(5);
    const args = {
      list: 'payments' as const,
      accountId,
      mode: 'test' as const,
      query: {},
      page: { limit: 3 },
    };
    const first = await store.view(accountPage, args);
    expect(first.items.map((p) => (p as PaymentRow).amount)).toEqual([104, 103, 102]);
    expect(first.has_more).toBe(true);
    const second = await store.view(accountPage, {
      ...args,
      page: { limit: 3, cursor: first.next_cursor ?? '' },
    });
    expect(second.items.map((p) => (p as PaymentRow).amount)).toEqual([101, 100]);
    expect(second.has_more).toBe(false);
    await store.close();
  });

  it("a read's refusal (a cursor this store never returned) reaches the caller as itself, answered as a 400", async () => {
    const { store, accountId } = await withPayments(1);
    const refused = await store
      .view(accountPage, {
        list: 'payments',
        accountId,
        mode: 'test',
        query: {},
        page: { limit: 3, cursor: 'bm9wZQ' },
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidCursor);
    expect(refused).toMatchObject({ name: 'InvalidCursor', param: 'cursor' });
    expect(fromStorage(refused)).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'cursor' });
    await store.close();
  });

  it('close() waits for a read still running', async () => {
    const { store, accountId } = await withPayments(2);
    const reading = store.view(accountPage, {
      list: 'payments',
      accountId,
      mode: 'test',
      query: {},
      page: { limit: 10 },
    });
    await store.close();
    expect((await reading).items).toHaveLength(2);
  });
});

/**
 * Another connection holding the file's write lock until `release()`, and the event loop's ticks
 * meanwhile (one per 5 ms): a loop stopped by a wait for that lock counts none.
 */
function anotherWriterLocks(path: string): { ticks: () => number; release: () => void } {
  const other = new Database(path);
  other.prepare('BEGIN IMMEDIATE').run();
  let ticks = 0;
  const ticking = setInterval(() => (ticks += 1), 5);
  return {
    ticks: () => ticks,
    release() {
      clearInterval(ticking);
      other.prepare('COMMIT').run();
      other.close();
    },
  };
}

describe('the writer thread', () => {
  it("waits for another connection's write lock while the event loop goes on", async () => {
    const { store, path } = await openAt(true);
    await store.run(recordCalls, { rows: [logRow(1)] });
    const lock = anotherWriterLocks(path);
    const written = store.run(recordCalls, { rows: [logRow(2)] });
    // In place, the store's BEGIN would wait in SQLite's busy handler on this thread: no tick
    // would come, and the lock below would never be let go before busy_timeout (5 s).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ticksWhileLocked = lock.ticks();
    lock.release();
    await expect(within(written, 5_000)).resolves.toBeUndefined();
    expect(ticksWhileLocked).toBeGreaterThan(10);
    expect(logCount(path)).toBe(2);
    await store.close();
  });

  it('a closure queued behind a batch still on the writer thread waits for it without stopping the event loop, and all commit in queue order', async () => {
    const { store, path } = await openAt(true);
    await store.run(recordCalls, { rows: [logRow(0)] });
    const lock = anotherWriterLocks(path);
    // The first batch waits on the other connection's lock. The closure queued next would wait
    // for that lock on this thread, its BEGIN IMMEDIATE stopping the event loop: it waits for the
    // batch to be answered instead, and what is queued after it waits behind it.
    const log = (n: number) => ({ rows: [logRow(n)] });
    const queued: Promise<unknown>[] = [store.run(recordCalls, log(1))];
    await nextTurn();
    queued.push(
      store.transact((tx) => tx.logs.insertMany([logRow(2)])),
      store.run(recordCalls, log(3)),
    );
    await nextTurn();
    queued.push(store.run(recordCalls, log(4)));
    await nextTurn();
    queued.push(store.run(recordCalls, log(5)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ticksWhileLocked = lock.ticks();
    expect(await within(Promise.race(queued), 0)).toBe('still waiting');
    lock.release();
    await expect(within(Promise.all(queued), 5_000)).resolves.not.toBe('still waiting');
    expect(ticksWhileLocked).toBeGreaterThan(10);
    const db = new Database(path, { readonly: true });
    const order = db.prepare('SELECT request_id FROM call_logs ORDER BY seq').pluck().all();
    db.close();
    expect(order).toEqual(['req_0', 'req_1', 'req_2', 'req_3', 'req_4', 'req_5']);
    await store.close();
  });

  it('a thread that died is a 503 to its callers, however it died (an exit or an uncaught error)', () => {
    for (const ended of [
      threadEnded('writer', 'exit code 1'),
      threadEnded('reader', 'threw: boom', new Error('boom')),
    ]) {
      expect(ended).toMatchObject({ code: 'SQLITE_THREAD_ENDED' });
      expect(databaseUnavailable(ended)).toBe(true);
    }
  });

  it('arguments that cannot be copied fail their batch alone; the next batch commits', async () => {
    const { store, path } = await openAt(true);
    const uncopyable = { rows: [logRow(1)], extra: () => 1 };
    await expect(store.run(recordCalls, uncopyable)).rejects.toThrow(/could not be cloned/);
    await store.run(recordCalls, { rows: [logRow(2)] });
    expect(logCount(path)).toBe(1);
    await store.close();
  });

  it('runs a unit whose module the thread had not loaded: it imports the module the unit names', async () => {
    const { store, path } = await openAt(true);
    const { recordEachCallTwice } = await import('../fixtures/units/twice.js');
    await store.run(recordEachCallTwice, { rows: [logRow(1)] });
    expect(logCount(path)).toBe(2);
    await store.close();
  });

  it('a unit its module does not define is refused by name, and the store goes on', async () => {
    const { store, path } = await openAt(true);
    const unknown = { module: recordCalls.module, name: 'nobody.defined', run: recordCalls.run };
    await expect(store.run(unknown, { rows: [logRow(1)] })).rejects.toThrow(
      /no unit of work named nobody.defined in .*logs/,
    );
    await store.run(recordCalls, { rows: [logRow(2)] });
    expect(logCount(path)).toBe(1);
    await store.close();
  });
});

describe('the checkpoint thread', () => {
  /**
   * A few hundred WAL pages: under the writer's own automatic checkpoint (1,000 pages), so only
   * the thread can have copied them into the database file, which then grows.
   */
  async function writeSomePages(store: Store): Promise<void> {
    for (let batch = 0; batch < 10; batch++) {
      await store.transact((tx) =>
        tx.logs.insertMany(Array.from({ length: 60 }, (_, i) => logRow(batch * 60 + i))),
      );
    }
  }

  it("a server's store copies committed pages into the file without the writer checkpointing", async () => {
    const { store, path } = await openAt(true);
    const before = statSync(path).size;
    await writeSomePages(store);
    const deadline = Date.now() + 10_000;
    while (statSync(path).size === before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(statSync(path).size).toBeGreaterThan(before);
    expect(logCount(path)).toBe(600);
    await store.close();
  });

  it('a command-line store has no thread: the same pages stay in the WAL until the writer checkpoints', async () => {
    const { store, path } = await openAt(false);
    const before = statSync(path).size;
    await writeSomePages(store);
    await new Promise((r) => setTimeout(r, 300));
    expect(statSync(path).size).toBe(before);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    await store.close();
  });

  it("lets a server's store close in a process with nothing else to do, the file closed cleanly", async () => {
    // The compiled store (dist/, compiled by the global setup) in a process of its own, as a
    // server's is at SIGTERM once its listener has closed: nothing but the close keeps it alive.
    // Whether such a process outlived an unreferenced thread was a race (it lost about two
    // times in three): five stores, one after the other, all have to close.
    const folder = mkdtempSync(join(dir, 'alone-'));
    const script = `
      import { join } from 'node:path';
      import { openStore } from ${JSON.stringify(join(repoRoot, 'dist/server/storage/open-store.js'))};
      const logger = { warn: (...args) => console.error(...args) };
      for (let i = 1; i <= 5; i++) {
        const store = await openStore(
          { databasePath: join(${JSON.stringify(folder)}, 'store-' + i + '.db'), database: null, secretsEncryptionKey: Buffer.alloc(32, 7) },
          { server: { logger } },
        );
        await store.transact((tx) => tx.logs.purge(0, 1));
        await store.close();
      }
      console.log('closed 5');
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const { code } = await exitedWithOutput(child);
    // Node exits 13 when the loop empties with the top-level await still pending.
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: 'closed 5' });
    // Each store's last connection closed: SQLite removed the WAL and its index.
    expect(readdirSync(folder).sort()).toEqual([1, 2, 3, 4, 5].map((i) => `store-${i}.db`));
  });

  it('reports a thread that cannot work instead of failing silently', async () => {
    const failures: Array<{ code: string; message: string }> = [];
    const checkpointer = startCheckpointer(join(dir, 'no-such-file.db'), (failure) => failures.push(failure));
    await checkpointer.stop();
    expect(failures).toEqual([expect.objectContaining({ code: 'SQLITE_CANTOPEN' })]);
    expect(failures[0]?.message).toMatch(/no-such-file|unable to open/);
  });
});

describe('checkpoint()', () => {
  it('empties the WAL once a reader holding an older snapshot lets go, instead of returning with it full', async () => {
    const { store, path } = await openAt(true);
    await store.transact((tx) => tx.logs.insertMany([logRow(1)]));
    const reader = new Database(path, { readonly: true });
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM call_logs').get(); // holds this snapshot
    await store.transact((tx) => tx.logs.insertMany([logRow(2)]));
    // Lets go as soon as the first attempt has answered busy (it waits for readers, then gives up).
    setTimeout(() => reader.prepare('COMMIT').run(), 0);
    await store.checkpoint();
    expect(statSync(`${path}-wal`).size).toBe(0);
    reader.close();
    await store.close();
  }, 30_000);
});

/** A promise the test settles when it chooses: whatever awaits `gate` goes on once `open()` is called. */
function gated(): { gate: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { gate, open };
}

describe('reads (SQLite)', () => {
  const account = 'acct_reads';
  const insertRow = (store: Store, n: number) =>
    store.transact((tx) => tx.logs.insertMany([{ ...logRow(n), account_id: account, mode: 'test' }]));
  const rowsSeen = async (tx: Parameters<Parameters<Store['read']>[0]>[0]) =>
    (await tx.logs.list(account, 'test', {}, { limit: 100 })).items.length;

  it('that overlap do not wait for each other, and each keeps the snapshot it started with', async () => {
    const { store } = await openAt(false);
    await insertRow(store, 1);
    const { gate, open } = gated();
    const seenByFirst: number[] = [];
    const first = store.read(async (tx) => {
      seenByFirst.push(await rowsSeen(tx));
      await gate; // a macrotask away: other requests run meanwhile
      seenByFirst.push(await rowsSeen(tx));
    });
    await insertRow(store, 2);
    // Started while the first is still open: answered now, with the last commit.
    expect(await within(store.read(rowsSeen), 1_000)).toBe(2);
    open();
    await first;
    expect(seenByFirst).toEqual([1, 1]);
    await store.close();
  });

  it('one started inside another runs on a connection of its own, with a snapshot of its own', async () => {
    const { store } = await openAt(false);
    await insertRow(store, 1);
    const seen = await store.read(async (tx) => {
      const before = await rowsSeen(tx);
      await insertRow(store, 2);
      const inner = await within(store.read(rowsSeen), 1_000);
      return { before, inner, after: await rowsSeen(tx) };
    });
    expect(seen).toEqual({ before: 1, inner: 2, after: 1 });
    await store.close();
  });

  it('keysVersion() sees a key change another process committed from the next turn on, while a read holds an older snapshot', async () => {
    const { store, path } = await openAt(false);
    await createAccount(store, { name: 'Keys' }, Date.now());
    const other = new Database(path);
    const revokeAll = () => other.prepare('UPDATE api_keys SET revoked_at = ?').run(Date.now());
    try {
      const before = store.keysVersion() as number;
      revokeAll();
      // Read once per turn of the event loop: the requests of one turn share the read.
      expect(store.keysVersion()).toBe(before);
      await nextTurn();
      expect(store.keysVersion()).toBe(before + 2); // both keys (test and live)
      const { gate, open } = gated();
      const reading = store.read(async (tx) => {
        await rowsSeen(tx); // the snapshot starts here
        await gate;
      });
      revokeAll();
      await nextTurn();
      // Every connection the store had is inside that read: the version still comes from the file.
      expect(store.keysVersion()).toBe(before + 4);
      open();
      await reading;
    } finally {
      other.close();
      await store.close();
    }
  });

  it('keysVersion() sees a key change committed through the store at once, in the same turn', async () => {
    const { store } = await openAt(false);
    const { accountId } = await createAccount(store, { name: 'Keys here' }, Date.now());
    try {
      const before = store.keysVersion() as number;
      await nextTurn();
      // The revocation's batch runs in this turn's check phase; the version read next is kept
      // for the turn until a callback queued after that batch forgets it...
      const revoked = store.transact((tx) => tx.accounts.revokeAllKeys(accountId, 'test', Date.now()));
      expect(store.keysVersion()).toBe(before);
      // ...but the commit forgets it first: a request authenticated right after sees the change.
      await revoked;
      expect(store.keysVersion()).toBe(before + 1);
    } finally {
      await store.close();
    }
  });

  it('close() waits for a read still running', async () => {
    const { store } = await openAt(false);
    await insertRow(store, 1);
    const { gate, open } = gated();
    const reading = store.read(async (tx) => {
      await gate;
      return rowsSeen(tx);
    });
    const closing = store.close();
    expect(await within(closing, 200)).toBe('still waiting');
    open();
    expect(await reading).toBe(1);
    await closing;
  });
});
