import type { DashboardRole } from '../storage/rows.js';

/**
 * What a dashboard user may do, by role: owners everything (refunds and payouts are theirs alone,
 * as `refunds:write` and `payouts:write` are a full key's), developers the integration (keys,
 * webhooks, services: docs/decisions/0042-dashboard-everyday-work.md), viewers read.
 */
export type Permission =
  | 'read'
  | 'keys'
  | 'webhooks'
  | 'services'
  | 'refund'
  | 'users'
  | 'settings'
  | 'payout';

const grants: Record<DashboardRole, readonly Permission[]> = {
  owner: ['read', 'keys', 'webhooks', 'services', 'refund', 'users', 'settings', 'payout'],
  developer: ['read', 'keys', 'webhooks', 'services'],
  viewer: ['read'],
};

export function can(role: DashboardRole, permission: Permission): boolean {
  return grants[role].includes(permission);
}
