import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { repositories } from '../repositories/index.js';
import type { SecretBox } from '../secret-box.js';
import type { SharedCounters, Store, Tx } from '../store.js';
import type { Unit } from '../unit.js';
import { checkout, type HeldClient } from './checkout.js';
import { postgresConnection } from './connection.js';
import { postgresCounters } from './counters.js';
import { KeyChangesListener } from './key-changes.js';
import { migratePostgres } from './migrate.js';

/**
 * The transaction lost a race and may simply run again: serialization failure (40001), deadlock
 * (40P01; none between units that lock their balances in order, but a tool or an operator's
 * statement may still meet one), and a lock not obtained within a `lock_timeout` a deployment
 * may set (55P03).
 */
const retryableCodes = new Set(['40001', '40P01', '55P03']);
const defaultStatementTimeoutMs = 10_000;
const defaultApplicationName = 'momo-payments-api';

export interface PostgresStoreOptions {
  /** Most connections the pool opens (default 10). */
  poolSize?: number;
  /**
   * Longest a single statement may run before the server cancels it, in ms (default 10 000); also
   * how long a unit of work that keeps losing races is run again before it gives up (a 503).
   */
  statementTimeoutMs?: number;
  /** Shown in `pg_stat_activity` (default 'momo-payments-api'). */
  applicationName?: string;
  /** Told of errors on idle pooled connections (the server restarted, the network dropped). */
  onError?: (error: Error) => void;
}

/** The options of `openPostgresStore`: where the database is, and what seals secrets. */
export interface OpenPostgresStoreOptions extends PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  box: SecretBox;
}

/**
 * The storage boundary on PostgreSQL. Every unit of work checks out its own pooled connection,
 * so units run side by side, each in a SERIALIZABLE transaction: the database, not a single
 * writer, keeps two of them from interleaving. One that loses such a race (serialization failure,
 * deadlock, lock timeout) is rolled back and run again from the start after a short random
 * pause, within the statement timeout's budget; every other error rolls back and reaches the
 * caller unchanged (a unique violation, 23505, is how the domain learns of a duplicate).
 *
 * @example
 * const store = await openPostgresStore({ url: process.env.DATABASE_URL, box });
 * const account = await store.read((tx) => tx.accounts.account('acc_123'));
 */
export class PostgresStore implements Store {
  readonly engine = 'postgres' as const;
  readonly unitsRunInQueueOrder = false;
  readonly counters: SharedCounters;
  readonly #pool: pg.Pool;
  readonly #box: SecretBox;
  readonly #keyChanges: KeyChangesListener;
  readonly #retryBudgetMs: number;

  constructor(
    pool: pg.Pool,
    box: SecretBox,
    keyChanges: KeyChangesListener,
    retryBudgetMs = defaultStatementTimeoutMs,
  ) {
    this.#pool = pool;
    this.#box = box;
    this.#keyChanges = keyChanges;
    this.#retryBudgetMs = retryBudgetMs;
    this.counters = postgresCounters(pool);
  }

  keysVersion(): number | null {
    return this.#keyChanges.version();
  }

  /**
   * Runs `work` as one SERIALIZABLE transaction and resolves after its COMMIT. `work` may run
   * more than once (after a serialization failure), so it must have no effect outside `tx`.
   */
  async transact<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let keysChanged = false;
    const value = await serializableTransaction(
      this.#pool,
      (client) => work(this.#tx(client, () => (keysChanged = true))),
      this.#retryBudgetMs,
    );
    // This instance's own key changes count at once, not when their notification comes back.
    if (keysChanged) this.#keyChanges.bump();
    return value;
  }

  /** A named unit runs in place, as a closure would. */
  run<A, R>(unit: Unit<A, R>, args: A): Promise<R> {
    return this.transact((tx) => unit.run(tx, args));
  }

  /** There is no batch to join: every unit commits on its own connection. */
  async runSoon<A, R>(unit: Unit<A, R>, args: () => A, maxDelayMs: number): Promise<R> {
    await sleep(maxDelayMs);
    return this.run(unit, args());
  }

  /** A named read runs in place, as a closure would. */
  view<A, R>(unit: Unit<A, R>, args: A): Promise<R> {
    return this.read((tx) => unit.run(tx, args));
  }

  /** Runs read-only `work` on one snapshot of committed data (REPEATABLE READ, READ ONLY). */
  read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return readOnlyTransaction(this.#pool, (client) => work(this.#tx(client)));
  }

  /** Cheap: preparing a statement only looks its converted text up. */
  #tx(client: pg.PoolClient, onKeysChanged?: () => void): Tx {
    return repositories(postgresConnection(client), this.#box, onKeysChanged);
  }

