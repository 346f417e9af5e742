import type { Request } from 'express';
import type { Caller } from '../domain/context.js';
import type { FilteredList, ListQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';

/**
 * Reads query parameters the contract validator has already checked, converting them to the
 * types the domain expects.
 */
export function text(req: Request, name: string): string | undefined {
  const value: unknown = req.query[name];
  // The validator may leave its coerced value (a number or boolean) in place of the string.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'string' ? value : undefined;
}

function integer(req: Request, name: string): number | undefined {
  const value = text(req, name);
  return value === undefined ? undefined : Number(value);
}

export function time(req: Request, name: string): number | undefined {
  const value = text(req, name);
  return value === undefined ? undefined : Date.parse(value);
}

export function pageOf(req: Request): PageRequest {
  return { limit: integer(req, 'limit') ?? 20, cursor: text(req, 'cursor') };
}

/**
 * A list operation's query as the contract validator let it through, which is the typed query
 * the list's filters read (server/storage/list-filters.ts): the dashboard builds the same one
 * from its form. A copy: it crosses to SQLite's reader thread as plain data.
 */
export function listQuery<Op extends FilteredList>(req: Request): ListQuery<Op> {
  return { ...req.query } as ListQuery<Op>;
}

/** The authenticated caller; authentication runs before every route that reads it. */
export function callerOf(req: Request): Caller {
  const caller = req.context.caller;
  if (!caller) throw new Error('route reached without an authenticated caller');
  return caller;
}

export function pathId(req: Request): string {
  return req.params.id as string;
}
