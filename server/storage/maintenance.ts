import { defineUnit } from './unit.js';

/**
 * Seals the webhook endpoint secrets an older version kept in clear (server/storage/open-store.ts
 * runs it once, when a database still has some). How many it sealed.
 */
export const sealClearSecrets = defineUnit(
  import.meta.url,
  'storage.seal-clear-secrets',
  async (tx, _: null): Promise<number> => tx.endpoints.sealClearSecrets(),
);
