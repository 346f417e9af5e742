import type { Request, Response } from 'express';
import { isLocale, type Locale, languageCookie, negotiate } from './translator.js';

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The visitor's language: the one they chose (remembered in a cookie), else their browser's. */
export function localeOf(req: Request): Locale {
  const chosen = cookieValue(req, languageCookie);
  return isLocale(chosen) ? chosen : negotiate(req.get('accept-language'));
}

/**
 * Remembers a chosen language for a year, for the dashboard and the checkout page alike. It is
 * a preference, not a credential: readable by no script, sent by this site only.
 */
export function rememberLocale(res: Response, locale: Locale, secure: boolean): void {
  res.append(
    'Set-Cookie',
    `${languageCookie}=${locale}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${365 * 86_400}${secure ? '; Secure' : ''}`,
  );
}
