import type { DashboardRole } from '../storage/rows.js';

/**
 * What a dashboard user may do, by role: owners everything (refunds and payouts are theirs alone,
 * as `refunds:write` and `payouts:write` are a full key's), developers the integration, viewers read.
 */
export type Permission = 'read' | 'keys' | 'webhooks' | 'refund' | 'users' | 'payout';

const grants: Record<DashboardRole, readonly Permission[]> = {
  owner: ['read', 'keys', 'webhooks', 'refund', 'users', 'payout'],
  developer: ['read', 'keys', 'webhooks'],
  viewer: ['read'],
};

export function can(role: DashboardRole, permission: Permission): boolean {
  return grants[role].includes(permission);
}
