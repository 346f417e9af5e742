import { hash } from 'node:crypto';
import type { Request } from 'express';
import type { IdempotencyKey } from '../domain/write.js';

/**
 * JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. Recursive, over a
 * body already bounded to `maxJsonDepth` levels when it was read (json-body.ts).
 */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    out += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(object[key])}`;
  }
  return `${out}}`;
}

/** Method, full path (`/v1/payments`, wherever the router that runs this is mounted) and body. */
function fingerprintOf(req: Request): string {
  return hash('sha256', `${req.method} ${req.baseUrl}${req.path}\n${canonicalJson(req.body ?? null)}`, 'hex');
}

/**
 * The Idempotency-Key of a POST, with the caller's account and mode that own it and the request's
 * fingerprint; undefined without one. The operation's write looks it up and stores its response
 * under it in one transaction (server/domain/write.ts): one look-up, in the transaction, for
 * every idempotent operation.
 */
export function idempotencyKeyOf(req: Request): IdempotencyKey | undefined {
  const key = req.get('idempotency-key');
  const caller = req.context.caller;
  if (req.method !== 'POST' || key === undefined || !caller) return undefined;
  return { accountId: caller.accountId, mode: caller.mode, key, fingerprint: fingerprintOf(req) };
}
