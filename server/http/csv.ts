/**
 * One CSV cell (RFC 4180 quoting). A text cell a spreadsheet would run as a formula (it starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`, which spreadsheets
 * show as text: an export never runs what someone typed. Numbers stay numbers; null is empty.
 * The API's report and every dashboard export write their cells with it.
 *
 * @example
 * csvField('=HYPERLINK("http://x")') // `"'=HYPERLINK(""http://x"")"`
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const s = typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
