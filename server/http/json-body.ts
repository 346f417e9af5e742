import express, { type NextFunction, type Request, type RequestHandler } from 'express';
import { ApiError } from '../domain/errors.js';
import { utf8Only } from './text-fields.js';

/**
 * How deep a JSON body may nest objects and arrays (the outermost object is level 1). The
 * contract's deepest body is 3 levels (a bulk payout's item); 32 leaves room for any body to come
 * and bounds every walk over a body that follows, none of which then needs more than 32 frames.
 * Stated in the contract (`too_deeply_nested`, docs/decisions/0032-requests-bounded.md).
 */
export const maxJsonDepth = 32;

/**
 * The Content-Types of nearly every body clients send, lowercased: read by `readPlainJson`.
 * Any other spelling (`application/*+json`, other parameters, another charset) goes through
 * express.json(), which knows them all.
 */
const plainJsonTypes = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
]);

const jsonTypes = ['application/json', 'application/*+json'];

/** Body-parser's kind of error (its `type`), which the error handler turns into the envelope. */
function bodyError(type: string, message: string): Error {
  return Object.assign(new Error(message), { type });
}

const aborted = () => bodyError('request.aborted', 'request aborted');

const isJsonSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/**
 * Throws unless the JSON text in `bytes` nests at most `maxJsonDepth` levels: counted over the
 * bytes, in one pass and no recursion, before JSON.parse builds anything. Brackets inside
 * strings do not count (a `"` ends a string unless escaped; multi-byte UTF-8 never contains the
 * ASCII bytes looked at). Malformed text is left to JSON.parse.
 */
function withinDepth(bytes: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (inString) {
      if (byte === 0x5c)
        i += 1; // a backslash escapes the next byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      depth += 1;
      if (depth > maxJsonDepth) {
        throw bodyError(
          'entity.too.deep',
          `The request body nests objects and arrays more than ${maxJsonDepth} levels deep.`,
        );
      }
    } else if (byte === 0x7d || byte === 0x5d) depth -= 1;
  }
}

/** body-parser `verify` (and the same check on the plain path): valid UTF-8, depth bounded. */
function readableJson(req: unknown, res: unknown, bytes: Buffer): void {
  utf8Only(req, res, bytes);
  withinDepth(bytes);
}

/** JSON text of a strict body: an object or an array, as express.json({ strict: true }) wants. */
function parseStrict(text: string): unknown {
  // Skips JSON's whitespace (space, tab, LF, CR), as body-parser does, not the rest of Unicode's.
  let at = 0;
  while (isJsonSpace(text.charCodeAt(at))) at += 1;
  const first = text[at];
  if (first !== '{' && first !== '[') throw bodyError('entity.parse.failed', 'not a JSON object or array');
  try {
    return JSON.parse(text);
  } catch {
    throw bodyError('entity.parse.failed', 'malformed JSON');
  }
}

/**
 * Reads a plain JSON body, `length` bytes announced and within the limit, into `req.body`,
 * with the outcomes express.json() gives such a body (same error types, so the same answers):
 * invalid UTF-8 is `entity.not.utf8`, malformed or non-strict JSON `entity.parse.failed`, a
 * byte count other than announced `request.size.invalid`, a client gone before the end
 * `request.aborted`; a UTF-8 byte order mark is skipped, as iconv-lite does.
 *
 * It is body-parser's path without what such a body never needs (content negotiation, charset
 * tables, decompression, streams piped through), a visible part of a POST's main-thread time
 * (docs/performance.md).
 */
function readPlainJson(req: Request, length: number, next: NextFunction): void {
  // A client that hung up before its body was asked for (while the request was authenticated,
  // say) is gone with its events: none would come to end the wait.
  if (req.destroyed) {
    next(aborted());
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  const done = (error?: Error) => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('close', onClose);
    next(error);
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
  };
  const onEnd = () => {
    if (received !== length)
      return done(bodyError('request.size.invalid', 'request size did not match content length'));
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    try {
      readableJson(req, undefined, bytes); // the check express.json() runs as its `verify`
      req.body = parseStrict(bytes.toString('utf8', bom));
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
  const onError = () => done(aborted());
  const onClose = () => {
    if (!req.complete) done(aborted());
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
}

/**
 * Parses JSON bodies up to `limitBytes`. Malformed JSON and oversized bodies become errors the
 * error handler turns into `malformed_json` and `payload_too_large`; a body of another type is
 * left unparsed for the contract validator to refuse (`unsupported_media_type`).
 *
 * A plain body (`application/json`, UTF-8, not compressed, its length announced and within the
 * limit) is read by `readPlainJson`; every other request by express.json() itself.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const general = express.json({
    limit: limitBytes,
    strict: true,
    type: jsonTypes,
    verify: readableJson,
  });
  return (req, res, next) => {
    const { headers } = req;
    const type = headers['content-type'];
    const announced = headers['content-length'];
    const length = announced === undefined ? 0 : Number(announced);
    if (length > limitBytes && headers['content-encoding'] === undefined && req.is(jsonTypes)) {
      // Refused before it is read (express.json() would read it all first, however long it is),
      // and the connection closed after the answer, so the rest is never read either. (A
      // compressed body's limit is on what it inflates to: express.json() still reads those.)
      res.setHeader('Connection', 'close');
      next(bodyError('entity.too.large', 'request entity too large'));
      return;
    }
    if (
      type === undefined ||
      !plainJsonTypes.has(type.toLowerCase()) ||
      !(length > 0) ||
      headers['content-encoding'] !== undefined ||
      headers['transfer-encoding'] !== undefined
    ) {
      general(req, res, next);
      return;
    }
    readPlainJson(req, length, next);
  };
}

/**
 * Reads an XML body (a bank's camt.054 statement, POST /bank-batches/{id}/statements) as text
 * up to `limitBytes`, refusing invalid UTF-8; what it says is read by the domain, the only
 * operation that takes one. Every other body is left to the JSON parser's refusals.
 */
export function xmlBody(limitBytes: number): RequestHandler {
  return express.text({ type: ['application/xml', 'text/xml'], limit: limitBytes, verify: utf8Only });
}

/**
 * A body the JSON parser did not read is refused, never ignored: on operations whose body is
 * optional (`POST /api-keys/rotate`, `POST /events/{id}/resend`) the contract validator lets a
 * body of another type (or of no type) through as if it were absent, so a rotation would drop
 * its `grace_period_seconds` and revoke the old key at once.
 */
export const refuseUnreadBodies: RequestHandler = (req, _res, next) => {
  if (req.body !== undefined) return next(); // read as JSON (or as XML, xmlBody)
  const length = req.get('content-length');
  const hasBody = req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
  if (hasBody && !req.is(jsonTypes)) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.');
  }
  next();
};
