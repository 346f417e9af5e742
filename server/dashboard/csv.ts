import { once } from 'node:events';
import type { Response } from 'express';

/**
 * A CSV field: quoted when it holds a separator, and neutralised when a spreadsheet would read
 * it as a formula (a leading =, +, -, @, tab or carriage return), so an export cannot run code
 * in whoever opens it. Numbers stay numbers.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Streams rows as CSV, waiting for the client when it is slower than the database. */
export async function sendCsv(
  res: Response,
  filename: string,
  columns: string[],
  rows: AsyncIterable<Array<string | number | null>>,
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  res.write(`${columns.join(',')}\n`);
  for await (const row of rows) {
    if (!res.write(`${row.map(csvField).join(',')}\n`)) await once(res, 'drain');
    if (res.destroyed) return;
  }
  res.end();
}

/** A bulk payout upload's limits: payout lines after the header, and bytes (docs/decisions/0044). */
export const bulkMaxLines = 1000;
export const bulkMaxBytes = 256 * 1024;

/** One line of an uploaded CSV file: its number in the file (1 is the header) and its fields. */
export interface CsvLine {
  line: number;
  fields: string[];
}

/**
 * An uploaded CSV file's lines (RFC 4180: comma-separated, `"` quotes a field, `""` is a quote
 * inside one, CRLF or LF ends a line), blank lines skipped, a leading byte order mark ignored.
 * A quote left open is reported with the line it opened on.
 */
export function parseCsv(text: string): { lines: CsvLine[]; openQuoteAt: number | null } {
  const lines: CsvLine[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let startedAt = 1;
  let any = false;
  const endLine = () => {
    fields.push(field);
    if (any || fields.length > 1 || field !== '') lines.push({ line: startedAt, fields });
    fields = [];
    field = '';
    any = false;
  };
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
      any = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      endLine();
      line++;
      startedAt = line;
    } else field += c;
  }
  if (quoted) return { lines, openQuoteAt: startedAt };
  endLine();
  return { lines, openQuoteAt: null };
}
