/**
 * When to try a failed webhook delivery again, and when to stop. Exponential backoff spaces
 * attempts out so a receiver that is down is not hammered; full jitter (a uniformly random
 * delay between 0 and the exponential ceiling, as in AWS's "Exponential Backoff and Jitter")
 * spreads the retries of many events that failed together, so a receiver that comes back is
 * not hit by all of them at the same instant. The contract promises retries for up to 3 days.
 */

export interface RetryScheduleOptions {
  /** Ceiling of the delay after the first failed attempt; it doubles after each further failure. */
  baseDelayMs: number;
  /** Largest ceiling, so that late retries still come at a useful pace. */
  maxDelayMs: number;
  /** How long after the first attempt a delivery is abandoned (3 days in the contract). */
  maxAgeMs: number;
}

export interface RetrySchedule {
  readonly options: Readonly<RetryScheduleOptions>;
  /**
   * How long to wait before the next attempt, after `attempt` attempts have failed (1 after the
   * first failure): a uniform value in `[0, min(maxDelayMs, baseDelayMs * 2^(attempt - 1))]`.
   */
  nextAttemptDelay(attempt: number, random?: () => number): number;
  /** Whether a delivery first attempted at `firstAttemptAt` must not be retried any more at `now`. */
  shouldGiveUp(firstAttemptAt: number | Date, now: number | Date): boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The production schedule: ceilings of 30 s, 1 min, 2 min, ... capped at 4 h, for 3 days. With
 * full jitter that is about 25 attempts before a delivery is abandoned.
 */
export const defaultRetryScheduleOptions: Readonly<RetryScheduleOptions> = Object.freeze({
  baseDelayMs: 30_000,
  maxDelayMs: 4 * 60 * 60 * 1000,
  maxAgeMs: 3 * DAY_MS,
});

/**
 * Builds a retry schedule. Every value is configurable so that tests (and the server, through
 * its configuration) can compress days into milliseconds.
 *
 * @example
 * const schedule = createRetrySchedule({ baseDelayMs: 10, maxDelayMs: 100, maxAgeMs: 1_000 });
 * if (schedule.shouldGiveUp(delivery.first_attempt_at, Date.now())) markAbandoned(delivery);
 * else scheduleAt(Date.now() + schedule.nextAttemptDelay(delivery.attempts));
 */
export function createRetrySchedule(options: Partial<RetryScheduleOptions> = {}): RetrySchedule {
  const resolved: RetryScheduleOptions = { ...defaultRetryScheduleOptions, ...options };
  const { baseDelayMs, maxDelayMs, maxAgeMs } = resolved;
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`${name} must be a positive number of milliseconds, got ${value}`);
    }
  }
  if (maxDelayMs < baseDelayMs) {
    throw new RangeError(`maxDelayMs (${maxDelayMs}) must not be smaller than baseDelayMs (${baseDelayMs})`);
  }

  return {
    options: Object.freeze(resolved),

    nextAttemptDelay(attempt: number, random: () => number = Math.random): number {
      if (!Number.isSafeInteger(attempt) || attempt < 1) {
        throw new RangeError(`attempt must be an integer of at least 1, got ${attempt}`);
      }
      // Past 2^52 the multiplication is meaningless anyway; this also keeps Infinity out.
      const exponent = Math.min(attempt - 1, 52);
      const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** exponent);
      const delay = Math.floor(random() * ceiling);
      // A misbehaving random source must not produce a negative or unbounded delay.
      return Math.min(Math.max(delay, 0), ceiling);
    },

    shouldGiveUp(firstAttemptAt: number | Date, now: number | Date): boolean {
      return toMs(now) - toMs(firstAttemptAt) >= maxAgeMs;
    },
  };
}

function toMs(time: number | Date): number {
  return typeof time === 'number' ? time : time.getTime();
}
