import { countries } from '../operators/number-prefixes.js';
import { ApiError } from './errors.js';

/**
 * Phone numbers as people write them, in the one form stored, sent to operators and answered:
 * country code first, digits only (`237670000000`). Accepted: that form; `+` or `00` before the
 * country code; spaces, dots, dashes and brackets anywhere (`+237 6 70 00 00 00`); and a
 * national number of the home country (the first of `countries` in number-prefixes.ts: nine
 * digits in Cameroon, `670000000`). A number of a listed country must have its national length.
 * See docs/decisions/0034-numbers-normalised-and-matched-to-their-network.md.
 */
export const expectedMsisdnForm =
  'country code first, for example 237670000000 (+237 6 70 00 00 00, 00237670000000 and the nine-digit national 670000000 are read as that)';

/** The stored form of `input`, or null when it is not a usable phone number. */
export function canonicalMsisdn(input: string): string | null {
  const compact = input.trim().replace(/[\s\-().]/g, '');
  const home = countries[0];
  let digits: string;
  if (compact.startsWith('+')) digits = compact.slice(1);
  else if (compact.startsWith('00')) digits = compact.slice(2);
  else if (compact.length === home.nationalLength && home.nationalStart.test(compact)) {
    digits = home.callingCode + compact;
  } else digits = compact;
  if (!/^[1-9][0-9]{7,14}$/.test(digits)) return null;
  const country = countries.find((c) => digits.startsWith(c.callingCode));
  if (country && digits.length !== country.callingCode.length + country.nationalLength) return null;
  return digits;
}

/** The stored form of a number from a request, or `400 invalid_msisdn` naming the expected form. */
export function normaliseMsisdn(input: string, param: string): string {
  const canonical = canonicalMsisdn(input);
  if (canonical) return canonical;
  throw new ApiError(
    400,
    'invalid_msisdn',
    `The field ${param} is not a usable phone number: ${expectedMsisdnForm}.`,
    {
      param,
    },
  );
}
