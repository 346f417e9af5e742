/**
 * Identifiers and secrets: the right shape, no repeats, every random base62 character equally
 * likely (including across refills of the pooled random bytes public ids come from), and ids
 * that sort in the order they were made.
 */
import { describe, expect, it } from 'vitest';
import { newId, randomBase62 } from '../../server/domain/ids.js';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Chi-square statistic of character counts against the uniform distribution over 62. */
function chiSquare(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  const expected = text.length / 62;
  let sum = 0;
  for (const c of alphabet) sum += ((counts.get(c) ?? 0) - expected) ** 2 / expected;
  return sum;
}

describe('newId', () => {
  it('is the prefix and 24 base62 characters, never twice in 200,000 (several pool refills)', () => {
    const ids = Array.from({ length: 200_000 }, () => newId('pay'));
    for (const id of ids.slice(0, 1000)) expect(id).toMatch(/^pay_[0-9A-Za-z]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // The 16 random characters after the time stamp. 61 degrees of freedom: 120 is far beyond
    // the 99.999th percentile (~112) of a fair source.
    expect(chiSquare(ids.map((id) => id.slice(12)).join(''))).toBeLessThan(120);
  });

  it('starts with the creation millisecond in base62, so later ids sort later', () => {
    expect(newId('pay', 0)).toMatch(/^pay_00000000[0-9A-Za-z]{16}$/);
    expect(newId('pay', 62)).toMatch(/^pay_00000010/);
    expect(newId('log', Date.UTC(2026, 10, 24))).toMatch(/^log_0VbqOO8G/);
    const times = [
      0,
      61,
      62,
      3_843,
      3_844,
      Date.UTC(2026, 0, 1),
      Date.UTC(2026, 0, 1) + 1,
      Date.UTC(8000, 0, 1),
    ];
    const ids = times.map((t) => newId('evt', t));
    expect([...ids].sort()).toEqual(ids);
    // The same millisecond asked again after another: the stamp follows the time asked.
    expect(newId('evt', 5).slice(4, 12)).toBe('00000005');
  });
});

describe('randomBase62 (secrets)', () => {
  it('gives the length asked, only base62, evenly spread', () => {
    const texts = Array.from({ length: 20_000 }, () => randomBase62(32));
    for (const t of texts.slice(0, 1000)) expect(t).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(new Set(texts).size).toBe(texts.length);
    expect(chiSquare(texts.join(''))).toBeLessThan(120);
  });
});
