/** How calls are retried; every field is optional in the client's options. */
export interface RetryOptions {
  /** Retries after the first attempt; 0 disables retrying. Default 2. */
  maxRetries: number;
  /** The backoff before the first retry, doubled at each retry, before jitter. Default 500. */
  baseDelayMs: number;
  /** The longest backoff between two attempts, before jitter. Default 8000. */
  maxDelayMs: number;
}

export const defaultRetryOptions: RetryOptions = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };

/** A `Retry-After` longer than this is not waited for: the 429 or 503 is returned to the caller. */
export const maxRetryAfterMs = 60_000;

/** Whether an HTTP status is worth another attempt: 429 and every 5xx, never another 4xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The wait before retry number `retry` (0 for the first retry): exponential backoff with full
 * jitter, a random duration between 0 and `min(maxDelayMs, baseDelayMs * 2^retry)`, so that
 * clients that failed together do not retry together.
 */
export function backoffDelayMs(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * Reads `Retry-After` (delta seconds or an HTTP date) as milliseconds from `now`; `undefined`
 * when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
