import express, { type RequestHandler } from 'express';

/**
 * A `multipart/form-data` form read by hand (RFC 7578), for the one form that uploads a file
 * (the bulk payouts' CSV, routes/money-out.ts) without a new dependency: its text fields and
 * files become `req.body`'s strings, each file's content as UTF-8 text. Fields of other forms
 * stay with the URL-encoded reader. At most `limit` bytes; a body it cannot read is left empty,
 * which the CSRF check then refuses.
 */
export function multipartText(limit: number): RequestHandler[] {
  return [
    express.raw({ type: 'multipart/form-data', limit }),
    (req, _res, next) => {
      const type = req.get('content-type') ?? '';
      if (!Buffer.isBuffer(req.body) || !type.startsWith('multipart/form-data')) return next();
      const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
      const fields: Record<string, string> = {};
      if (boundary) Object.assign(fields, partsOf(req.body, `--${boundary[1] ?? boundary[2]}`));
      req.body = fields;
      next();
    },
  ];
}

/** Each part's name and its content, as text; parts without a name are ignored. */
function partsOf(body: Buffer, delimiter: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  const marker = Buffer.from(`\r\n${delimiter}`);
  // The first delimiter has no CRLF before it: read from a body that has one.
  const text = Buffer.concat([Buffer.from('\r\n'), body]);
  let at = text.indexOf(marker);
  while (at !== -1) {
    const start = at + marker.length;
    if (text.subarray(start, start + 2).toString() === '--') break;
    const next = text.indexOf(marker, start);
    if (next === -1) break;
    const part = text.subarray(start + 2, next);
    const split = part.indexOf('\r\n\r\n');
    if (split !== -1) {
      const headers = part.subarray(0, split).toString('utf8');
      const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
      if (name && !Object.hasOwn(fields, name)) fields[name] = part.subarray(split + 4).toString('utf8');
    }
    at = next;
  }
  return fields;
}
