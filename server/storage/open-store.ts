import { createSecretBox, resolveSecretsKey, type SecretBox } from './secret-box.js';
import { openDatabase, openReadConnection } from './sqlite/database.js';
import { SqliteStore } from './sqlite/store.js';
import type { Store } from './store.js';

/**
 * Opens the store and the secret box its endpoint secrets are sealed with. A database an older
 * version wrote is cleaned once: secrets it kept in clear are sealed, stored responses that
 * revealed one are forgotten, and the storage is rebuilt (VACUUM) and checkpointed so no free
 * page still holds the old bytes.
 *
 * `databasePath` is a SQLite file; the key file (when no key is configured) is found beside it.
 *
 * @example
 * const store = await openStore('./data/payments.db', undefined);
 */
export async function openStore(databasePath: string, configuredKey: Buffer | undefined): Promise<Store> {
  const box = createSecretBox(resolveSecretsKey(configuredKey, databasePath));
  // The engine is chosen here: a `postgres://` URL will open server/storage/postgres/ instead.
  const store = openSqliteStore(databasePath, box);
  await cleanOldSecrets(store);
  return store;
}

/** The SQLite engine: the writer migrates the file before the reader opens it. */
function openSqliteStore(path: string, box: SecretBox): Store {
  const db = openDatabase(path);
  return new SqliteStore(db, openReadConnection(path), box);
}

/** Seals what an older version left in clear; looked for with a read first, so an up-to-date database is not written to at start-up. */
async function cleanOldSecrets(store: Store): Promise<void> {
  const dirty = await store.read(
    async (tx) => (await tx.events.hasClearSecrets()) || (await tx.idempotency.hasRevealedSecrets()),
  );
  if (!dirty) return;
  await store.transact(
    async (tx) => (await tx.events.sealClearSecrets()) + (await tx.idempotency.forgetRevealedSecrets()),
  );
  await store.vacuum();
  await store.checkpoint();
}
