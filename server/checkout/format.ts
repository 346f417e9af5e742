/** Text for people: amounts in their currency's usual form, and HTML-escaped values. */
import { minorUnitDigitsOf } from '../operators/minor-units.js';

export function formatAmount(amount: number, currency: string): string {
  const digits = minorUnitDigitsOf(currency);
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
