import { isUtf8 } from 'node:buffer';
import type { RequestHandler } from 'express';
import { ApiError } from '../domain/errors.js';

/** The free-text fields people type and others read: names, descriptions, references. */
const textFields = new Set(['name', 'description', 'reference']);

/**
 * C0 and C1 control characters (NUL, tab and newline included), the bidirectional overrides
 * and isolates that make text display in another order than it is stored (U+202A to U+202E,
 * U+2066 to U+2069), and unpaired surrogates (`"\ud800"` in JSON: not valid Unicode).
 */
const forbidden =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function findBadText(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const param = path ? `${path}.${key}` : key;
      if (textFields.has(key) && typeof item === 'string' && forbidden.test(item)) return param;
      const found = findBadText(item, param);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Refuses a body whose names, descriptions or references hold characters that hide or
 * disguise what is displayed: `400 invalid_text` naming the field. (Invalid UTF-8 is refused
 * while the body is read, see `utf8Only`.)
 */
export const refuseUnsafeText: RequestHandler = (req, _res, next) => {
  const param = findBadText(req.body, '');
  if (param) {
    throw new ApiError(
      400,
      'invalid_text',
      `${param} must not contain control characters, NUL or bidirectional-override characters.`,
      { param },
    );
  }
  next();
};

/** body-parser `verify`: a body that is not valid UTF-8 is refused instead of patched with U+FFFD. */
export function utf8Only(_req: unknown, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) {
    throw Object.assign(new Error('The request body is not valid UTF-8.'), { type: 'entity.not.utf8' });
  }
}
