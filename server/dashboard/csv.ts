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
