/** `iso` writes times exactly as `Date.prototype.toISOString` does, for any time it accepts. */
import { describe, expect, it } from 'vitest';
import { iso } from '../../server/domain/clock.js';

describe('iso', () => {
  it('matches toISOString across days, leap years, both sides of 1970 and far years', () => {
    const times = [
      0,
      -1,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2026, 10, 24, 9, 30, 0, 5),
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(1900, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      -62_198_755_200_001, // year -1 (extended format)
      8.64e15,
      -8.64e15,
      1.5,
      -1.5,
      1_764_000_000_000.999,
    ];
    for (let t = Date.UTC(2026, 0, 1) - 3e9; t < Date.UTC(2026, 0, 1) + 3e9; t += 7_919_311) times.push(t);
    for (const t of times) expect(iso(t)).toBe(new Date(t).toISOString());
  });

  it('passes null through, and refuses what is not a time as toISOString does', () => {
    expect(iso(null)).toBeNull();
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(8.64e15 + 1)).toThrow(RangeError);
  });
});
