/** Digits of each currency's minor unit (ISO 4217): XAF has none, EUR has cents. */
const minorUnitDigits: Record<string, number> = {
  XAF: 0,
  XOF: 0,
  UGX: 0,
  RWF: 0,
  GNF: 0,
  GHS: 2,
  ZMW: 2,
  EUR: 2,
};

function minorUnitDigitsOf(currency: string): number {
  return minorUnitDigits[currency] ?? 2;
}

/** An amount in minor units as the operators' APIs take it, in major units: 2500 XAF is "2500", 250 EUR cents "2.50". */
export function majorUnitsText(amount: number, currency: string): string {
  const digits = minorUnitDigitsOf(currency);
  return digits === 0 ? String(amount) : (amount / 10 ** digits).toFixed(digits);
}
