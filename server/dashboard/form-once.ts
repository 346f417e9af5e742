/**
 * A form that acts once however often it is sent (a double click, a reload that posts again):
 * each form the page renders carries a fresh random key, and its POST writes under that key as
 * an API request writes under its Idempotency-Key (server/domain/write.ts): the first sending
 * does the work and stores its answer in the same transaction; the next ones find it and do
 * nothing. One idempotency mechanism for the API and the dashboard
 * (docs/decisions/0042-dashboard-everyday-work.md).
 */
import { hash, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import type { Caller } from '../domain/context.js';
import { AlreadyAnswered, type Answer } from '../domain/write.js';
import type { Rendering } from '../storage/unit.js';
import { type Html, html } from './html.js';

/** The hidden field that carries a form's key. */
const formKeyField = '_once';

/** The hidden field of a form that must act once, for `postButton`: a new key at each rendering. */
export function onceField(): Record<string, string> {
  return { [formKeyField]: randomBytes(24).toString('base64url') };
}

/** The same field as markup, for a form written out in full. */
export function onceInput(): Html {
  const [[name, value]] = Object.entries(onceField()) as [[string, string]];
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

/**
 * An answer that stores the write's response under a dashboard key (`dashboard-form:<key>`, in
 * the caller's account and mode, apart from the API's keys by its prefix), for `fingerprinted`
 * only: the same key with other content is refused as the API refuses a reused key.
 */
export function keyedAnswer<R>(
  caller: Caller,
  key: string,
  rendering: Rendering<R, unknown>,
  fingerprinted: string,
  status = 200,
): Answer<R> {
  return {
    status,
    rendering,
    context: null,
    idempotency: {
      accountId: caller.accountId,
      mode: caller.mode,
      key: `dashboard-form:${key}`,
      fingerprint: hash('sha256', fingerprinted, 'hex'),
    },
  };
}

/**
 * How a posted form's write answers: under the form's key (the hidden field `onceField` put
 * in it), for this path and these fields only; a form without a valid key writes unkeyed.
 */
export function formAnswer<R>(
  req: Request,
  caller: Caller,
  rendering: Rendering<R, unknown>,
  fields: Record<string, string | undefined>,
): Answer<R> {
  const sent = (req.body as Record<string, unknown> | undefined)?.[formKeyField];
  const key = typeof sent === 'string' && /^[A-Za-z0-9_-]{32}$/.test(sent) ? sent : undefined;
  const fingerprinted = `${req.method} ${req.baseUrl}${req.path}\n${JSON.stringify(fields)}`;
  return key
    ? keyedAnswer(caller, key, rendering, fingerprinted)
    : { status: 200, rendering, context: null, idempotency: undefined };
}

/** Runs a form's write; false when the form's key had already done it (nothing was done again). */
export async function once(work: () => Promise<unknown>): Promise<boolean> {
  return (await onceOrStored(work)).done;
}

/**
 * Runs a keyed write: its result, or, when its key had already done it, the response stored
 * then (parsed JSON), so the page can name what was done the first time.
 */
export async function onceOrStored<R>(
  work: () => Promise<R>,
): Promise<{ done: true; value: R } | { done: false; stored: unknown }> {
  try {
    return { done: true, value: await work() };
  } catch (error) {
    if (error instanceof AlreadyAnswered) return { done: false, stored: JSON.parse(error.text) };
    throw error;
  }
}