  /** Checks the database answers (health check). */
  async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
  }

  /** Nothing to do: PostgreSQL writes its WAL back by itself, and on shutdown. */
  async checkpoint(): Promise<void> {}

  /**
   * Nothing to do. On SQLite this rewrites the file after secrets stored in clear by an older
   * version were sealed in place; a PostgreSQL database is only ever written by versions that
   * seal secrets before they reach it, so it holds no such old copies. (A plain VACUUM would not
   * erase them anyway, and VACUUM FULL locks the tables it rewrites.)
   */
  async vacuum(): Promise<void> {}

  /** Closes every pooled connection, after the units of work in progress end. */
  async close(): Promise<void> {
    await this.#keyChanges.close();
    await this.#pool.end();
  }
}

/**
 * Creates the connection pool, brings the schema up to date (`migratePostgres`) and returns the
 * store. The pool is closed again if migrating fails.
 *
 * @example
 * const store = await openPostgresStore({ url: 'postgres://payments@db.internal/payments', box });
 */
export async function openPostgresStore(options: OpenPostgresStoreOptions): Promise<PostgresStore> {
  const pool = createPool(options.url, options);
  const keyChanges = new KeyChangesListener(options.url, options.applicationName ?? defaultApplicationName);
  try {
    await migratePostgres(pool);
    await keyChanges.start();
  } catch (error) {
    await keyChanges.close();
    await pool.end();
    throw error;
  }
  return new PostgresStore(pool, options.box, keyChanges, options.statementTimeoutMs);
}

/**
 * A pool whose every connection carries the statement timeout and application name. Idle
 * connections that fail are dropped by the pool; without a listener their error would end
 * the process.
 */
export function createPool(url: string, options: PostgresStoreOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    statement_timeout: options.statementTimeoutMs ?? defaultStatementTimeoutMs,
    application_name: options.applicationName ?? defaultApplicationName,
  });
  pool.on('error', options.onError ?? (() => {}));
  return pool;
}

/**
 * Runs `work` on a pooled connection inside one SERIALIZABLE transaction, again from the start,
 * after a short random pause, when it lost a race (`retryableCodes`), for as long as `budgetMs`
 * since its first attempt allows; then the race's error goes up as it is (the API's 503 with
 * Retry-After: server/http/error-handler.ts). Any other error is rethrown at once, after ROLLBACK.
 *
 * A unit that waited for a balance row another one held loses as soon as that one commits (its
 * snapshot is older than the row): the pause is short, so it runs again while the row is free.
 *
 * @example
 * await serializableTransaction(pool, (client) => client.query('UPDATE t SET n = n + 1'));
 */
export async function serializableTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  budgetMs = defaultStatementTimeoutMs,
): Promise<T> {
  // One connection for every attempt: a unit that lost a race runs again at once, instead of
  // queueing for the pool behind the units that came after it.
  const held = await checkout(pool);
  try {
    const giveUpAt = Date.now() + budgetMs;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await transactOn(held, 'BEGIN ISOLATION LEVEL SERIALIZABLE', work);
      } catch (error) {
        if (!isRetryable(error)) throw error;
        // Up to 1 ms, doubling to 32 ms, at random so that the racers do not meet again at once.
        const pause = Math.random() * Math.min(32, 2 ** (attempt - 1));
        if (Date.now() + pause >= giveUpAt) throw error;
        await sleep(pause);
      }
    }
  } finally {
    held.release();
  }
}

/**
 * Runs `work` on a pooled connection inside one REPEATABLE READ, READ ONLY transaction: every
 * statement sees the same snapshot, taken at the first one, of committed data only.
 *
 * @example
 * const { rows } = await readOnlyTransaction(pool, (client) => client.query('SELECT 1'));
 */
export async function readOnlyTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const held = await checkout(pool);
  try {
    return await transactOn(held, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', work);
  } finally {
    held.release();
  }
}

/** One transaction on a held connection: `begin`, `work`, COMMIT, or ROLLBACK and the error. */
async function transactOn<T>(
  held: HeldClient,
  begin: string,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const { client } = held;
  try {
    await client.query(begin);
    const value = await work(client);
    await client.query('COMMIT');
    return value;
  } catch (error) {
    // After a failed BEGIN or COMMIT there is no transaction left, and ROLLBACK only warns. A
    // ROLLBACK that fails means the connection itself broke: it is closed, not reused.
    await client.query('ROLLBACK').catch(() => held.markBroken());
    throw error;
  }
}

function isRetryable(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (retryableCodes.has((cause as { code?: unknown }).code as string)) return true;
  }
  return false;
}
