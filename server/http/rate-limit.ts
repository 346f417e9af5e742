import type { RequestHandler, Response } from 'express';
import { ApiError } from '../domain/errors.js';
import type { SharedCounters } from '../storage/store.js';
import { createRateLimiter, decision, type RateLimitDecision } from './rate-limiter.js';

/**
 * Limits per account and mode, shared by all the keys of that mode, so minting keys never
 * multiplies the limit. Every authenticated response says where the account stands
 * (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`); past the limit the call is
 * refused with 429 and `Retry-After`, before any work is done.
 *
 * With `counters` (PostgreSQL) the windows live in the database, so every instance counts the
 * same calls; without (SQLite, one process) they live in memory (docs/decisions/0017-postgresql.md).
 */
export function rateLimitPerAccount(
  options: { limit: number; windowMs: number },
  counters: SharedCounters | null = null,
): RequestHandler {
  const keyOf = (caller: { accountId: string; mode: string }) => `${caller.accountId}:${caller.mode}`;
  if (!counters) {
    // In memory the decision is immediate: no promise on the path of every call.
    const limiter = createRateLimiter(options);
    return (req, res, next) => {
      const caller = req.context.caller;
      if (!caller) return next();
      answer(res, limiter.take(keyOf(caller), Date.now()));
      next();
    };
  }
  const take = sharedDecision(counters, options);
  return async (req, res, next) => {
    const caller = req.context.caller;
    if (!caller) return next();
    answer(res, await take(keyOf(caller), Date.now()));
    next();
  };
}

/** Sets the RateLimit-* headers; past the limit, Retry-After and a 429 before any work is done. */
function answer(res: Response, decision: RateLimitDecision): void {
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
  res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
  if (!decision.allowed) {
    res.setHeader('Retry-After', String(decision.retryAfterSeconds));
    const seconds = decision.retryAfterSeconds;
    throw new ApiError(
      429,
      'rate_limited',
      `Too many requests for this account and mode; retry after ${seconds} second${seconds === 1 ? '' : 's'}.`,
    );
  }
}

/** The same decision as the memory limiter's, from a window every instance counts in. */
function sharedDecision(
  counters: SharedCounters,
  { limit, windowMs }: { limit: number; windowMs: number },
): (key: string, now: number) => Promise<RateLimitDecision> {
  const windowSeconds = Math.max(1, Math.ceil(windowMs / 1000));
  return async (key, now) => {
    const window = await counters.hit(`rate:${key}`, now, windowMs);
    // Every call is counted, refused ones too: allowed while the count is within the limit.
    return decision(
      window.count <= limit,
      limit,
      window.count,
      window.startedAt + windowMs - now,
      windowSeconds,
    );
  };
}
