import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Deps } from '../domain/context.js';
import { preSessionCookie, readCookie, setCookie } from './session.js';

/** The hidden field every form carries. */
export const csrfField = '_csrf';

function same(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The token a form must send back: the session's own (synchronizer token), or before sign-in
 * the value of a pre-session cookie (double submit), so even the sign-in form cannot be
 * submitted from another site.
 */
export function csrfTokenFor(deps: Deps, req: Request, res: Response): string {
  if (req.dashboard) return req.dashboard.session.csrf_token;
  let token = readCookie(req, preSessionCookie);
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
    token = randomBytes(32).toString('base64url');
    setCookie(deps, req, res, preSessionCookie, token, 2 * 3600_000);
    // Later reads in this request see the new value.
    req.headers.cookie = `${req.get('cookie') ?? ''}; ${preSessionCookie}=${token}`;
  }
  return token;
}

/** Refuses every POST whose token does not match: 403 and nothing done. */
export function requireCsrfToken(onForged: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const sent = (req.body as Record<string, unknown> | undefined)?.[csrfField];
    const expected = req.dashboard ? req.dashboard.session.csrf_token : readCookie(req, preSessionCookie);
    if (typeof sent === 'string' && same(sent, expected)) return next();
    return onForged(req, res, next);
  };
}
