/**
 * API keys as the dashboard manages them: by id, any key of the account and mode, not only the
 * key making the call. The API's own rotation (server/domain/accounts.ts) rotates the caller's
 * key; these do the same for the key a dashboard user picks, with the same rules (a new key of
 * the same mode, the old one retired at once or after a grace period, secrets kept only hashed).
 */
import type { ApiKeyRow } from '../storage/rows.js';
import { hashKey, keyStatus, type Rotation } from './accounts.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound } from './errors.js';
import { newId, randomBase62 } from './ids.js';
import { commit } from './transaction.js';

/** The longest grace period the dashboard offers: a week, time enough to redeploy. */
export const maxGraceSeconds = 7 * 24 * 3600;

function liveKeyOf(
  deps: Deps,
  caller: Caller,
  keyId: string,
  tx: Parameters<Parameters<typeof commit>[3]>[0],
) {
  const key = tx.accounts.key(keyId);
  if (!key || key.account_id !== caller.accountId || key.mode !== caller.mode)
    throw notFound('API key', keyId);
  if (keyStatus(key, deps.clock.now()) === 'revoked') {
    throw new ApiError(409, 'invalid_field', 'This key is already revoked.', 'key_id');
  }
  return key;
}

export async function listAccountKeys(deps: Deps, caller: Caller): Promise<ApiKeyRow[]> {
  return deps.store.read((tx) => tx.accounts.listKeys(caller.accountId, caller.mode, { limit: 100 }).items);
}

/** Rotates one key of the caller's account and mode: the new secret is returned once. */
export async function rotateKeyById(
  deps: Deps,
  caller: Caller,
  keyId: string,
  gracePeriodSeconds: number,
): Promise<Rotation> {
  if (
    !Number.isInteger(gracePeriodSeconds) ||
    gracePeriodSeconds < 0 ||
    gracePeriodSeconds > maxGraceSeconds
  ) {
    throw new ApiError(400, 'invalid_field', 'Choose a grace period from the list.', 'grace_period_seconds');
  }
  return commit(deps, caller, undefined, (tx, now) => {
    liveKeyOf(deps, caller, keyId, tx);
    const secretKey = `sk_${caller.mode}_${randomBase62(32)}`;
    const id = newId('key');
    tx.accounts.insertKey({
      id,
      account_id: caller.accountId,
      mode: caller.mode,
      key_hash: hashKey(secretKey),
      last4: secretKey.slice(-4),
      created_at: now,
    });
    tx.accounts.retireKey(keyId, now + gracePeriodSeconds * 1000, gracePeriodSeconds === 0 ? now : null);
    const apiKey = tx.accounts.key(id);
    const previousKey = tx.accounts.key(keyId);
    if (!apiKey || !previousKey) throw new Error('rotated keys vanished inside their transaction');
    return { secretKey, apiKey, previousKey };
  });
}

/** Revokes one key at once: calls with it fail from now on. */
export async function revokeKeyById(deps: Deps, caller: Caller, keyId: string): Promise<ApiKeyRow> {
  return commit(deps, caller, undefined, (tx, now) => {
    liveKeyOf(deps, caller, keyId, tx);
    tx.accounts.retireKey(keyId, now, now);
    return tx.accounts.key(keyId) as ApiKeyRow;
  });
}
