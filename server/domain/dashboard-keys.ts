/**
 * API keys as the dashboard manages them: by id, any key of the account and mode the signed-in
 * user's role reaches, not only the key making the call. The rules (working keys per role,
 * never the last full key revoked) are the API's own, in server/domain/accounts.ts.
 */
import type { ApiKeyRow, DashboardRole, KeyRole } from '../storage/rows.js';
import {
  type Creation,
  createKey,
  keyRoleRefused,
  type Rotation,
  revokeKeyById as revokeAnyKey,
  rotateKeyById as rotateAnyKey,
} from './accounts.js';
import type { Caller, Deps } from './context.js';
import { ApiError, permissionDenied } from './errors.js';

/** The longest grace period the dashboard offers: a week, time enough to redeploy. */
const maxGraceSeconds = 7 * 24 * 3600;

/**
 * The keys a dashboard role may see, create, rotate and revoke (docs/decisions/0030-key-roles.md):
 * an owner every key; a developer only restricted keys, never a full key that can pay out and
 * refund; a viewer none.
 */
const keyRolesOf: Record<DashboardRole, readonly KeyRole[]> = {
  owner: ['full', 'collect', 'read_only'],
  developer: ['collect', 'read_only'],
  viewer: [],
};

export function keyRolesFor(role: DashboardRole): readonly KeyRole[] {
  return keyRolesOf[role];
}

function reachableRoles(role: DashboardRole): readonly KeyRole[] {
  const roles = keyRolesOf[role];
  if (roles.length === 0) {
    throw permissionDenied('keys:manage', `Your role (${role}) does not allow API keys. Ask an owner.`);
  }
  return roles;
}

/** The keys of the caller's account and mode whose role the user's role reaches. */
export async function listAccountKeys(deps: Deps, caller: Caller, role: DashboardRole): Promise<ApiKeyRow[]> {
  const roles = reachableRoles(role);
  const keys = await deps.store.read(
    async (tx) => (await tx.accounts.listKeys(caller.accountId, caller.mode, { limit: 100 })).items,
  );
  return keys.filter((key) => roles.includes(key.role));
}

/** A new key of a role the user's role reaches, its secret shown once. */
export async function createAccountKey(
  deps: Deps,
  caller: Caller,
  role: DashboardRole,
  keyRole: string,
): Promise<Creation> {
  const roles = reachableRoles(role);
  const wanted = roles.find((r) => r === keyRole);
  if (!wanted) {
    if (['full', 'collect', 'read_only'].includes(keyRole)) throw keyRoleRefused(keyRole as KeyRole);
    throw new ApiError(400, 'invalid_field', 'Choose a role from the list.', { param: 'role' });
  }
  return createKey(deps, caller, wanted, undefined, true);
}

/** Rotates one key of the caller's account and mode, with a grace period the page offers. */
export async function rotateKeyById(
  deps: Deps,
  caller: Caller,
  role: DashboardRole,
  keyId: string,
  gracePeriodSeconds: number,
): Promise<Rotation> {
  const roles = reachableRoles(role);
  if (
    !Number.isInteger(gracePeriodSeconds) ||
    gracePeriodSeconds < 0 ||
    gracePeriodSeconds > maxGraceSeconds
  ) {
    throw new ApiError(400, 'invalid_field', 'Choose a grace period from the list.', {
      param: 'grace_period_seconds',
    });
  }
  return rotateAnyKey(deps, caller, keyId, gracePeriodSeconds, roles);
}

/** Revokes one key of the caller's account and mode the user's role reaches. */
export async function revokeKeyById(
  deps: Deps,
  caller: Caller,
  role: DashboardRole,
  keyId: string,
): Promise<ApiKeyRow> {
  return revokeAnyKey(deps, caller, keyId, reachableRoles(role));
}
