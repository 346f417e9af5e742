import type { DashboardRole } from '../storage/rows.js';

/**
 * What a dashboard user may do, by role: owners everything, developers the integration (keys,
 * webhooks, services: docs/decisions/0042-dashboard-everyday-work.md), viewers read.
 */
export type Permission = 'read' | 'keys' | 'webhooks' | 'services' | 'refund' | 'users' | 'settings';

const grants: Record<DashboardRole, readonly Permission[]> = {
  owner: ['read', 'keys', 'webhooks', 'services', 'refund', 'users', 'settings'],
  developer: ['read', 'keys', 'webhooks', 'services'],
  viewer: ['read'],
};

export function can(role: DashboardRole, permission: Permission): boolean {
  return grants[role].includes(permission);
}
