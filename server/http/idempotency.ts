import { hash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Caller, Deps, IdempotencyIntent, NamedIdempotencyIntent } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';
import { idempotencyWindowMs, type WithheldResponse } from '../domain/transaction.js';
import type { Rendering } from '../storage/unit.js';

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
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

const reused = () =>
  new ApiError(
    409,
    'idempotency_key_reused',
    'This Idempotency-Key was already used with a different request.',
  );

/**
 * Replays the stored response for the request's Idempotency-Key, if there is one. Returns
 * false when nothing is stored; throws 409 when the key belongs to another request.
 */
export async function replayStored(
  deps: Deps,
  caller: Caller,
  req: Request,
  res: Response,
): Promise<boolean> {
  const intent = req.context.idempotency;
  if (!intent) return false;
  const now = deps.clock.now();
  const stored = await deps.store.read(async (tx) =>
    tx.idempotency.find(caller.accountId, caller.mode, intent.key, now - idempotencyWindowMs),
  );
  if (!stored) return false;
  if (stored.fingerprint !== intent.fingerprint) throw reused();
  if (stored.body.startsWith('{"secret_withheld"')) {
    const { id } = (JSON.parse(stored.body) as WithheldResponse).secret_withheld;
    res.setHeader('Idempotent-Replayed', 'true').setHeader('Cache-Control', 'no-store');
    throw new ApiError(
      409,
      'secret_not_replayed',
      `This request already succeeded and created ${id}. Its secret was shown once, in the first ` +
        'response, and is not kept: a retry cannot show it again. To get a new secret, rotate ' +
        'with a new Idempotency-Key.',
      { param: 'Idempotency-Key' },
    );
  }
  res
    .status(stored.status_code)
    .setHeader('Idempotent-Replayed', 'true')
    .type('application/json')
    .send(stored.body);
  return true;
}

/**
 * For a POST with an Idempotency-Key: replays the first response of a repeated request and
 * refuses the key's reuse for another; otherwise lets the request run, remembering the key so
 * the route stores its response in the same transaction as its work.
 *
 * An operation whose work is one named unit (`keyCheckedInUnit`) is not looked up first: its
 * unit stores the response under the key, which is unique, so a repeated request's unit finds
 * the first one's record there and rolls back (`IdempotencyRace`), and the error handler then
 * replays the stored response, as it does for any error such a request meets. A new request,
 * nearly every one, so costs no read of its own before its work (docs/benchmarks.md).
 */
export function idempotentPosts(deps: Deps, keyCheckedInUnit: (req: Request) => boolean): RequestHandler {
  return async (req, res, next) => {
    const key = req.get('idempotency-key');
    const caller = req.context.caller;
    if (req.method !== 'POST' || key === undefined || !caller) return next();
    const fingerprint = fingerprintOf(req);
    if (keyCheckedInUnit(req)) {
      req.context.idempotency = { key, fingerprint, lookupDeferred: true };
      return next();
    }
    req.context.idempotency = { key, fingerprint };
    if (await replayStored(deps, caller, req, res)) return;
    next();
  };
}

/** The intent a route hands to the domain so its response is stored with its work. */
export function idempotencyIntent<T>(
  req: Request,
  status: number,
  render: (result: T) => unknown,
  withhold?: (result: T) => string,
): IdempotencyIntent<T> | undefined {
  const intent = req.context.idempotency;
  if (!intent) return undefined;
  return withhold ? { ...intent, status, render, withhold } : { ...intent, status, render };
}

/** The same for a named unit of work: its response rendered by `rendering`, given `context`. */
export function namedIdempotencyIntent<T, C>(
  req: Request,
  status: number,
  rendering: Rendering<T, C>,
  context: C,
): NamedIdempotencyIntent | undefined {
  const intent = req.context.idempotency;
  if (!intent) return undefined;
  return { key: intent.key, fingerprint: intent.fingerprint, status, rendering: rendering.name, context };
}
