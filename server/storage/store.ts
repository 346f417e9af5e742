import type { Db } from './database.js';
import { createPager } from './pagination.js';
import { accountsRepository } from './repositories/accounts.js';
import { eventsRepository } from './repositories/events.js';
import { idempotencyRepository } from './repositories/idempotency.js';
import { ledgerRepository } from './repositories/ledger.js';
import { logsRepository } from './repositories/logs.js';
import { paymentsRepository } from './repositories/payments.js';
import { payoutsRepository } from './repositories/payouts.js';
import { servicesRepository } from './repositories/services.js';
import { topupsRepository } from './repositories/topups.js';

function repositories(db: Db) {
  const page = createPager(db);
  return {
    accounts: accountsRepository(db, page),
    ledger: ledgerRepository(db, page),
    services: servicesRepository(db, page),
    payments: paymentsRepository(db, page),
    payouts: payoutsRepository(db, page),
    topups: topupsRepository(db, page),
    events: eventsRepository(db, page),
    idempotency: idempotencyRepository(db),
    logs: logsRepository(db, page),
  };
}

/** The repositories, usable inside one transaction (`Store.transact`) or for single reads. */
export type Tx = ReturnType<typeof repositories>;

/**
 * The storage boundary, the only place with SQL. Its entry points are async so a PostgreSQL
 * implementation can replace it; with SQLite the work inside runs synchronously in one
 * `BEGIN IMMEDIATE` transaction, which is what makes every money movement atomic and keeps
 * two processes on the same file from interleaving (docs/decisions/0003-storage-boundary.md).
 */
export class Store {
  readonly #db: Db;
  readonly #tx: Tx;

  constructor(db: Db) {
    this.#db = db;
    this.#tx = repositories(db);
  }

  /** Runs `work` in one write transaction: all of it commits, or none of it (it threw). */
  async transact<T>(work: (tx: Tx) => T): Promise<T> {
    return this.#db.transaction(() => work(this.#tx)).immediate();
  }

  /** Runs read-only `work` against one consistent snapshot. */
  async read<T>(work: (tx: Tx) => T): Promise<T> {
    return this.#db.transaction(() => work(this.#tx)).deferred();
  }

  /** Checks the database answers (health check). */
  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  /** Writes the WAL back into the main file; used on graceful shutdown. */
  checkpoint(): void {
    this.#db.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    this.#db.close();
  }
}
