import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { sealClearSecrets } from './maintenance.js';
import { createSecretBox, resolveSecretsKey } from './secret-box.js';
import { startCheckpointer } from './sqlite/checkpointer.js';
import { type Db, openDatabase, openReadConnection, scrubMark } from './sqlite/database.js';
import { SqliteStore } from './sqlite/store.js';
import type { Store } from './store.js';

/**
 * Opens the store of the configured engine and the secret box its endpoint secrets are sealed
 * with: PostgreSQL when `DATABASE_URL` is set (several instances share it), otherwise the SQLite
 * file of `DATABASE_PATH` (docs/decisions/0017-postgresql.md says when to choose which).
 *
 * A database an older version wrote is cleaned once: secrets it kept in clear are sealed, stored
 * responses that revealed one are forgotten, and the storage is rebuilt (VACUUM) and
 * checkpointed so no free page still holds the old bytes.
 *
 * @example
 * const store = await openStore(loadConfig(process.env));
 */
export async function openStore(
  config: Pick<Config, 'databasePath' | 'database' | 'secretsEncryptionKey'>,
  options: {
    /** A long-running server: SQLite's WAL is copied back into the file on a thread of its own, and its failures are logged here. */
    server?: { logger: Logger };
  } = {},
): Promise<Store> {
  if (config.database) {
    // Required with DATABASE_URL (config.ts): instances on several machines share no key file.
    const key = config.secretsEncryptionKey;
    if (!key) throw new Error('SECRETS_ENCRYPTION_KEY is required with DATABASE_URL');
    // Loaded only for PostgreSQL: a SQLite start need not load the driver (docs/performance.md).
    const { openPostgresStore } = await import('./postgres/store.js');
    return openPostgresStore({
      url: config.database.url,
      poolSize: config.database.poolSize,
      statementTimeoutMs: config.database.statementTimeoutMs,
      box: createSecretBox(key),
    });
  }
  const key = resolveSecretsKey(config.secretsEncryptionKey, config.databasePath);
  const db = openDatabase(config.databasePath);
  const store = openSqliteStore(db, config.databasePath, key, options.server?.logger);
  await cleanOldSecrets(store, db);
  return store;
}

/**
 * The SQLite engine on `db`, the connection that migrated the file (before the readers open it).
 * A server (given a logger) checkpoints on a thread of its own and runs its named units of work
 * on a writer thread and its named reads on a reader thread; a command-line run is too short to
 * need them.
 */
function openSqliteStore(db: Db, path: string, key: Buffer, logger: Logger | undefined): Store {
  const box = createSecretBox(key);
  if (!logger) return new SqliteStore(db, () => openReadConnection(path), box);
  const checkpointer = startCheckpointer(path, (failure) =>
    logger.warn(
      { code: failure.code, err: { message: failure.message } },
      'background WAL checkpoint failed',
    ),
  );
  return new SqliteStore(db, () => openReadConnection(path), box, {
    checkpointer,
    threads: { path, secretsKey: new Uint8Array(key) },
  });
}

/**
 * Seals what an older version left in clear, then rebuilds the file so no free page keeps it.
 * Only two small reads on an up-to-date file: the endpoints' secrets, and the mark the database
 * leaves when it forgets a stored response that revealed a secret (the triggers of
 * migrations/009_forget_revealed_responses.sql, which an older version's writes run too).
 */
async function cleanOldSecrets(store: Store, db: Db): Promise<void> {
  const clearSecrets = await store.read((tx) => tx.endpoints.hasClearSecrets());
  if (!clearSecrets && !scrubMark.isSet(db)) return;
  if (clearSecrets) await store.run(sealClearSecrets, null);
  await store.vacuum();
  await store.checkpoint();
  // Cleared last: a crash before this point scrubs again at the next start.
  scrubMark.clear(db);
}
