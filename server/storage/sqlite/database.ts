import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { projectRoot } from '../../paths.js';

export type Db = Database.Database;

const migrationsDir = join(projectRoot, 'server/storage/sqlite/migrations/');

/**
 * Opens (creating if needed) the SQLite file and brings its schema up to date.
 *
 * WAL lets readers run beside the single writer; `synchronous=FULL` makes every committed
 * movement durable before the API answers; `busy_timeout` lets a second process on the same
 * file wait for the write lock instead of failing at once.
 *
 * @example
 * const db = openDatabase('./data/payments.db');
 */
export function openDatabase(path: string): Db {
  const db = openWriteConnection(path);
  migrateSqlite(db);
  return db;
}

/** How long a process starting on a file waits for another one migrating it. */
const startUpWaitMs = 60_000;
/** What `whileBusy` sleeps on between tries (nothing ever wakes it: it times out). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `step`, again while SQLite answers SQLITE_BUSY without calling its busy handler (it does
 * so for a journal-mode switch or a lock taken while another process's connection is half
 * open), for up to `startUpWaitMs`: what a process opening a file others open does at start-up.
 */
function whileBusy<T>(step: () => T): T {
  const deadline = Date.now() + startUpWaitMs;
  for (;;) {
    try {
      return step();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (!code.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}

/**
 * Opens another write connection to a file `openDatabase` has opened (and migrated), with the
 * same settings: the writer thread's (thread-program.ts).
 */
export function openWriteConnection(path: string): Db {
  const db = new Database(path);
  // First: switching a new file to WAL takes its lock, which another process opening the same
  // file at the same moment may hold (while it migrates the file): it is waited for, as long as
  // a start-up may take on a busy machine, not an error. Then the usual wait for a write lock.
  db.pragma(`busy_timeout = ${startUpWaitMs}`);
  whileBusy(() => db.pragma('journal_mode = WAL'));
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // Deleted and overwritten content is zeroed, not left in free pages where a copy of the file
  // would still show it (docs/decisions/0007-secrets-at-rest.md).
  db.pragma('secure_delete = ON');
  // A group commit runs each unit in a savepoint; SQLite keeps the pages a savepoint may restore
  // in a sub-journal, which spills to a temporary file past 64 KiB: a file created, written and
  // deleted for most batches. In memory, it is bounded by the batch and never needed after a
  // crash (the WAL alone recovers; docs/performance.md).
  db.pragma('temp_store = MEMORY');
  return db;
}

/**
 * Opens a second, read-only connection to a file `openDatabase` has opened (and migrated). In
 * WAL mode its reads see the last commit and never the writes of a transaction still open on
 * the writer's connection.
 *
 * @example
 * const reader = openReadConnection('./data/payments.db');
 */
export function openReadConnection(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * The mark a stored response that revealed a secret leaves when the database forgets it
 * (migrations/009_forget_revealed_responses.sql): the file has free pages to scrub.
 */
export const scrubMark = {
  isSet: (db: Db): boolean => db.prepare('SELECT 1 FROM scrub_pending').get() !== undefined,
  clear: (db: Db): void => {
    db.prepare('DELETE FROM scrub_pending').run();
  },
};

/**
 * Applies the numbered `migrations/NNN_name.sql` files newer than `PRAGMA user_version`, each in
 * its own `BEGIN IMMEDIATE` transaction with the version it brings. The version is read again
 * under that lock: when several processes open a new file at the same moment, each waits for the
 * lock (busy_timeout) and finds what the one before applied, so every migration runs once
 * (docs/decisions/0029-migrations-read-their-version-under-the-lock.md). Returns the versions
 * this call applied; an up-to-date file is only read, never locked (a read-only file stays usable).
 *
 * @example
 * migrateSqlite(openWriteConnection('./data/payments.db')); // [] when up to date
 */
export function migrateSqlite(db: Db): number[] {
  const files = readdirSync(migrationsDir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
  const version = () => db.pragma('user_version', { simple: true }) as number;
  const applied: number[] = [];
  // Another process may hold the lock through several migrations: wait for it as long as a
  // start-up may take, then go back to the usual wait.
  const usualWait = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${startUpWaitMs}`);
  try {
    applyNewer(db, files, version, applied);
  } finally {
    db.pragma(`busy_timeout = ${usualWait}`);
  }
  return applied;
}

function applyNewer(db: Db, files: string[], version: () => number, applied: number[]): void {
  for (const file of files) {
    const target = Number(file.slice(0, 3));
    if (whileBusy(version) >= target) continue;
    const sql = readFileSync(migrationsDir + file, 'utf8');
    whileBusy(() =>
      db
        .transaction(() => {
          if (target <= version()) return; // another process applied it while this one waited
          db.exec(sql);
          db.pragma(`user_version = ${target}`);
          applied.push(target);
        })
        .immediate(),
    );
  }
}
