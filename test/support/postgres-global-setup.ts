/**
 * vitest global setup: with `TEST_DATABASE=postgres`, one throwaway PostgreSQL cluster for the
 * whole run and a migrated template database, so that every test server gets a fresh database
 * copied from it (`test/support/server.ts`) instead of migrating its own. Without it, nothing.
 */
import pg from 'pg';
import { migratePostgres } from '../../server/storage/postgres/migrate.js';
import { createTestDatabase, type PostgresCluster, startPostgresCluster } from './postgres.js';

export const templateDatabase = 'payments_template';

let cluster: PostgresCluster | undefined;

export async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE !== 'postgres') return;
  cluster = await startPostgresCluster();
  const adminUrl = cluster.url('postgres');
  const templateUrl = await createTestDatabase(adminUrl, 'template');
  const pool = new pg.Pool({ connectionString: templateUrl });
  try {
    await migratePostgres(pool);
  } finally {
    await pool.end();
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      `ALTER DATABASE ${new URL(templateUrl).pathname.slice(1)} RENAME TO ${templateDatabase}`,
    );
  } finally {
    await admin.end();
  }
  // Inherited by the test processes vitest forks after this setup.
  process.env.TEST_POSTGRES_URL = adminUrl;
}

export async function teardown(): Promise<void> {
  await cluster?.stop();
}
