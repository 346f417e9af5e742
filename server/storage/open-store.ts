import { openDatabase } from './database.js';
import { createSecretBox, resolveSecretsKey } from './secret-box.js';
import { Store } from './store.js';

/**
 * Opens the database with the secret box its endpoint secrets are sealed with. A database an
 * older version wrote is cleaned once: secrets it kept in clear are sealed, stored responses
 * that revealed one are forgotten, and the file is rebuilt (VACUUM) and checkpointed so no
 * free page of the file or of the WAL still holds the old bytes.
 */
export async function openStore(databasePath: string, configuredKey: Buffer | undefined): Promise<Store> {
  const store = new Store(
    openDatabase(databasePath),
    createSecretBox(resolveSecretsKey(configuredKey, databasePath)),
  );
  // Looked for with a read first: an up-to-date database is not written to at start-up.
  const dirty = await store.read((tx) => tx.events.hasClearSecrets() || tx.idempotency.hasRevealedSecrets());
  if (dirty) {
    await store.transact((tx) => tx.events.sealClearSecrets() + tx.idempotency.forgetRevealedSecrets());
    store.vacuum();
    store.checkpoint();
  }
  return store;
}
