import type { Tx } from './repositories/index.js';
import type { Unit } from './unit.js';

export type { Tx };

/**
 * The storage boundary, the only way the domain reaches the database. Every entry point is
 * async and every repository call returns a promise, so SQLite (`sqlite/store.ts`) and
 * PostgreSQL (`postgres/store.ts`) answer the same calls (docs/decisions/0003-storage-boundary.md).
 */
/** A counting window: how many requests it counted, and since when. */
export interface Window {
  count: number;
  startedAt: number;
}

/**
 * Request counters that every instance on the database shares (the rate limits), on PostgreSQL.
 * SQLite has none: one process serves a file, and its limits count in memory.
 */
export interface SharedCounters {
  /** Counts one request of `key` in its current window (a new one when the last ended). */
  hit(key: string, now: number, windowMs: number): Promise<Window>;
  /** The current window of `key`, counting nothing; undefined when none is running. */
  peek(key: string, now: number, windowMs: number): Promise<Window | undefined>;
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Units of work queued one after another also run and commit in that order (SQLite's group
   * commit). False where they run side by side (PostgreSQL): a unit queued after another may
   * then read before the other commits, and a caller that needs its effect must await it first.
   */
  readonly unitsRunInQueueOrder: boolean;
  /** Counters shared by every instance (PostgreSQL); null where limits count in memory (SQLite). */
  readonly counters: SharedCounters | null;
  /**
   * A number that changes whenever an API key changes (a rotation, a revocation, an operator's
   * reset), in this process or in any other on the same database; null when that cannot be
   * known right now (PostgreSQL's listener is reconnecting). A cache of verified keys trusts an
   * entry only while this is the number it read before looking the key up
   * (server/domain/verified-keys.ts). Synchronous and cheap: it is asked on every request.
   */
  keysVersion(): number | null;
  /**
   * The write path: runs a unit of work (server/storage/unit.ts) as one transaction (all or
   * nothing) and resolves after the commit that made it durable. The engine alone decides where:
   * SQLite on its writer thread (its statements and disk sync off the event loop; `args` and the
   * result copied there and back), in queue order; PostgreSQL in place, as a SERIALIZABLE
   * transaction that may run again after losing a race, so a unit has no effect outside `tx`
   * (docs/decisions/0021-one-write-path.md). Server code writes through this alone (the domain
   * through `write`, server/domain/write.ts).
   */
  run<A, R>(unit: Unit<A, R>, args: A): Promise<R>;
  /**
   * Runs `work` as one transaction, like `run`, but as a closure on the calling thread. For
   * tests and tools that arrange rows directly; never used by server code (`npm run lint`
   * refuses it outside server/storage/).
   */
  transact<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs a named unit as one transaction that need not be durable at once: bookkeeping written
   * after the answer was sent (the call log). On SQLite it joins the next batch of units, after
   * them, so it pays no disk sync of its own and never holds a batch back by more than its own
   * statements; when no batch comes, one starts after `maxDelayMs`. Its `args` are taken when it
   * boards that batch, so they can carry what was recorded until then. On PostgreSQL it runs
   * after `maxDelayMs`. Resolves after its commit, like `run`.
   */
  runSoon<A, R>(unit: Unit<A, R>, args: () => A, maxDelayMs: number): Promise<R>;
  /**
   * Runs a named unit read-only on one consistent snapshot of committed data, like `read`.
   * SQLite runs it on its reader thread, where the statements and the rows it reads cost the
   * event loop nothing but the copy of the result; PostgreSQL runs it in place.
   */
  view<A, R>(unit: Unit<A, R>, args: A): Promise<R>;
  /** Read-only work on one consistent snapshot of committed data. */
  read<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Checks the database answers (health check). */
  ping(): Promise<void>;
  /** Shutdown housekeeping (SQLite: WAL checkpoint; PostgreSQL: nothing). */
  checkpoint(): Promise<void>;
  /** Rebuilds storage without free pages (SQLite VACUUM; PostgreSQL: VACUUM FULL of the secret-bearing tables or nothing). */
  vacuum(): Promise<void>;
  close(): Promise<void>;
}
