import { once } from 'node:events';
import type { Response } from 'express';
import { csvField } from '../http/csv.js';
import { localIso } from '../i18n/translator.js';
import type { Page } from '../storage/pagination.js';

type Cell = string | number | null;

/** Streams rows as CSV, waiting for the client when it is slower than the database. */
export async function sendCsv(
  res: Response,
  filename: string,
  columns: string[],
  rows: AsyncIterable<Cell[]>,
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

/** A list's export: its columns, each a header and the cell it takes from a row. */
export type CsvColumns<T> = ReadonlyArray<readonly [header: string, cell: (row: T) => Cell]>;

/**
 * The one way a dashboard list downloads: every row its filters match (not only the page on
 * screen), page by page through the list's own keyset pagination (bounded memory), in its
 * columns, then `created_local` in the account's zone (docs/decisions/0042-dashboard-everyday-work.md).
 */
export async function sendListCsv<T extends { created_at: number }>(
  res: Response,
  filename: string,
  timeZone: string,
  pageOf: (cursor: string | undefined) => Promise<Page<T>>,
  columns: CsvColumns<T>,
): Promise<void> {
  await sendCsv(
    res,
    filename,
    [...columns.map(([header]) => header), 'created_local'],
    (async function* () {
      let cursor: string | undefined;
      for (;;) {
        const page = await pageOf(cursor);
        for (const row of page.items) {
          yield [...columns.map(([, cell]) => cell(row)), localIso(row.created_at, timeZone)];
        }
        if (!page.next_cursor) return;
        cursor = page.next_cursor;
      }
    })(),
  );
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
