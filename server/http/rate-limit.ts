import type { RequestHandler } from 'express';
import { ApiError } from '../domain/errors.js';
import { createRateLimiter } from './rate-limiter.js';

/**
 * Per-key limits. Every authenticated response says where the key stands
 * (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`); past the limit the call is
 * refused with 429 and `Retry-After`, before any work is done.
 */
export function rateLimitPerKey(options: { limit: number; windowMs: number }): RequestHandler {
  const limiter = createRateLimiter(options);
  return (req, res, next) => {
    const keyId = req.context.caller?.keyId;
    if (!keyId) return next();
    const decision = limiter.take(keyId);
    res.setHeader('RateLimit-Limit', String(decision.limit));
    res.setHeader('RateLimit-Remaining', String(decision.remaining));
    res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.retryAfterSeconds));
      const seconds = decision.retryAfterSeconds;
      throw new ApiError(
        429,
        'rate_limited',
        `Too many requests for this key; retry after ${seconds} second${seconds === 1 ? '' : 's'}.`,
      );
    }
    next();
  };
}
