import type { RequestHandler } from 'express';
import type { ApiPermission } from '../../generated/openapi.js';
import { apiPermissionValues } from '../../generated/openapi.js';
import { permissionDenied } from '../domain/errors.js';
import { contractDocument } from './contract.js';

type Operation = { 'x-permission'?: unknown; security?: unknown[] };
type Contract = { paths: Record<string, Record<string, Operation>> };

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * `METHOD template` → the permission the contract's operation names in `x-permission`. An
 * operation that needs a key but names no permission, or names one the contract's
 * `ApiPermission` does not list, stops the start: no operation is ever open by omission.
 */
export function permissionTable(contract: Contract): Map<string, ApiPermission> {
  const table = new Map<string, ApiPermission>();
  for (const [template, item] of Object.entries(contract.paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      const open = Array.isArray(operation.security) && operation.security.length === 0;
      const permission = operation['x-permission'];
      if (open && permission === undefined) continue;
      if (!(apiPermissionValues as readonly unknown[]).includes(permission)) {
        throw new Error(`${method.toUpperCase()} ${template} names no known x-permission in openapi.yaml`);
      }
      table.set(`${method.toUpperCase()} /v1${template}`, permission as ApiPermission);
    }
  }
  return table;
}

/**
 * Refuses an operation whose permission (the contract's `x-permission`) the caller's key role
 * does not grant: `403 permission_denied` naming the permission, before the body is read. The
 * one place permissions are checked (docs/decisions/0030-key-roles.md); runs after strict
 * routing, which set `req.context.route` to the contract's path.
 */
export function requireKeyPermission(
  table: Map<string, ApiPermission> = permissionTable(contractDocument() as Contract),
): RequestHandler {
  return (req, _res, next) => {
    const caller = req.context.caller;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const permission = table.get(`${method} /v1${req.context.route ?? ''}`);
    if (!caller || !permission || caller.permissions.includes(permission)) return next();
    throw permissionDenied(
      permission,
      `This key's role (${caller.role}) does not grant ${permission}, which ${method} /v1${req.context.route} needs.`,
    );
  };
}
