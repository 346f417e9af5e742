/**
 * The permission table of server/http/permissions.ts, read from the contract: every operation
 * that needs a key names a known permission, and a contract where one does not stops the start
 * (docs/decisions/0030-key-roles.md).
 */
import { describe, expect, it } from 'vitest';
import { contractDocument } from '../../server/http/contract.js';
import { permissionTable } from '../../server/http/permissions.js';

type Contract = Parameters<typeof permissionTable>[0];

describe('the permission of each operation, from x-permission', () => {
  it('names one for every secured operation of openapi.yaml, and none for the open health check', () => {
    const table = permissionTable(contractDocument() as Contract);
    expect(table.size).toBe(42);
    expect(table.get('GET /v1/healthz')).toBeUndefined();
    expect(table.get('POST /v1/payouts')).toBe('payouts:write');
    expect(table.get('GET /v1/api-keys')).toBe('keys:manage');
    expect(table.get('GET /v1/payments/{id}')).toBe('read');
  });

  it('refuses a contract with a secured operation that names no permission, or an unknown one', () => {
    const without = { paths: { '/things': { post: {} } } };
    expect(() => permissionTable(without)).toThrow('POST /things names no known x-permission');
    const unknown = { paths: { '/things': { get: { 'x-permission': 'everything' } } } };
    expect(() => permissionTable(unknown)).toThrow('GET /things');
  });
});
