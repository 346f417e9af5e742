import type { Request, RequestHandler, Response } from 'express';
import type { Deps } from '../domain/context.js';
import { resolveSession, type SignedIn, sessionAbsoluteMs } from '../domain/dashboard-users.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The signed-in dashboard user, their session and account. */
    dashboard?: SignedIn;
  }
}

export const sessionCookie = 'dash_session';
/** Holds the sign-in form's anti-forgery token before there is a session. */
export const preSessionCookie = 'dash_csrf';

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site sends it), Secure behind https. */
export function setCookie(
  deps: Deps,
  req: Request,
  res: Response,
  name: string,
  value: string,
  maxAgeMs: number,
) {
  const secure = req.secure || deps.config.publicUrl.startsWith('https://');
  res.append(
    'Set-Cookie',
    `${name}=${value}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(maxAgeMs / 1000)}${secure ? '; Secure' : ''}`,
  );
}

export function clearCookie(deps: Deps, req: Request, res: Response, name: string) {
  setCookie(deps, req, res, name, '', 0);
}

export function startSessionCookie(deps: Deps, req: Request, res: Response, token: string) {
  setCookie(deps, req, res, sessionCookie, token, sessionAbsoluteMs);
}

/** Finds the session of the cookie, if any and still valid; pages that need one check `req.dashboard`. */
export function loadSession(deps: Deps): RequestHandler {
  return async (req, _res, next) => {
    const token = readCookie(req, sessionCookie);
    if (token) {
      const signedIn = await resolveSession(deps, token);
      if (signedIn) {
        req.dashboard = signedIn;
        req.context.dashboardUserId = signedIn.user.id;
      }
    }
    next();
  };
}
