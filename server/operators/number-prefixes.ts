import type { PaymentMethod } from './operator.js';

/**
 * Which Mobile Money network serves a number, by country and prefix: data, not code. A number
 * is matched on its longest listed prefix (country code first, no `+`, as the API takes it).
 *
 * Cameroon (+237): nine-digit national numbers since 21 November 2014 (ITU-T operational
 * bulletin on the Cameroon numbering plan, ART Cameroon): 67 and 650-654 MTN Cameroon,
 * 69 and 655-659 Orange Cameroun (66 is Nexttel, 62 and 2 Camtel: no Mobile Money adapter).
 * Add a country or a new range by adding rows; test/operators/number-prefixes.test.ts checks
 * one number per range.
 */
export interface PrefixRange {
  country: string;
  /** Digits the number starts with, country code included. */
  prefix: string;
  network: PaymentMethod;
  /** National significant number length after the country code. */
  nationalLength: number;
}

export const numberPrefixes: readonly PrefixRange[] = [
  { country: 'CM', prefix: '23767', network: 'mtn_momo', nationalLength: 9 },
  { country: 'CM', prefix: '237650', network: 'mtn_momo', nationalLength: 9 },
  { country: 'CM', prefix: '237651', network: 'mtn_momo', nationalLength: 9 },
  { country: 'CM', prefix: '237652', network: 'mtn_momo', nationalLength: 9 },
  { country: 'CM', prefix: '237653', network: 'mtn_momo', nationalLength: 9 },
  { country: 'CM', prefix: '237654', network: 'mtn_momo', nationalLength: 9 },
  { country: 'CM', prefix: '23769', network: 'orange_money', nationalLength: 9 },
  { country: 'CM', prefix: '237655', network: 'orange_money', nationalLength: 9 },
  { country: 'CM', prefix: '237656', network: 'orange_money', nationalLength: 9 },
  { country: 'CM', prefix: '237657', network: 'orange_money', nationalLength: 9 },
  { country: 'CM', prefix: '237658', network: 'orange_money', nationalLength: 9 },
  { country: 'CM', prefix: '237659', network: 'orange_money', nationalLength: 9 },
];

/**
 * The numbering plan of each listed country: its calling code and the length of its national
 * numbers. The first country is the home of national numbers written without a country code
 * (`670000000` is `237670000000`): see server/domain/msisdn.ts.
 */
export const countries = [
  { country: 'CM', callingCode: '237', nationalLength: 9, nationalStart: /^[26]/ },
] as const;

const countryCodeLength: Record<string, number> = Object.fromEntries(
  countries.map((c) => [c.country, c.callingCode.length]),
);

/** The network of a number, or null when no listed range (of the right length) holds it. */
export function networkOf(
  msisdn: string,
  table: readonly PrefixRange[] = numberPrefixes,
): PaymentMethod | null {
  let best: PrefixRange | undefined;
  for (const range of table) {
    if (!msisdn.startsWith(range.prefix)) continue;
    const national = msisdn.length - (countryCodeLength[range.country] ?? 0);
    if (national !== range.nationalLength) continue;
    if (!best || range.prefix.length > best.prefix.length) best = range;
  }
  return best?.network ?? null;
}
