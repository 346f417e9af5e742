/**
 * Several processes opening one new SQLite file at the same moment (servers and admin commands
 * started together): each migrates it, and every migration must be applied exactly once, by
 * one of them, the others finding it done. Real processes, as `npm start` runs the compiled
 * server, released together once all of them are ready.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSqlite, openDatabase } from '../../server/storage/sqlite/database.js';
import { tempFolder, waitUntil } from '../faults/support/load.js';
import { ensureCompiledServer, repoRoot } from '../support/child-server.js';

const processes = 4;
const rounds = 4;
const versions = readdirSync(join(repoRoot, 'server/storage/sqlite/migrations'))
  .filter((f) => /^\d{3}_.+\.sql$/.test(f))
  .map((f) => Number(f.slice(0, 3)))
  .sort((x, y) => x - y);
const folder = tempFolder('sqlite-migrations-');
const running: ChildProcess[] = [];

/** What one process did: the versions it applied, or the error that stopped it. */
type Outcome = { applied: number[] } | { error: string };

/** A process that opens `path` as the server does (openDatabase) once told to on its stdin. */
function migrator(path: string) {
  const database = pathToFileURL(join(repoRoot, 'dist/server/storage/sqlite/database.js')).href;
  const program = `
    import { migrateSqlite, openWriteConnection } from ${JSON.stringify(database)};
    process.stdout.write('ready\\n');
    process.stdin.once('data', () => {
      let outcome;
      try {
        const db = openWriteConnection(process.argv[1]);
        outcome = { applied: migrateSqlite(db) };
        db.close();
      } catch (error) {
        outcome = { error: String(error.code) + ': ' + error.message };
      }
      process.stdout.write(JSON.stringify(outcome) + '\\n', () => process.exit(0));
    });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program, path], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    ready: () => output.startsWith('ready\n'),
    go: () => child.stdin?.end('go\n'),
    outcome: async (): Promise<Outcome> => {
      await exited;
      return JSON.parse(output.split('\n')[1] || '{"error":"no answer"}') as Outcome;
    },
  };
}

beforeAll(() => {
  ensureCompiledServer();
});

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  folder.remove();
});

describe('processes migrating one new SQLite file at the same moment', () => {
  it(`all open it, and apply each migration once between them (${processes} processes, ${rounds} times)`, {
    timeout: 120_000,
  }, async () => {
    for (let round = 0; round < rounds; round++) {
      const path = join(folder.dir, `round-${round}.db`);
      const migrators = Array.from({ length: processes }, () => migrator(path));
      await waitUntil(
        () => migrators.every((m) => m.ready()),
        30_000,
        () => 'a process never got ready',
        5,
      );
      for (const m of migrators) m.go();
      const outcomes = await Promise.all(migrators.map((m) => m.outcome()));

      const failed = outcomes.flatMap((o) => ('error' in o ? [o.error] : []));
      expect(failed, `round ${round}`).toEqual([]);
      const applied = outcomes.flatMap((o) => ('applied' in o ? o.applied : []));
      expect(
        applied.sort((x, y) => x - y),
        `round ${round}: each migration applied once`,
      ).toEqual(versions);
      const db = new Database(path, { readonly: true });
      try {
        expect(db.pragma('user_version', { simple: true })).toBe(versions.at(-1));
      } finally {
        db.close();
      }
    }
  });
});

describe('a file already migrated', () => {
  it('is only read, never locked: a read-only connection finds nothing to apply', () => {
    const path = join(folder.dir, 'current.db');
    openDatabase(path).close();
    const db = new Database(path, { readonly: true });
    try {
      expect(migrateSqlite(db)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
