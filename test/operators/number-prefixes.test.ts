import { describe, expect, it } from 'vitest';
import { networkOf, numberPrefixes } from '../../server/operators/number-prefixes.js';

describe('the network of a number, by the prefix table', () => {
  it.each(numberPrefixes.map((range) => [range.prefix, range.network, range]))(
    'a Cameroonian number starting %s is %s',
    (_prefix, network, range) => {
      const number = range.prefix.padEnd(3 + range.nationalLength, '3');
      expect(number).toHaveLength(12);
      expect(networkOf(number)).toBe(network);
    },
  );

  // Literal numbers, not the named sandbox numbers of test/support/fixtures.ts: each row is a
  // numbering-plan case (a range, a length) and its digits are what the row proves.
  it.each([
    ['237660000000', 'Nexttel (66): no adapter'],
    ['237620000000', 'Camtel (62)'],
    ['237222000000', 'a Camtel fixed line'],
    ['23767000000', 'eight national digits'],
    ['2376700000000', 'ten national digits'],
    ['225070000000', 'another country'],
  ])('%s (%s) belongs to no listed network', (number) => {
    expect(networkOf(number)).toBeNull();
  });

  // Literal numbers: they sit in the overlap of the two prefixes, which is the point.
  it('a longer prefix wins over a shorter one', () => {
    const table = [
      { country: 'CM', prefix: '23765', network: 'mtn_momo' as const, nationalLength: 9 },
      { country: 'CM', prefix: '237655', network: 'orange_money' as const, nationalLength: 9 },
    ];
    expect(networkOf('237655123456', table)).toBe('orange_money');
    expect(networkOf('237651123456', table)).toBe('mtn_momo');
  });
});
