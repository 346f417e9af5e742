import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Statement } from 'better-sqlite3';
import { repositories } from '../repositories/index.js';
import type { SecretBox } from '../secret-box.js';
import type { Store, Tx } from '../store.js';
import type { Checkpointer } from './checkpointer.js';
import { sqliteConnection } from './connection.js';
import type { Db } from './database.js';

interface QueuedWork {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Marks the async context of one read while it runs, so a read started inside it joins it. */
interface ReadScope {
  open: boolean;
}

/**
 * The SQLite store: writes on one connection inside `BEGIN IMMEDIATE`, which is what makes every
 * money movement atomic and keeps two processes on the same file from interleaving; reads on a
 * second, read-only connection (docs/decisions/0003-storage-boundary.md).
 *
 * Writes are group-committed: the units of work queued during one turn of the event loop run
 * one after the other, each in its own savepoint, inside a single transaction, and nobody is
 * answered before its COMMIT. Each unit still commits or rolls back as a whole, but the disk
 * sync that `synchronous=FULL` makes every commit wait for is paid once per batch instead of
 * once per request (docs/benchmarks.md measured it as the largest cost of a POST). A unit is
 * awaited before the next starts; it awaits only repository calls, whose promises SQLite has
 * already settled, so the batch holds the write lock about as briefly as synchronous work did.
 * Units queued while a batch runs wait for the next one.
 *
 * Since a unit yields between its statements, a read on the writer's connection could see a
 * batch's uncommitted writes: reads have their own connection, on which WAL shows the last
 * commit. They run one at a time, each in its own deferred transaction (one snapshot).
 */
export class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly unitsRunInQueueOrder = true;
  /** One process serves the file: the rate limits count in memory. */
  readonly counters = null;
  readonly #db: Db;
  readonly #reader: Db;
  readonly #tx: Tx;
  readonly #readTx: Tx;
  readonly #statements: Record<
    'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit' | 'rollback',
    Statement
  >;
  readonly #readStatements: Record<'begin' | 'commit', Statement>;
  /** A third connection, in autocommit: each read of the key version sees the last commit. */
  readonly #keyChanges: Db;
  readonly #keyVersion: Statement;
  #queue: QueuedWork[] = [];
  /** Units that ride with the next batch (`transactSoon`), and the timer that starts one for them. */
  #riders: QueuedWork[] = [];
  #ridersDue: NodeJS.Timeout | undefined;
  #flushScheduled = false;
  /** The batch running now, if any. */
  #flushing: Promise<void> | undefined;
  /** The last read queued: the next starts once it settled. */
  #reads: Promise<unknown> = Promise.resolve();
  readonly #readScope = new AsyncLocalStorage<ReadScope>();
  readonly #checkpointer: Checkpointer | undefined;

  /**
   * @param db the writer's connection, on a migrated file (`openDatabase`)
   * @param reader a read-only connection to the same file (`openReadConnection`)
   * @param keyChanges another read-only connection, for `keysVersion` alone: the reader's may
   *   be inside a read transaction, whose snapshot could be older than the last key change
   * @param checkpointer copies the WAL into the file off the event loop; told of every commit
   */
  constructor(db: Db, reader: Db, keyChanges: Db, box: SecretBox, checkpointer?: Checkpointer) {
    this.#checkpointer = checkpointer;
    this.#db = db;
    this.#reader = reader;
    this.#keyChanges = keyChanges;
    this.#keyVersion = keyChanges.prepare('SELECT version FROM key_changes WHERE id = 1').pluck();
    this.#tx = repositories(sqliteConnection(db), box);
    this.#readTx = repositories(sqliteConnection(reader), box);
    this.#statements = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      savepoint: db.prepare('SAVEPOINT unit_of_work'),
      release: db.prepare('RELEASE unit_of_work'),
      rollbackTo: db.prepare('ROLLBACK TO unit_of_work'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
    this.#readStatements = { begin: reader.prepare('BEGIN'), commit: reader.prepare('COMMIT') };
  }

  /**
   * Runs `work` as one unit: all of it commits, or none of it (it threw). Resolves after the
   * commit that made it durable.
   */
  transact<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#scheduleFlush();
    });
  }

  /**
   * Runs `work` as a unit of the next batch, after that batch's other units; when none starts
   * within `maxDelayMs`, a batch starts for it.
   */
  transactSoon<T>(work: (tx: Tx) => Promise<T>, maxDelayMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#riders.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#ridersDue ??= setTimeout(() => this.#boardRiders(true), maxDelayMs);
    });
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
    // Outside any read's context: a unit of work is never part of the read that queued it.
    this.#readScope.exit(() =>
      setImmediate(() => {
        this.#flushScheduled = false;
        this.#flushing = this.#flush().finally(() => {
          this.#flushing = undefined;
          if (this.#queue.length > 0) this.#scheduleFlush();
        });
      }),
    );
  }

  async #flush(): Promise<void> {
    this.#boardRiders(false);
    const batch = this.#queue;
    this.#queue = [];
    const { begin, savepoint, release, rollbackTo, commit, rollback } = this.#statements;
    const outcomes: Outcome[] = [];
    try {
      begin.run();
      for (const unit of batch) {
        savepoint.run();
        try {
          const value = await unit.work(this.#tx);
          release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          try {
            rollbackTo.run();
            release.run();
          } catch {
            // SQLite already rolled the whole transaction back (a full disk, an I/O error):
            // the batch fails with the unit's own error, which says what happened.
            throw error;
          }
          outcomes.push({ ok: false, error });
        }
      }
      commit.run();
      this.#checkpointer?.committed();
    } catch (error) {
      // BEGIN or COMMIT failed (locked, read-only, full disk): nothing of the batch is stored.
      try {
        if (this.#db.inTransaction) rollback.run();
      } finally {
        for (const unit of batch) unit.reject(error);
      }
      return;
    }
    batch.forEach((unit, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }

  /**
   * Runs read-only `work` against one consistent snapshot of committed data. A read started
   * inside another one (while it runs) shares its snapshot instead of waiting for it to end.
   */
  async read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    if (this.#readScope.getStore()?.open) return work(this.#readTx);
    const result = this.#reads.then(() => this.#readOnce(work));
    this.#reads = result.catch(() => undefined);
    return result;
  }

  async #readOnce<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const scope: ReadScope = { open: true };
    const { begin, commit } = this.#readStatements;
    begin.run();
    try {
      return await this.#readScope.run(scope, () => work(this.#readTx));
    } finally {
      scope.open = false;
      commit.run();
    }
  }

  /** The key_changes counter (migration 008), moved by a trigger on every key update, from any process. */
  keysVersion(): number | null {
    try {
      return this.#keyVersion.get() as number;
    } catch {
      return null; // the file cannot be read now: trust no cached key
    }
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
    await this.#checkpointer?.stop();
    this.#keyChanges.close();
    this.#reader.close();
    this.#db.close();
  }

  /** Resolves once no batch is queued or running and the reads queued so far have ended. */
  async #idle(): Promise<void> {
    this.#boardRiders(true);
    while (this.#flushing || this.#flushScheduled) {
      await (this.#flushing ?? new Promise<void>((resolve) => setImmediate(resolve)));
    }
    await this.#reads;
  }
}
