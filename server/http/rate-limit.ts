import type { RequestHandler } from 'express';
import { ApiError } from '../domain/errors.js';
import { createRateLimiter } from './rate-limiter.js';

/**
 * Limits per account and mode, shared by all the keys of that mode, so minting keys never
 * multiplies the limit. Every authenticated response says where the account stands
 * (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`); past the limit the call is
 * refused with 429 and `Retry-After`, before any work is done.
 */
export function rateLimitPerAccount(options: { limit: number; windowMs: number }): RequestHandler {
  const limiter = createRateLimiter(options);
  return (req, res, next) => {
    const caller = req.context.caller;
    if (!caller) return next();
    const decision = limiter.take(`${caller.accountId}:${caller.mode}`);
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
    next();
  };
}
