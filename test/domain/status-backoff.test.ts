import { describe, expect, it } from 'vitest';
import { nextStatusCheck } from '../../server/domain/status-backoff.js';

const base = { sentAt: 0, expiresAt: 3_600_000, pollMs: 250 };

describe('when a live operator is asked again about a pending request', () => {
  it('every poll at first, then a quarter of its age, at most a minute', () => {
    expect(nextStatusCheck({ ...base, now: 500 })).toBe(750);
    expect(nextStatusCheck({ ...base, now: 40_000 })).toBe(50_000);
    expect(nextStatusCheck({ ...base, now: 1_000_000 })).toBe(1_060_000);
  });

  it('not after its expiry, which is looked at on time', () => {
    expect(nextStatusCheck({ ...base, now: 3_590_000 })).toBe(3_600_000);
  });

  it("not before the pause the operator asked for (429's Retry-After)", () => {
    expect(nextStatusCheck({ ...base, now: 500, retryAfterMs: 5000 })).toBe(5500);
  });
});
