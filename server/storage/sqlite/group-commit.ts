import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A write connection with the statements of a group commit, prepared once. */
export interface GroupCommit {
  db: Db;
  statements: Record<'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit' | 'rollback', Statement>;
}

export function groupCommit(db: Db): GroupCommit {
  return {
    db,
    statements: {
      begin: db.prepare('BEGIN IMMEDIATE'),
      savepoint: db.prepare('SAVEPOINT unit_of_work'),
      release: db.prepare('RELEASE unit_of_work'),
      rollbackTo: db.prepare('ROLLBACK TO unit_of_work'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    },
  };
}

/**
 * Runs the units one after the other, each in its own savepoint, inside one
 * `BEGIN IMMEDIATE ... COMMIT` (docs/decisions/0003-storage-boundary.md): a unit that throws is
 * rolled back to its savepoint alone and its outcome is its error; the others commit. Resolves
 * with one outcome per unit once the COMMIT is durable. Throws, with nothing of the batch stored,
 * when BEGIN or COMMIT fails (locked, read-only, full disk) or a unit's failure took the whole
 * transaction with it (SQLite rolls back by itself on a full disk or an I/O error; the unit's own
 * error then says what happened).
 *
 * Used by the writer thread, and by a store without threads (the command-line tools) in place.
 */
export async function runGroup<U>(
  group: GroupCommit,
  units: U[],
  run: (unit: U, index: number) => Promise<unknown>,
): Promise<Outcome[]> {
  const { begin, savepoint, release, rollbackTo, commit, rollback } = group.statements;
  const outcomes: Outcome[] = [];
  try {
    begin.run();
    for (let index = 0; index < units.length; index++) {
      savepoint.run();
      try {
        const value = await run(units[index] as U, index);
        release.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        try {
          rollbackTo.run();
          release.run();
        } catch {
          throw error;
        }
        outcomes.push({ ok: false, error });
      }
    }
    commit.run();
  } catch (error) {
    try {
      if (group.db.inTransaction) rollback.run();
    } catch {
      // The connection itself failed: the caller's error says why, and the next BEGIN again.
    }
    throw error;
  }
  return outcomes;
}
