import { describe, expect, it } from 'vitest';
import { createRetrySchedule, defaultRetryScheduleOptions } from '../../server/webhooks/retry-schedule.js';

const almostOne = () => 1 - Number.EPSILON;
const zero = () => 0;
const half = () => 0.5;

describe('createRetrySchedule', () => {
  const schedule = createRetrySchedule({ baseDelayMs: 1_000, maxDelayMs: 60_000, maxAgeMs: 3_600_000 });

  describe('nextAttemptDelay', () => {
    it('waits no time at all when the random draw is 0 (full jitter starts at 0)', () => {
      for (let attempt = 1; attempt <= 20; attempt++) {
        expect(schedule.nextAttemptDelay(attempt, zero)).toBe(0);
      }
    });

    it('waits just under the exponential ceiling when the random draw is almost 1', () => {
      const ceilings = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000];
      ceilings.forEach((ceiling, index) => {
        const delay = schedule.nextAttemptDelay(index + 1, almostOne);
        expect(delay).toBeLessThanOrEqual(ceiling);
        expect(delay).toBeGreaterThanOrEqual(ceiling - 1);
      });
    });

    it('doubles the ceiling after each failure', () => {
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect(schedule.nextAttemptDelay(attempt + 1, half)).toBe(
          2 * schedule.nextAttemptDelay(attempt, half),
        );
      }
    });

    it('stops growing at maxDelayMs, even after very many attempts', () => {
      for (const attempt of [7, 8, 100, 1_000, Number.MAX_SAFE_INTEGER]) {
        expect(schedule.nextAttemptDelay(attempt, half)).toBe(30_000);
        expect(schedule.nextAttemptDelay(attempt, almostOne)).toBeLessThanOrEqual(60_000);
      }
    });

    it('stays within [0, ceiling] with the real random source', () => {
      for (let i = 0; i < 1_000; i++) {
        const delay = schedule.nextAttemptDelay(3);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(4_000);
        expect(Number.isInteger(delay)).toBe(true);
      }
    });

    it('spreads the delays of simultaneous failures instead of aligning them', () => {
      const delays = new Set(Array.from({ length: 100 }, () => schedule.nextAttemptDelay(6)));
      // 100 uniform draws among 32,000 values: fewer than 90 distinct would mean no real jitter.
      expect(delays.size).toBeGreaterThan(90);
    });

    it('keeps the delay in bounds when the random source misbehaves', () => {
      expect(schedule.nextAttemptDelay(2, () => 5)).toBe(2_000);
      expect(schedule.nextAttemptDelay(2, () => -1)).toBe(0);
    });

    it('refuses attempt numbers below 1 or not whole', () => {
      expect(() => schedule.nextAttemptDelay(0)).toThrow(RangeError);
      expect(() => schedule.nextAttemptDelay(1.5)).toThrow(RangeError);
    });
  });

  describe('shouldGiveUp', () => {
    const first = Date.UTC(2024, 4, 1);

    it('keeps retrying before maxAgeMs has passed since the first attempt', () => {
      expect(schedule.shouldGiveUp(first, first)).toBe(false);
      expect(schedule.shouldGiveUp(first, first + 3_600_000 - 1)).toBe(false);
    });

    it('gives up once maxAgeMs has passed since the first attempt', () => {
      expect(schedule.shouldGiveUp(first, first + 3_600_000)).toBe(true);
      expect(schedule.shouldGiveUp(first, first + 10 * 3_600_000)).toBe(true);
    });

    it('accepts Date objects as well as epoch milliseconds', () => {
      expect(schedule.shouldGiveUp(new Date(first), new Date(first + 3_599_999))).toBe(false);
      expect(schedule.shouldGiveUp(new Date(first), new Date(first + 3_600_000))).toBe(true);
    });
  });
});

describe('the default schedule', () => {
  const schedule = createRetrySchedule();

  it('retries for 3 days, as the contract promises', () => {
    const first = Date.UTC(2024, 4, 1);
    const threeDays = 3 * 24 * 60 * 60 * 1000;
    expect(defaultRetryScheduleOptions.maxAgeMs).toBe(threeDays);
    expect(schedule.shouldGiveUp(first, first + threeDays - 1)).toBe(false);
    expect(schedule.shouldGiveUp(first, first + threeDays)).toBe(true);
  });

  it('makes many attempts within those 3 days even with the longest draws', () => {
    let elapsed = 0;
    let attempts = 1;
    while (elapsed < defaultRetryScheduleOptions.maxAgeMs) {
      elapsed += schedule.nextAttemptDelay(attempts, almostOne);
      attempts++;
    }
    expect(attempts).toBeGreaterThanOrEqual(15);
  });
});

describe('invalid configuration', () => {
  it('is refused at construction with the name of the bad option', () => {
    expect(() => createRetrySchedule({ baseDelayMs: 0 })).toThrow(/baseDelayMs/);
    expect(() => createRetrySchedule({ maxAgeMs: Number.POSITIVE_INFINITY })).toThrow(/maxAgeMs/);
    expect(() => createRetrySchedule({ baseDelayMs: 10_000, maxDelayMs: 1_000 })).toThrow(/maxDelayMs/);
  });
});
