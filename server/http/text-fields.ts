import { isUtf8 } from 'node:buffer';
import type { RequestHandler } from 'express';
import type { ApiErrorDetail } from '../domain/errors.js';
import { problemsError } from './validation-errors.js';

/**
 * The free-text fields people type and others read: names, descriptions, references. (Not the
 * values of `metadata`, which are the merchant's own data, returned to the merchant alone.)
 */
const textFields = new Set(['name', 'description', 'reference']);

/**
 * C0 and C1 control characters (NUL, tab and newline included), and the bidirectional overrides
 * and isolates that make text display in another order than it is stored (U+202A to U+202E,
 * U+2066 to U+2069). (Unpaired surrogates are found anywhere in a body: `loneSurrogate`.)
 */
const forbidden =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** A lone surrogate, in unicode mode: a proper pair is one code point outside the range. */
const loneSurrogate = /[\uD800-\uDFFF]/u;

/**
 * The longest key of a `metadata` object, in characters (code points, as the contract's
 * `maxLength` counts them). OpenAPI 3.0 has no `propertyNames`, so the contract states this limit
 * in words (its `Metadata` schema) and the body walk checks it; the other limits (50 keys, string
 * values of at most 500 characters) are the contract's own.
 */
const metadataKeyMaxLength = 40;

const metadataKeyProblem = (param: string, length: number): ApiErrorDetail => ({
  param,
  code: 'invalid_field',
  message: `The keys of ${param} must be at most ${metadataKeyMaxLength} characters long; one has ${length}.`,
});

/** Characters (code points) past the limit: one problem per metadata object, for its first such key. */
const tooLongKey = (names: string[]): number | undefined =>
  names
    .filter((name) => name.length > metadataKeyMaxLength)
    .map((name) => [...name].length)
    .find((length) => length > metadataKeyMaxLength);

const surrogateProblem = (param: string): ApiErrorDetail => ({
  param: param || 'body',
  code: 'invalid_field',
  message: `The field ${param || 'body'} contains a lone UTF-16 surrogate (an escape such as \\ud800 without its pair); send valid Unicode text.`,
});

const textProblem = (param: string): ApiErrorDetail => ({
  param,
  code: 'invalid_text',
  message: `${param} must not contain control characters, NUL or bidirectional-override characters.`,
});

/**
 * Every text problem of a parsed body, in the order of the body: a lone UTF-16 surrogate in any
 * string or key (`invalid_field`: JSON can escape half a pair, `"\ud800"`, which is no character
 * and would be stored as U+FFFD), and characters that hide or disguise what is displayed in a
 * name, description or reference (`invalid_text`). One problem per place. The walk keeps its own
 * stack, so no body, however it nests, can exhaust the call stack (the body's depth is bounded
 * anyway when it is read: `maxJsonDepth`).
 */
function textProblemsOf(body: unknown): ApiErrorDetail[] {
  const problems: ApiErrorDetail[] = [];
  const stack: Array<{ value: unknown; path: string; key: string }> = [{ value: body, path: '', key: '' }];
  while (stack.length > 0) {
    const { value, path, key } = stack.pop() as { value: unknown; path: string; key: string };
    if (typeof value === 'string') {
      if (loneSurrogate.test(value)) problems.push(surrogateProblem(path));
      else if (textFields.has(key) && forbidden.test(value)) problems.push(textProblem(path));
    } else if (Array.isArray(value)) {
      // Pushed last first, so they come off the stack in the body's order.
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: `${path}[${i}]`, key: '' });
    } else if (value && typeof value === 'object') {
      const keys = Object.keys(value);
      const children: Array<{ value: unknown; path: string; key: string }> = [];
      // A metadata object's keys are the merchant's, not field names: its values are free text.
      const metadata = key === 'metadata';
      const keyLength = metadata ? tooLongKey(keys) : undefined;
      if (keyLength !== undefined) problems.push(metadataKeyProblem(path, keyLength));
      for (const name of keys) {
        const childPath = path ? `${path}.${name}` : name;
        if (loneSurrogate.test(name)) problems.push(surrogateProblem(childPath));
        else
          children.push({
            value: (value as Record<string, unknown>)[name],
            path: childPath,
            key: metadata ? '' : name,
          });
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as (typeof children)[number]);
    }
  }
  return problems;
}

/**
 * Notes the text problems of a JSON body for the request's answer; refused later, together with
 * every problem the contract validator finds (`refuseTextProblems`, `requestValidationError`), so
 * one answer lists them all. (Invalid UTF-8 is refused while the body is read, see `utf8Only`.)
 */
export const noteTextProblems: RequestHandler = (req, _res, next) => {
  if (req.body !== undefined) {
    const problems = textProblemsOf(req.body);
    if (problems.length > 0) req.context.textProblems = problems;
  }
  next();
};

/** After the contract validator found nothing: a body with text problems is still refused. */
export const refuseTextProblems: RequestHandler = (req, _res, next) => {
  const problems = req.context.textProblems;
  if (problems) throw problemsError(problems);
  next();
};

/** body-parser `verify`: a body that is not valid UTF-8 is refused instead of patched with U+FFFD. */
export function utf8Only(_req: unknown, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) {
    throw Object.assign(new Error('The request body is not valid UTF-8.'), { type: 'entity.not.utf8' });
  }
}
