/**
 * CEMAC bank accounts: the RIB (bank code 5, branch code 5, account number 11, key 2) and the
 * IBAN made of it (country, 2 check digits, the RIB). Pure functions: the domain checks an
 * account with them before anything is debited, the files name it with them.
 */

export interface BankAccountParts {
  iban: string;
  bankCode: string;
  branchCode: string;
  accountNumber: string;
  ribKey: string;
}

/** What is wrong with an account: the RIB key, or the IBAN's check digits. */
export type BankAccountProblem = 'rib_key' | 'iban_check_digits';

/**
 * The RIB key's digit of a character: digits are themselves, letters are 1 to 9 in turn
 * (A and J are 1, B, K and S are 2, ..., I, R and Z are 9), as French and CEMAC banks number them.
 */
function ribDigit(char: string): string {
  if (char >= '0' && char <= '9') return char;
  const code = char.charCodeAt(0) - 65;
  const shifted = code >= 18 ? code + 1 : code; // S is 2, as if the alphabet skipped one after R
  return String((shifted % 9) + 1);
}

const numeric = (text: string) => Number([...text].map(ribDigit).join(''));

/** The key of a bank code, branch code and account number: 97 - ((89 b + 15 g + 3 c) mod 97). */
export function ribKey(bankCode: string, branchCode: string, accountNumber: string): string {
  const remainder = (89 * numeric(bankCode) + 15 * numeric(branchCode) + 3 * numeric(accountNumber)) % 97;
  return String(97 - remainder).padStart(2, '0');
}

/** ISO 13616's remainder: the IBAN with its first 4 characters moved last, letters as 10 to 35, mod 97. */
function ibanRemainder(rearranged: string): number {
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' && char <= 'Z' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** The IBAN of a RIB in a country, its check digits computed (ISO 13616). */
export function ibanOf(country: string, rib: string): string {
  const check = 98 - ibanRemainder(`${rib}${country}00`);
  return `${country}${String(check).padStart(2, '0')}${rib}`;
}

/** Its parts, or what is wrong with it: the RIB key first (it says which characters to look at). */
export function checkIban(iban: string): BankAccountParts | BankAccountProblem {
  const rib = iban.slice(4);
  const parts = {
    iban,
    bankCode: rib.slice(0, 5),
    branchCode: rib.slice(5, 10),
    accountNumber: rib.slice(10, 21),
    ribKey: rib.slice(21, 23),
  };
  if (ribKey(parts.bankCode, parts.branchCode, parts.accountNumber) !== parts.ribKey) return 'rib_key';
  if (ibanRemainder(`${rib}${iban.slice(0, 4)}`) !== 1) return 'iban_check_digits';
  return parts;
}
