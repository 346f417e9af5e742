import type { RequestHandler } from 'express';
import { authenticate } from '../domain/accounts.js';
import type { Deps } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';
import { VerifiedKeys } from '../domain/verified-keys.js';
import type { SharedCounters } from '../storage/store.js';
import { clientAddress } from './client-address.js';

/**
 * The key of `Authorization: Bearer <key>`. Another scheme (`Basic ...`) carries no API key at
 * all, so it is a missing key, as the contract's error table says; a Bearer header whose key is
 * malformed is a wrong key.
 */
function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  if (!/^Bearer(?:\s|$)/i.test(header)) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : '!';
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** API users are UUIDs, and a UUID's hex digits have no case (RFC 9562): compare them lowered. */
function apiUserOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return uuid.test(header) ? header.toLowerCase() : header;
}

/**
 * Counts failed authentications per client address in fixed windows. Once an address reaches
 * the limit, every call from it is refused until its window ends, a right key included:
 * otherwise a guesser would still learn which guess was right.
 */
function failedAuthentications(limit: number, windowMs: number, maxAddresses = 100_000) {
  const windows = new Map<string, { startedAt: number; failures: number }>();
  const current = (address: string, now: number) => {
    const window = windows.get(address);
    if (window && now < window.startedAt + windowMs) return window;
    if (window) windows.delete(address);
    return undefined;
  };
  return {
    /** Seconds the address must still wait, or 0 when it may try. */
    async blockedFor(address: string, now: number): Promise<number> {
      const window = current(address, now);
      if (!window || window.failures < limit) return 0;
      return Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000));
    },
    async fail(address: string, now: number): Promise<void> {
      let window = current(address, now);
      if (!window) {
        if (windows.size >= maxAddresses) {
          const oldest = windows.keys().next();
          if (!oldest.done) windows.delete(oldest.value);
        }
        window = { startedAt: now, failures: 0 };
        windows.set(address, window);
      }
      window.failures += 1;
    },
  };
}

/** The same limit counted in the database, so an address cannot spread its guesses over instances. */
function sharedFailedAuthentications(counters: SharedCounters, limit: number, windowMs: number) {
  return {
    async blockedFor(address: string, now: number): Promise<number> {
      const window = await counters.peek(`auth:${address}`, now, windowMs);
      if (!window || window.count < limit) return 0;
      return Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000));
    },
    async fail(address: string, now: number): Promise<void> {
      await counters.hit(`auth:${address}`, now, windowMs);
    },
  };
}

/** A query parameter of a request target, as `new URL(target).searchParams` reads it; parsed only when there is a query. */
function queryParameter(target: string, name: string): string | null {
  const query = target.indexOf('?');
  if (query < 0) return null;
  const fragment = target.indexOf('#', query);
  return new URLSearchParams(target.slice(query + 1, fragment < 0 ? undefined : fragment)).get(name);
}

/**
 * Resolves `Authorization: Bearer <key>` and `X-API-User` to the calling account and mode, and
 * refuses `test=true` with a live key, so nobody believes they are testing with real money.
 * An address that keeps failing to authenticate is refused with 429 for the rest of its window.
 */
export function authenticateCaller(deps: Deps): RequestHandler {
  const { authFailureLimit, authFailureWindowMs } = deps.config;
  const failures = deps.store.counters
    ? sharedFailedAuthentications(deps.store.counters, authFailureLimit, authFailureWindowMs)
    : failedAuthentications(authFailureLimit, authFailureWindowMs);
  const verified = new VerifiedKeys();
  return async (req, res, next) => {
    const address = clientAddress(req, deps.config.trustProxy);
    const wait = await failures.blockedFor(address, Date.now());
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      throw new ApiError(
        429,
        'too_many_failed_authentications',
        `Too many failed authentications from this address; retry after ${wait} second${wait === 1 ? '' : 's'}.`,
      );
    }
    let caller: Awaited<ReturnType<typeof authenticate>>;
    try {
      caller = await authenticate(
        deps.store,
        bearerKey(req.get('authorization')),
        apiUserOf(req.get('x-api-user')),
        deps.clock.now(),
        verified,
      );
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) await failures.fail(address, Date.now());
      throw err;
    }
    req.context.caller = caller;
    const test = queryParameter(req.originalUrl, 'test');
    if (test === 'true' && caller.mode === 'live') {
      throw new ApiError(
        400,
        'live_key_in_test_mode',
        'test=true was sent with a live key. Use your test key (sk_test_...) for the sandbox.',
        { param: 'test' },
      );
    }
    next();
  };
}
