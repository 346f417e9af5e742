/** HTML-escaped values, and phone numbers as customers type them. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What customers type: spaces, dashes, brackets and a leading + are dropped. */
export function normaliseMsisdn(input: string): string | null {
  const digits = input
    .replace(/[\s\-().]/g, '')
    .replace(/^\+/, '')
    .replace(/^00/, '');
  return /^[1-9][0-9]{7,14}$/.test(digits) ? digits : null;
}
