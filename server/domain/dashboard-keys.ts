/**
 * API keys as the dashboard manages them: by id, any key of the account and mode, not only the
 * key making the call. The rules (two working keys at most, never the last one revoked) are the
 * API's own, in server/domain/accounts.ts.
 */
import type { ApiKeyRow } from '../storage/rows.js';
import { type Rotation, rotateKeyById as rotateAnyKey } from './accounts.js';
import type { Caller, Deps } from './context.js';
import { ApiError } from './errors.js';

export { revokeKeyById } from './accounts.js';

/** The longest grace period the dashboard offers: a week, time enough to redeploy. */
const maxGraceSeconds = 7 * 24 * 3600;

export async function listAccountKeys(deps: Deps, caller: Caller): Promise<ApiKeyRow[]> {
  return deps.store.read(
    async (tx) => (await tx.accounts.listKeys(caller.accountId, caller.mode, { limit: 100 })).items,
  );
}

/** Rotates one key of the caller's account and mode, with a grace period the page offers. */
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
    throw new ApiError(400, 'invalid_field', 'Choose a grace period from the list.', {
      param: 'grace_period_seconds',
    });
  }
  return rotateAnyKey(deps, caller, keyId, gracePeriodSeconds);
}
