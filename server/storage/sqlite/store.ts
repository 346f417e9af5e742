import { setTimeout as sleep } from 'node:timers/promises';
import type { Statement } from 'better-sqlite3';
import { repositories } from '../repositories/index.js';
import type { SecretBox } from '../secret-box.js';
import type { Store, Tx } from '../store.js';
import { type ErrorData, errorFromData, refOf, type Unit } from '../unit.js';
import type { Checkpointer } from './checkpointer.js';
import { sqliteConnection } from './connection.js';
import type { Db } from './database.js';
import { type GroupCommit, groupCommit, type Outcome, runGroup } from './group-commit.js';
import { SqliteThread, type ThreadOptions } from './thread.js';
import type { ThreadReply } from './thread-program.js';

/** A closure run on this thread's writer connection, or a named unit sent to the writer thread. */
type QueuedWork = (
  | { work: (tx: Tx) => Promise<unknown>; unit?: undefined; args?: undefined }
  | { unit: Unit<unknown, unknown>; args: () => unknown; work?: undefined }
) & {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** A read-only connection of the pool, with its repositories and statements. */
interface Reader {
  db: Db;
  tx: Tx;
  begin: Statement;
  commit: Statement;
  keyVersion: Statement;
}

/**
 * Batches the writer thread may have at once: the one it runs and the next, so it never waits
 * for this thread between two (`#flush`).
 */
const batchesInFlight = 2;

/** Readers kept open once their read ended: reads seldom overlap, since SQLite answers at once. */
const idleReadersKept = 2;

/**
 * The SQLite store: writes on one connection inside `BEGIN IMMEDIATE`, which is what makes every
 * money movement atomic and keeps two processes on the same file from interleaving; reads on a
 * second, read-only connection (docs/decisions/0003-storage-boundary.md).
 *
 * Writes are group-committed: the units of work queued during one turn of the event loop run
 * one after the other, each in its own savepoint, inside a single transaction, and nobody is
 * answered before its COMMIT. Each unit still commits or rolls back as a whole, but the disk
 * sync that `synchronous=FULL` makes every commit wait for is paid once per batch instead of
 * once per request (docs/performance.md: the largest cost of a POST). A unit is
 * awaited before the next starts; it awaits only repository calls, whose promises SQLite has
 * already settled, so the batch holds the write lock about as briefly as synchronous work did.
 * Units queued while a batch runs wait for the next one.
 *
 * Units of work (`run`, `runSoon`; server/storage/unit.ts), the only way the server writes
 * (docs/decisions/0021-one-write-path.md), go to a writer thread when the store has threads (a
 * server's, `threads`): a connection of its own on that thread runs them, a batch at a time in
 * one transaction as above, commits and syncs, while the event loop goes on serving requests
 * (thread-program.ts). Closures (`transact`, for tests and tools arranging rows) run on this
 * thread's connection, in the same queue: a batch runs its consecutive units on the thread and
 * its closures here, one part after the other, so everything still commits in queue order and
 * the two connections never wait for each other's lock. Named reads (`view`) go to a reader
 * thread the same way, each on its own snapshot. Without threads (the admin CLI) both run here.
 *
 * Since a unit yields between its statements, a read on the writer's connection could see a
 * batch's uncommitted writes: reads have read-only connections of their own, on which WAL shows
 * the last commit. Each read runs in its own deferred transaction (one snapshot) on a connection
 * nobody else uses meanwhile; reads that overlap (one awaits while another starts, or one is
 * started inside another) take another connection, opened when none is free. No async context
 * is tracked: Node's AsyncLocalStorage turns on promise hooks, which cost every promise of every
 * request (docs/performance.md).
 */
export class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly unitsRunInQueueOrder = true;
  /** One process serves the file: the rate limits count in memory. */
  readonly counters = null;
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #openReader: () => Db;
  /** Read connections not in use now; a read takes the last one, or opens another. */
  readonly #idleReaders: Reader[] = [];
  /** Reads running now, and who waits for them all to end (close, checkpoint). */
  #readsRunning = 0;
  #readsEnded: Array<() => void> = [];
  readonly #tx: Tx;
  readonly #group: GroupCommit;
  #queue: QueuedWork[] = [];
  /** Units that ride with the next batch (`runSoon`), and the timer that starts one for them. */
  #riders: QueuedWork[] = [];
  #ridersDue: NodeJS.Timeout | undefined;
  #flushScheduled = false;
  /** The flush running now, if any: taking the queue, sending its batch, running its closures. */
  #flushing: Promise<void> | undefined;
  /** Batches sent to the writer thread and not answered yet, and who waits for one to be. */
  #batchesInFlight = 0;
  #batchAnswered: Array<() => void> = [];
  readonly #checkpointer: Checkpointer | undefined;
  /** `keysVersion()` as read in this turn of the event loop (undefined: not read yet). */
  #keysVersionThisTurn: number | undefined;
  readonly #writer: SqliteThread | undefined;
  readonly #reader: SqliteThread | undefined;

  /**
   * @param db the writer's connection, on a migrated file (`openDatabase`)
   * @param openReader opens a read-only connection to the same file (`openReadConnection`),
   *   once at first and again whenever reads overlap
   * @param checkpointer copies the WAL into the file off the event loop; told of every commit
   * @param threads the file and key for the writer thread, which runs the named units, and the
   *   reader thread, which runs the named reads (`view`); without, both run on this thread
   */
  constructor(
    db: Db,
    openReader: () => Db,
    box: SecretBox,
    options: { checkpointer?: Checkpointer | undefined; threads?: ThreadOptions | undefined } = {},
  ) {
    this.#checkpointer = options.checkpointer;
    this.#writer = options.threads && new SqliteThread('writer', options.threads);
    this.#reader = options.threads && new SqliteThread('reader', options.threads);
    this.#db = db;
    this.#box = box;
    this.#openReader = openReader;
    this.#idleReaders.push(this.#newReader());
    this.#tx = repositories(sqliteConnection(db), box);
    this.#group = groupCommit(db);
  }

  /**
   * Runs `work` as one unit: all of it commits, or none of it (it threw). Resolves after the
   * commit that made it durable. For tests and tools (`Store.transact`): server code writes
   * with units.
   */
  transact<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#scheduleFlush();
    });
  }

  /** Runs a named unit as one unit of the queue: on the writer thread when there is one. */
  run<A, R>(unit: Unit<A, R>, args: A): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push(this.#queued(unit, () => args, resolve, reject));
      this.#scheduleFlush();
    });
  }

  /**
   * Runs a named unit in the next batch, after that batch's other units, with the `args` of that
   * moment; when no batch starts within `maxDelayMs`, a batch starts for it.
   */
  runSoon<A, R>(unit: Unit<A, R>, args: () => A, maxDelayMs: number): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#riders.push(this.#queued(unit, args, resolve, reject));
      this.#ridersDue ??= setTimeout(() => this.#boardRiders(true), maxDelayMs);
    });
  }

  #queued<A, R>(
    unit: Unit<A, R>,
    args: () => A,
    resolve: (value: R) => void,
    reject: (error: unknown) => void,
  ): QueuedWork {
    const settle = { resolve: resolve as (value: unknown) => void, reject };
    if (this.#writer) return { unit: unit as Unit<unknown, unknown>, args, ...settle };
    return { work: (tx) => unit.run(tx, args()), ...settle };
  }

  /** Puts the riders at the end of the queue; `andFlush` when no batch is about to take it. */
  #boardRiders(andFlush: boolean): void {
    clearTimeout(this.#ridersDue);
    this.#ridersDue = undefined;
    if (this.#riders.length === 0) return;
    this.#queue.push(...this.#riders);
    this.#riders = [];
    if (andFlush) this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled || this.#flushing) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      this.#flushing = this.#flush().finally(() => {
        this.#flushing = undefined;
        if (this.#queue.length > 0) this.#scheduleFlush();
      });
    });
  }

  /**
   * Runs what is queued now: its consecutive named units on the writer thread, its closures
   * here, one part after the other in queue order.
   *
   * The writer thread gets the next batch while it still runs the one before
   * (`batchesInFlight`), so it starts it as soon as that one is committed instead of waiting
   * for this thread to hear of the commit and send more: it runs its messages in the order
   * sent, so the units still commit in queue order. The queue is taken once a batch may be
   * sent: what arrives meanwhile goes with it. Closures wait until every batch sent is
   * answered: this connection's BEGIN IMMEDIATE would otherwise wait for the thread's lock.
   */
  async #flush(): Promise<void> {
    if (this.#writer) await this.#batchesBelow(batchesInFlight);
    this.#boardRiders(false);
    const batch = this.#queue;
    this.#queue = [];
    for (let start = 0; start < batch.length; ) {
      const onThread = (batch[start] as QueuedWork).unit !== undefined;
      let end = start + 1;
      while (end < batch.length && ((batch[end] as QueuedWork).unit !== undefined) === onThread) end += 1;
      const part = batch.slice(start, end);
      if (onThread) this.#send(part);
      else {
        await this.#batchesBelow(1);
        await this.#runHere(part);
      }
      start = end;
    }
  }

  /** Sends a batch to the writer thread; its units are settled when it answers. */
  #send(part: QueuedWork[]): void {
    this.#batchesInFlight += 1;
    this.#runOnThread(part)
      // It settles every unit itself; should it throw after all, no caller is left waiting.
      .catch((error: unknown) => {
        for (const unit of part) unit.reject(error);
      })
      .finally(() => {
        this.#batchesInFlight -= 1;
        for (const answered of this.#batchAnswered.splice(0)) answered();
      });
  }

  /** Resolves once fewer than `count` batches are on the writer thread. */
  async #batchesBelow(count: number): Promise<void> {
    while (this.#batchesInFlight >= count) {
      await new Promise<void>((resolve) => this.#batchAnswered.push(resolve));
    }
  }

  /** Named units, as one transaction of the writer thread. */
  async #runOnThread(batch: QueuedWork[]): Promise<void> {
    const writer = this.#writer as SqliteThread;
    let reply: ThreadReply;
    try {
      reply = await writer.runBatch(
        batch.map(({ unit, args }) => ({ ...refOf(unit as Unit<unknown, unknown>), args: args?.() })),
      );
    } catch (error) {
      for (const unit of batch) unit.reject(error);
      return;
    }
    if (!('outcomes' in reply)) {
      const error = errorFromData('failed' in reply ? reply.failed : unexpected(reply));
      for (const unit of batch) unit.reject(error);
      return;
    }
    this.#committed();
    reply.outcomes.forEach((outcome, i) => {
      const unit = batch[i] as QueuedWork;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(errorFromData(outcome.error));
    });
  }

  /** Closures, as one transaction of this thread's connection. */
  async #runHere(batch: QueuedWork[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await runGroup(this.#group, batch, (unit) =>
        (unit.work as (tx: Tx) => Promise<unknown>)(this.#tx),
      );
    } catch (error) {
      for (const unit of batch) unit.reject(error);
      return;
    }
    this.#committed();
    batch.forEach((unit, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }

  /**
   * Runs read-only `work` against one consistent snapshot of committed data, on a connection of
   * its own while it runs. A read started inside another has a snapshot of its own.
   */
  async read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const reader = this.#idleReaders.pop() ?? this.#newReader();
    this.#readsRunning += 1;
    try {
      reader.begin.run();
      try {
        return await work(reader.tx);
      } finally {
        reader.commit.run();
      }
    } finally {
      // One left inside a transaction (its COMMIT failed) would refuse the next BEGIN.
      const reuse = this.#idleReaders.length < idleReadersKept && !reader.db.inTransaction;
      if (reuse) this.#idleReaders.push(reader);
      else reader.db.close();
      this.#readEnded();
    }
  }

  /**
   * Runs a named unit read-only on one snapshot of committed data, like `read`: on the reader
   * thread when there is one, so its statements and rows cost the event loop only the copy of
   * the result.
   */
  async view<A, R>(unit: Unit<A, R>, args: A): Promise<R> {
    if (!this.#reader) return this.read((tx) => unit.run(tx, args));
    this.#readsRunning += 1;
    try {
      const reply = await this.#reader.read({ ...refOf(unit), args });
      if (!('outcome' in reply)) throw errorFromData('failed' in reply ? reply.failed : unexpected(reply));
      if (!reply.outcome.ok) throw errorFromData(reply.outcome.error);
      return reply.outcome.value as R;
    } finally {
      this.#readEnded();
    }
  }

  #readEnded(): void {
    this.#readsRunning -= 1;
    if (this.#readsRunning === 0) for (const ended of this.#readsEnded.splice(0)) ended();
  }

  #newReader(): Reader {
    const db = this.#openReader();
    return {
      db,
      tx: repositories(sqliteConnection(db), this.#box),
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
      keyVersion: db.prepare('SELECT version FROM key_changes WHERE id = 1').pluck(),
    };
  }

  /**
   * The key_changes counter (migration 008), moved by a trigger on every key update, from any
   * process. Read on an idle reader, in autocommit, so it sees the last commit: a reader inside a
   * read could have a snapshot older than the last key change.
   *
   * Read once per turn of the event loop: the requests authenticated in one turn share the
   * read (each is a read transaction, with its locks on the WAL index: docs/performance.md). A key changed by another process is therefore refused from the
   * next turn on, a millisecond or so under load, no later than a request already past its
   * authentication finishes; a key changed through this store, at once: every commit here
   * forgets the turn's value.
   */
  keysVersion(): number | null {
    if (this.#keysVersionThisTurn !== undefined) return this.#keysVersionThisTurn;
    let version: number;
    try {
      let reader = this.#idleReaders.at(-1);
      if (!reader) {
        reader = this.#newReader();
        this.#idleReaders.push(reader);
      }
      version = reader.keyVersion.get() as number;
    } catch {
      return null; // the file cannot be read now: trust no cached key
    }
    this.#keysVersionThisTurn = version;
    setImmediate(() => {
      this.#keysVersionThisTurn = undefined;
    });
    return version;
  }

  /** After a batch committed: the checkpoint thread counts it, and a key may have changed. */
  #committed(): void {
    this.#keysVersionThisTurn = undefined;
    this.#checkpointer?.committed();
  }

  /** Checks the database answers (health check). */
  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  /**
   * Writes the WAL back into the main file and empties it (graceful shutdown; after secrets
   * were sealed, so no old copy stays in the WAL). SQLite answers "busy" instead of failing
   * when another checkpoint is running (the checkpoint thread's, another process's) or a reader
   * still holds an older snapshot: it is tried again, and throws if the WAL cannot be emptied.
   */
  async checkpoint(): Promise<void> {
    // Each attempt waits for readers up to busy_timeout (5 s), not for another checkpoint.
    const giveUpAt = Date.now() + 10_000;
    for (;;) {
      await this.#idle();
      const [result] = this.#db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      if (result?.busy === 0) return;
      if (Date.now() >= giveUpAt) throw new Error('could not empty the WAL: another connection kept it busy');
      await sleep(10);
    }
  }

  /** Rebuilds the file without its free pages (after secrets were sealed on upgrade). */
  async vacuum(): Promise<void> {
    await this.#idle();
    this.#db.exec('VACUUM');
  }

  /** Closes the connections once the work queued so far is answered. */
  async close(): Promise<void> {
    await this.#idle();
    await Promise.all([this.#writer?.stop(), this.#reader?.stop()]);
    await this.#checkpointer?.stop();
    for (const reader of this.#idleReaders.splice(0)) reader.db.close();
    this.#db.close();
  }

  /** Resolves once no batch is queued or running and the reads running now have ended. */
  async #idle(): Promise<void> {
    this.#boardRiders(true);
    while (this.#flushing || this.#flushScheduled || this.#batchesInFlight > 0) {
      if (this.#flushing) await this.#flushing;
      else if (this.#batchesInFlight > 0) await this.#batchesBelow(1);
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
    while (this.#readsRunning > 0) await new Promise<void>((resolve) => this.#readsEnded.push(resolve));
  }
}

/** A reply of the wrong kind (a bug of thread-program.ts), said as an error. */
function unexpected(reply: ThreadReply): ErrorData {
  return {
    name: 'Error',
    message: `unexpected answer from a SQLite thread: ${Object.keys(reply).join(', ')}`,
    fields: {},
  };
}
