import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../server/http/rate-limiter.js';

const t0 = 1_700_000_000_000;

describe('createRateLimiter', () => {
  describe('a burst past the limit', () => {
    it('allows exactly `limit` calls in a window, counting down the remaining ones', () => {
      const limiter = createRateLimiter({ limit: 5, windowMs: 1_000 });
      const decisions = Array.from({ length: 5 }, (_, i) => limiter.take('key_a', t0 + i));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true]);
      expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
      expect(decisions.every((d) => d.limit === 5 && d.retryAfterSeconds === 0)).toBe(true);
    });

    it('refuses the calls after that with the seconds to wait until the window ends', () => {
      const limiter = createRateLimiter({ limit: 3, windowMs: 10_000 });
      for (let i = 0; i < 3; i++) limiter.take('key_a', t0);

      expect(limiter.take('key_a', t0 + 1)).toEqual({
        allowed: false,
        limit: 3,
        remaining: 0,
        resetSeconds: 10,
        retryAfterSeconds: 10,
      });
      // 2.5 s before the end of the window: round up, so a client that waits is never early.
      expect(limiter.take('key_a', t0 + 7_500)).toMatchObject({
        allowed: false,
        resetSeconds: 3,
        retryAfterSeconds: 3,
      });
      expect(limiter.take('key_a', t0 + 9_999)).toMatchObject({
        allowed: false,
        resetSeconds: 1,
        retryAfterSeconds: 1,
      });
    });

    it('never announces a reset of 0 seconds or a negative remaining count', () => {
      const limiter = createRateLimiter({ limit: 1, windowMs: 250 });
      for (let ms = 0; ms < 250; ms += 10) {
        const decision = limiter.take('key_a', t0 + ms);
        expect(decision.resetSeconds).toBe(1);
        expect(decision.remaining).toBeGreaterThanOrEqual(0);
      }
    });
  });

  describe('after the window', () => {
    it('starts a fresh window with the full limit', () => {
      const limiter = createRateLimiter({ limit: 2, windowMs: 1_000 });
      limiter.take('key_a', t0);
      limiter.take('key_a', t0 + 10);
      expect(limiter.take('key_a', t0 + 999).allowed).toBe(false);

      const fresh = limiter.take('key_a', t0 + 1_000);
      expect(fresh).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 1 });
      expect(limiter.take('key_a', t0 + 1_001).allowed).toBe(true);
      expect(limiter.take('key_a', t0 + 1_002).allowed).toBe(false);
    });

    it('times the new window from the first call after the old one, not from the clock', () => {
      const limiter = createRateLimiter({ limit: 1, windowMs: 1_000 });
      limiter.take('key_a', t0);
      limiter.take('key_a', t0 + 5_300);
      expect(limiter.take('key_a', t0 + 6_200).allowed).toBe(false);
      expect(limiter.take('key_a', t0 + 6_300).allowed).toBe(true);
    });
  });

  describe('several keys', () => {
    it('counts each key on its own', () => {
      const limiter = createRateLimiter({ limit: 2, windowMs: 1_000 });
      limiter.take('key_a', t0);
      limiter.take('key_a', t0);
      expect(limiter.take('key_a', t0).allowed).toBe(false);

      expect(limiter.take('key_b', t0)).toMatchObject({ allowed: true, remaining: 1 });
      expect(limiter.take('key_b', t0).allowed).toBe(true);
      expect(limiter.take('key_b', t0).allowed).toBe(false);
    });
  });

  describe('memory', () => {
    it('forgets keys whose window has ended as new calls arrive', () => {
      const limiter = createRateLimiter({ limit: 10, windowMs: 1_000 });
      for (let i = 0; i < 1_000; i++) limiter.take(`key_${i}`, t0);
      expect(limiter.size).toBe(1_000);

      // One key keeps calling after the others went quiet: their entries drain away.
      for (let i = 0; i < 500; i++) limiter.take('busy', t0 + 2_000 + i);
      expect(limiter.size).toBe(1);
    });

    it('keeps keys whose window is still running', () => {
      const limiter = createRateLimiter({ limit: 1, windowMs: 1_000 });
      for (let i = 0; i < 100; i++) limiter.take(`key_${i}`, t0 + i);
      for (let i = 0; i < 100; i++) limiter.take('busy', t0 + 500);
      expect(limiter.size).toBe(101);
      // Their counts survived: each of them is still refused.
      expect(limiter.take('key_42', t0 + 600).allowed).toBe(false);
    });

    it('never tracks more than maxKeys keys, however many arrive at once', () => {
      const limiter = createRateLimiter({ limit: 10, windowMs: 60_000, maxKeys: 1_000 });
      let largest = 0;
      for (let i = 0; i < 50_000; i++) {
        limiter.take(`key_${i}`, t0);
        largest = Math.max(largest, limiter.size);
      }
      expect(largest).toBe(1_000);
      expect(limiter.size).toBe(1_000);
      // The newest keys are the ones kept.
      expect(limiter.take('key_49999', t0).remaining).toBe(8);
    });
  });

  describe('a clock that steps backwards', () => {
    it('keeps counting in the current window and announces at most one window', () => {
      const limiter = createRateLimiter({ limit: 2, windowMs: 1_000 });
      limiter.take('key_a', t0);
      expect(limiter.take('key_a', t0 - 5_000)).toMatchObject({
        allowed: true,
        remaining: 0,
        resetSeconds: 1,
      });
      expect(limiter.take('key_a', t0 - 5_000).allowed).toBe(false);
    });
  });

  describe('configuration', () => {
    it('rounds a window that is not whole seconds up in RateLimit-Reset', () => {
      const limiter = createRateLimiter({ limit: 1, windowMs: 1_500 });
      expect(limiter.take('key_a', t0).resetSeconds).toBe(2);
      expect(limiter.take('key_a', t0 + 600).resetSeconds).toBe(1);
    });

    it('uses the clock when no time is given', () => {
      const limiter = createRateLimiter({ limit: 1, windowMs: 60_000 });
      expect(limiter.take('key_a').allowed).toBe(true);
      expect(limiter.take('key_a')).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    });

    it('refuses meaningless limits at construction', () => {
      expect(() => createRateLimiter({ limit: 0, windowMs: 1_000 })).toThrow(/limit/);
      expect(() => createRateLimiter({ limit: 1.5, windowMs: 1_000 })).toThrow(/limit/);
      expect(() => createRateLimiter({ limit: 10, windowMs: 0 })).toThrow(/windowMs/);
      expect(() => createRateLimiter({ limit: 10, windowMs: 1_000, maxKeys: 0 })).toThrow(/maxKeys/);
    });
  });
});
