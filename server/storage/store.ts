import type { Statement, Transaction } from 'better-sqlite3';
import type { Db } from './database.js';
import { createPager } from './pagination.js';
import { accountsRepository } from './repositories/accounts.js';
import { dashboardRepository } from './repositories/dashboard.js';
import { eventsRepository } from './repositories/events.js';
import { idempotencyRepository } from './repositories/idempotency.js';
import { ledgerRepository } from './repositories/ledger.js';
import { logsRepository } from './repositories/logs.js';
import { paymentsRepository } from './repositories/payments.js';
import { payoutsRepository } from './repositories/payouts.js';
import { servicesRepository } from './repositories/services.js';
import { topupsRepository } from './repositories/topups.js';
import type { SecretBox } from './secret-box.js';

function repositories(db: Db, box: SecretBox) {
  const page = createPager(db);
  return {
    accounts: accountsRepository(db, page),
    ledger: ledgerRepository(db, page),
    services: servicesRepository(db, page),
    payments: paymentsRepository(db, page),
    payouts: payoutsRepository(db, page),
    topups: topupsRepository(db, page),
    events: eventsRepository(db, page, box),
    idempotency: idempotencyRepository(db),
    logs: logsRepository(db, page),
    dashboard: dashboardRepository(db, page),
  };
}

/** The repositories, usable inside one transaction (`Store.transact`) or for single reads. */
export type Tx = ReturnType<typeof repositories>;

interface QueuedWork {
  work: (tx: Tx) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The storage boundary, the only place with SQL. Its entry points are async so a PostgreSQL
 * implementation can replace it; with SQLite the work inside runs synchronously inside
 * `BEGIN IMMEDIATE`, which is what makes every money movement atomic and keeps two processes on
 * the same file from interleaving (docs/decisions/0003-storage-boundary.md).
 *
 * Writes are group-committed: the units of work queued during one turn of the event loop run
 * one after the other, each in its own savepoint, inside a single transaction, and nobody is
 * answered before its COMMIT. Each unit still commits or rolls back as a whole, but the disk
 * sync that `synchronous=FULL` makes every commit wait for is paid once per batch instead of
 * once per request (docs/benchmarks.md measured it as the largest cost of a POST).
 */
export class Store {
  readonly #db: Db;
  readonly #tx: Tx;
  /** Built once: better-sqlite3 wraps a function per transaction() call. */
  readonly #readTransaction: Transaction<(work: (tx: Tx) => unknown) => unknown>;
  readonly #statements: Record<
    'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit' | 'rollback',
    Statement
  >;
  #queue: QueuedWork[] = [];
  #flushScheduled = false;

  constructor(db: Db, box: SecretBox) {
    this.#db = db;
    this.#tx = repositories(db, box);
    this.#readTransaction = db.transaction((work: (tx: Tx) => unknown) => work(this.#tx));
    this.#statements = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      savepoint: db.prepare('SAVEPOINT unit_of_work'),
      release: db.prepare('RELEASE unit_of_work'),
      rollbackTo: db.prepare('ROLLBACK TO unit_of_work'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
  }

  /**
   * Runs `work` as one unit: all of it commits, or none of it (it threw). Resolves after the
   * commit that made it durable.
   */
  transact<T>(work: (tx: Tx) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#flushScheduled = false;
    const batch = this.#queue;
    this.#queue = [];
    const { begin, savepoint, release, rollbackTo, commit, rollback } = this.#statements;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      begin.run();
      for (const unit of batch) {
        savepoint.run();
        try {
          const value = unit.work(this.#tx);
          if (value instanceof Promise) throw new Error('Store.transact work must be synchronous');
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
    } catch (error) {
      // BEGIN or COMMIT failed (locked, read-only, full disk): nothing of the batch is stored.
      if (this.#db.inTransaction) rollback.run();
      for (const unit of batch) unit.reject(error);
      return;
    }
    batch.forEach((unit, i) => {
      const outcome = outcomes[i] as (typeof outcomes)[number];
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }

  /** Runs read-only `work` against one consistent snapshot. */
  async read<T>(work: (tx: Tx) => T): Promise<T> {
    return this.#readTransaction.deferred(work) as T;
  }

  /** Checks the database answers (health check). */
  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  /** Writes the WAL back into the main file; used on graceful shutdown. */
  checkpoint(): void {
    this.#db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** Rebuilds the file without its free pages (after secrets were sealed on upgrade). */
  vacuum(): void {
    this.#db.exec('VACUUM');
  }

  close(): void {
    this.#db.close();
  }
}
