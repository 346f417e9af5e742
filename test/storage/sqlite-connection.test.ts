/**
 * The SQLite seam builds row objects itself from the driver's arrays: every column, by its name,
 * whatever the name, with the values SQLite stored. It hands SQLite bound LIMITs it does not plan
 * with, so those statements are not prepared again on every run.
 */
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sqliteConnection, unplannedLimits } from '../../server/storage/sqlite/connection.js';

describe('sqliteConnection rows', () => {
  let connection: ReturnType<typeof sqliteConnection>;
  beforeEach(() => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE t (seq INTEGER PRIMARY KEY, name TEXT, amount INTEGER, ratio REAL, data BLOB, gone TEXT);
      INSERT INTO t (name, amount, ratio, data, gone) VALUES ('one', 2500, 1.5, x'00ff', NULL), ('two', -1, 0, NULL, 'x');`);
    connection = sqliteConnection(db);
  });

  it('gives every column by name, with its value as stored', async () => {
    const rows = await connection.prepare('SELECT * FROM t ORDER BY seq').all();
    expect(rows).toEqual([
      { seq: 1, name: 'one', amount: 2500, ratio: 1.5, data: Buffer.from([0, 255]), gone: null },
      { seq: 2, name: 'two', amount: -1, ratio: 0, data: null, gone: 'x' },
    ]);
    expect(await connection.prepare('SELECT * FROM t WHERE seq = ?').get(3)).toBeUndefined();
  });

  it('returns the row an INSERT ... RETURNING wrote; for a plain write, its changes and last rowid', async () => {
    const inserted = await connection
      .prepare("INSERT INTO t (name) VALUES ('three') RETURNING seq, name")
      .get();
    expect(inserted).toEqual({ seq: 3, name: 'three' });
    const four = await connection.prepare("INSERT INTO t (name) VALUES ('four')").run();
    expect(four).toEqual({ changes: 1, lastInsertRowid: 4 });
    const updated = await connection.prepare('UPDATE t SET amount = 1 WHERE seq > ?').run(1);
    expect(updated.changes).toBe(3);
  });

  it('keeps names that are not identifiers as they are, and never sets a prototype', async () => {
    const row = (await connection
      .prepare(`SELECT 1 AS "a""b", 2 AS "x y", 3 AS "__proto__", 4 AS "constructor"`)
      .get()) as Record<string, unknown>;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.entries(row)).toEqual([
      ['a"b', 1],
      ['x y', 2],
      ['__proto__', 3],
      ['constructor', 4],
    ]);
  });

  it('with a name twice, the last column wins, as the driver did', async () => {
    expect(await connection.prepare('SELECT 1 AS n, 2 AS n').get()).toEqual({ n: 2 });
  });
});

describe('sqliteConnection bound limits', () => {
  it('spells every bound LIMIT with a unary plus, and nothing else', () => {
    expect(unplannedLimits('SELECT * FROM t ORDER BY seq DESC LIMIT ?')).toBe(
      'SELECT * FROM t ORDER BY seq DESC LIMIT +?',
    );
    expect(unplannedLimits('SELECT id FROM d WHERE a = @a ORDER BY b, seq\n      limit @limit')).toBe(
      'SELECT id FROM d WHERE a = @a ORDER BY b, seq\n      limit +@limit',
    );
    expect(
      unplannedLimits('DELETE FROM l WHERE seq IN (SELECT seq FROM l WHERE c < ? ORDER BY c LIMIT ?)'),
    ).toBe('DELETE FROM l WHERE seq IN (SELECT seq FROM l WHERE c < ? ORDER BY c LIMIT +?)');
    for (const unchanged of [
      'SELECT 1 FROM t LIMIT 1',
      'SELECT limit_at FROM t WHERE x = ?',
      'SELECT ? AS nolimit',
    ]) {
      expect(unplannedLimits(unchanged)).toBe(unchanged);
    }
  });

  it('prepares that spelling, and a bound limit still limits, whatever is bound from one run to the next', async () => {
    const db = new Database(':memory:');
    db.exec(
      'CREATE TABLE t (seq INTEGER PRIMARY KEY, v TEXT); INSERT INTO t (v) VALUES (1), (2), (3), (4), (5);',
    );
    const prepare = vi.spyOn(db, 'prepare');
    const connection = sqliteConnection(db);
    const positional = connection.prepare<{ seq: number }>(
      'SELECT seq FROM t WHERE seq > ? ORDER BY seq LIMIT ?',
    );
    const named = connection.prepare<{ seq: number }>('SELECT seq FROM t ORDER BY seq DESC LIMIT @limit');
    const seqs = (rows: { seq: number }[]) => rows.map((row) => row.seq);
    expect(seqs(await positional.all(1, 2))).toEqual([2, 3]);
    expect(seqs(await named.all({ limit: 2 }))).toEqual([5, 4]);
    expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([
      'SELECT seq FROM t WHERE seq > ? ORDER BY seq LIMIT +?',
      'SELECT seq FROM t ORDER BY seq DESC LIMIT +@limit',
    ]);
    expect(seqs(await positional.all(0, 0))).toEqual([]);
    expect(seqs(await positional.all(2, 10))).toEqual([3, 4, 5]);
    expect(seqs(await named.all({ limit: 1 }))).toEqual([5]);
    expect(seqs(await named.all({ limit: 3 }))).toEqual([5, 4, 3]);
    // A negative limit is no limit, as in SQLite.
    expect(seqs(await named.all({ limit: -1 }))).toEqual([5, 4, 3, 2, 1]);
  });
});

describe('sqliteConnection preparation', () => {
  it('prepares a statement when it first runs, once per text, so a store that never runs one pays nothing for it', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (seq INTEGER PRIMARY KEY, v TEXT)');
    const prepare = vi.spyOn(db, 'prepare');
    const connection = sqliteConnection(db);
    const insert = connection.prepare('INSERT INTO t (v) VALUES (?)');
    const count = connection.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM t');
    const countAgain = connection.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM t');
    connection.prepare('DELETE FROM t');
    expect(prepare).not.toHaveBeenCalled();

    await insert.run('a');
    await insert.run('b');
    expect(await count.get()).toEqual({ n: 2 });
    expect(await countAgain.get()).toEqual({ n: 2 });
    // One preparation per text: the DELETE never ran, the two counts share one statement.
    expect(prepare.mock.calls.map(([sql]) => sql)).toEqual([
      'INSERT INTO t (v) VALUES (?)',
      'SELECT COUNT(*) AS n FROM t',
    ]);
  });

  it('answers an SQL error as a rejected call when the statement runs, every time it runs', async () => {
    const db = new Database(':memory:');
    const connection = sqliteConnection(db);
    const broken = connection.prepare('SELECT * FROM no_such_table');
    await expect(broken.all()).rejects.toThrow(/no such table: no_such_table/);
    // Not remembered as prepared: once the table exists, the same statement runs.
    db.exec('CREATE TABLE no_such_table (x INTEGER); INSERT INTO no_such_table VALUES (7)');
    expect(await broken.all()).toEqual([{ x: 7 }]);
  });
});
