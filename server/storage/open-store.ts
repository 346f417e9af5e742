import { openDatabase } from './database.js';
import { createSecretBox, resolveSecretsKey } from './secret-box.js';
import { Store } from './store.js';

/**
 * Opens the database with the secret box its endpoint secrets are sealed with, seals any secret
 * an older version left in clear, and then checkpoints so no page of the WAL still holds one.
 */
export async function openStore(databasePath: string, configuredKey: Buffer | undefined): Promise<Store> {
  const store = new Store(
    openDatabase(databasePath),
    createSecretBox(resolveSecretsKey(configuredKey, databasePath)),
  );
  const sealed = await store.transact((tx) => tx.events.sealClearSecrets());
  if (sealed > 0) store.checkpoint();
  return store;
}
