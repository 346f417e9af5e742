import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { projectRoot } from '../../paths.js';
import { checkout } from './checkout.js';

const migrationsDir = join(projectRoot, 'server/storage/postgres/migrations/');

/**
 * Key of the session-level advisory lock held while migrating ('momo' in ASCII). Advisory locks
 * are per database, so servers of different databases on one cluster do not wait for each other.
 */
const MIGRATION_LOCK = 0x6d6f6d6f;

/**
 * Brings a PostgreSQL database's schema up to date: applies the numbered
 * `migrations/NNN_name.sql` files (the same numbered history as SQLite's) newer than the highest
 * version in `schema_migrations`, each in its own transaction with its version row. The whole run
 * holds an advisory lock, so when several instances start together one migrates and the others
 * wait, then find nothing left to do. Returns the versions it applied.
 *
 * @example
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await migratePostgres(pool);
 */
export async function migratePostgres(pool: pg.Pool): Promise<number[]> {
  const files = (await readdir(migrationsDir)).filter((f) => /^\d{3}_.+\.sql$/.test(f)).sort();
  const held = await checkout(pool);
  const { client } = held;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
      );
      const { rows } = await client.query<{ current: number | null }>(
        'SELECT MAX(version) AS current FROM schema_migrations',
      );
      const current = rows[0]?.current ?? 0;
      const applied: number[] = [];
      for (const file of files) {
        const version = Number(file.slice(0, 3));
        if (version <= current) continue;
        const sql = await readFile(migrationsDir + file, 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [
            version,
            Date.now(),
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new Error(`PostgreSQL migration ${file} failed: ${(error as Error).message}`, {
            cause: error,
          });
        }
        applied.push(version);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {
        // The session is gone, and its lock with it; the connection must not go back to the pool.
        held.markBroken();
      });
    }
  } catch (error) {
    held.markBroken();
    throw error;
  } finally {
    held.release();
  }
}
