/** Text for people: amounts in their currency's usual form, and HTML-escaped values. */

const minorUnitDigits: Record<string, number> = { XAF: 0, XOF: 0, UGX: 0, RWF: 0, GNF: 0, GHS: 2, ZMW: 2 };

export function formatAmount(amount: number, currency: string): string {
  const digits = minorUnitDigits[currency] ?? 2;
  const value = amount / 10 ** digits;
  const text = value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${text.replace(/,/g, '\u202f')} ${currency}`;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
