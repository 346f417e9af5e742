/**
 * Per-key rate limiting, in memory, on the request path of every call.
 *
 * Algorithm: a fixed window per key, starting at the key's first call. It is O(1) per call (one
 * Map lookup and a counter), needs 2 numbers per key, and matches the contract word for word:
 * `RateLimit-Limit` is what the key may make "in the current window", `RateLimit-Reset` the
 * "seconds until the current window ends". Its known weakness, up to twice the limit across a
 * window boundary, is bounded and harmless for a per-second API limit; a sliding window or a
 * token bucket would smooth that but give `RateLimit-Reset` no exact meaning. Windows start at
 * each key's first call rather than on the clock, so keys do not all reset in the same instant.
 *
 * Memory: a key whose window has ended holds nothing worth keeping. Entries sit in the Map in
 * the order their windows started (a new window re-inserts its key at the end), so the stale
 * ones are always at the front: each call evicts a few of them, which keeps pace with
 * insertions without a timer or a full scan. `maxKeys` is a hard ceiling on top of that.
 *
 * State is per process: with several instances, each enforces its own limit.
 */

export interface RateLimiterOptions {
  /** Calls allowed per key and window. */
  limit: number;
  windowMs: number;
  /**
   * Most keys tracked at once. Past it, the key with the oldest window is forgotten (and gets a
   * fresh window on its next call): with ~100 bytes per key, 100,000 keys is about 10 MB.
   */
  maxKeys?: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** `RateLimit-Limit`. */
  limit: number;
  /** `RateLimit-Remaining`: calls left in the window after this one. */
  remaining: number;
  /** `RateLimit-Reset`: whole seconds until the window ends, at least 1. */
  resetSeconds: number;
  /** `Retry-After` when refused; 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one call of `key` and says whether it may proceed. */
  take(key: string, now?: number): RateLimitDecision;
  /** Keys currently tracked (for tests and metrics). */
  readonly size: number;
}

interface Window {
  startedAt: number;
  count: number;
}

/** Stale entries evicted per call: more than the one a call can insert, so the Map drains. */
const EVICTIONS_PER_TAKE = 4;

/**
 * Creates an in-memory rate limiter. The server keeps one per limit (for example one for
 * authenticated keys) for the life of the process.
 *
 * @example
 * const limiter = createRateLimiter({ limit: 100, windowMs: 1_000 });
 * const decision = limiter.take(auth.keyId);
 * res.set('RateLimit-Limit', String(decision.limit));
 * if (!decision.allowed) res.set('Retry-After', String(decision.retryAfterSeconds));
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { limit, windowMs, maxKeys = 100_000 } = options;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a positive integer, got ${limit}`);
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new RangeError(`windowMs must be a positive number, got ${windowMs}`);
  }
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
    throw new RangeError(`maxKeys must be a positive integer, got ${maxKeys}`);
  }
  const windowSeconds = Math.max(1, Math.ceil(windowMs / 1000));
  const windows = new Map<string, Window>();

  function evictStale(now: number): void {
    let evicted = 0;
    for (const [key, window] of windows) {
      if (evicted === EVICTIONS_PER_TAKE || now < window.startedAt + windowMs) return;
      windows.delete(key);
      evicted++;
    }
  }

  return {
    get size() {
      return windows.size;
    },

    take(key: string, now: number = Date.now()): RateLimitDecision {
      evictStale(now);
      let window = windows.get(key);
      if (window === undefined || now >= window.startedAt + windowMs) {
        // Delete before set so that the key moves to the end: the Map stays in window order.
        if (window !== undefined) windows.delete(key);
        else if (windows.size >= maxKeys) {
          const oldest = windows.keys().next();
          if (!oldest.done) windows.delete(oldest.value);
        }
        window = { startedAt: now, count: 0 };
        windows.set(key, window);
      }

      const allowed = window.count < limit;
      if (allowed) window.count++;
      return decision(allowed, limit, window.count, window.startedAt + windowMs - now, windowSeconds);
    },
  };
}

/**
 * What the headers say of a window that has counted `counted` calls and ends in `msLeft`. A
 * clock that stepped backwards must not announce a reset further away than one window.
 */
export function decision(
  allowed: boolean,
  limit: number,
  counted: number,
  msLeft: number,
  windowSeconds: number,
): RateLimitDecision {
  const resetSeconds = Math.min(windowSeconds, Math.max(1, Math.ceil(msLeft / 1000)));
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - counted),
    resetSeconds,
    retryAfterSeconds: allowed ? 0 : resetSeconds,
  };
}
