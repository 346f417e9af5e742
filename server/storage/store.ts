import type { Tx } from './repositories/index.js';

export type { Tx };

/**
 * The storage boundary, the only way the domain reaches the database. Every entry point is
 * async and every repository call returns a promise, so SQLite (`sqlite/store.ts`) and
 * PostgreSQL (`postgres/store.ts`) answer the same calls (docs/decisions/0003-storage-boundary.md).
 */
export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  /** Runs work as one transaction (all or nothing); resolves after the commit that made it durable. On PostgreSQL work may be re-run after a serialization failure, so it must have no effect outside tx. */
  transact<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
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
