/**
 * What each role of an API key grants (docs/decisions/0030-key-roles.md). Operations name the
 * permission they need in the contract (`x-permission`); server/http/permissions.ts checks it
 * against the caller's, in one place for every operation.
 */
import type { ApiPermission } from '../../generated/openapi.js';
import { apiPermissionValues } from '../../generated/openapi.js';
import type { KeyRole } from '../storage/rows.js';

const grants: Record<KeyRole, readonly ApiPermission[]> = {
  full: apiPermissionValues,
  collect: ['read', 'payments:write'],
  read_only: ['read'],
};

/** The permissions a role grants, in the contract's order. */
export function permissionsOf(role: KeyRole): readonly ApiPermission[] {
  return grants[role];
}

/** At most this many keys of one role work at once per account and mode (active or expiring). */
export function maxWorkingKeys(role: KeyRole): number {
  return role === 'full' ? 2 : 10;
}
