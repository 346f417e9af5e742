import express, { type RequestHandler } from 'express';
import { ApiError } from '../domain/errors.js';
import { utf8Only } from './text-fields.js';

/**
 * Parses JSON bodies up to `limitBytes`. Malformed JSON and oversized bodies become errors the
 * error handler turns into `malformed_json` and `payload_too_large`; a body of another type is
 * left unparsed for the contract validator to refuse (`unsupported_media_type`).
 */
export function jsonBody(limitBytes: number) {
  return express.json({
    limit: limitBytes,
    strict: true,
    type: ['application/json', 'application/*+json'],
    verify: utf8Only,
  });
}

const jsonTypes = ['application/json', 'application/*+json'];

/**
 * A body the JSON parser did not read is refused, never ignored: on operations whose body is
 * optional (`POST /api-keys/rotate`, `POST /events/{id}/resend`) the contract validator lets a
 * body of another type (or of no type) through as if it were absent, so a rotation would drop
 * its `grace_period_seconds` and revoke the old key at once.
 */
export const refuseUnreadBodies: RequestHandler = (req, _res, next) => {
  const length = req.get('content-length');
  const hasBody = req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
  if (hasBody && !req.is(jsonTypes)) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.');
  }
  next();
};

/** Where in `value` a string (or a key) holds a lone UTF-16 surrogate, if anywhere. */
function loneSurrogateAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return /[\uD800-\uDFFF]/u.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogateAt(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (/[\uD800-\uDFFF]/u.test(key)) return childPath;
      const found = loneSurrogateAt(child, childPath);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * JSON can escape half of a UTF-16 pair (`"\ud800"`), which is no character at all: stored as
 * UTF-8 it would silently become U+FFFD. Such a body is refused, so what is stored is what was
 * sent.
 */
export const refuseLoneSurrogates: RequestHandler = (req, _res, next) => {
  if (req.body === undefined) return next();
  const at = loneSurrogateAt(req.body, '');
  if (at !== undefined) {
    throw new ApiError(
      400,
      'invalid_field',
      `The field ${at || 'body'} contains a lone UTF-16 surrogate (an escape such as \\ud800 without its pair); send valid Unicode text.`,
      at || undefined,
    );
  }
  next();
};
