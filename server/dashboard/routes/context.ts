import type { Request, Response } from 'express';
import type { Deps } from '../../domain/context.js';
import { callerFor, notAllowed, setFlash } from '../../domain/dashboard-users.js';
import { ApiError } from '../../domain/errors.js';
import type { DashboardRole, Mode } from '../../storage/rows.js';
import { can, type Permission } from '../auth.js';
import { type Html, html } from '../html.js';
import { errorText, refusal, translatorOf } from '../i18n.js';
import { label } from '../views/components.js';
import { type PageContext, type PlainContext, page, plainPage } from '../views/layout.js';

export type Query = Record<string, string | undefined>;

/** The request's query as plain strings (repeated or nested values are ignored). */
export function queryOf(req: Request): Query {
  const out: Query = {};
  for (const [key, value] of Object.entries(req.query))
    if (typeof value === 'string' && value) out[key] = value;
  return out;
}

export function bodyOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'string') out[key] = value;
    else if (Array.isArray(value)) out[key] = value.filter((v) => typeof v === 'string').join(',');
  }
  return out;
}

export function pageRequest(query: Query) {
  return { limit: 20, cursor: query.cursor };
}

export function sendHtml(res: Response, status: number, body: string): void {
  res.status(status).type('html').send(body);
}

/** What every signed-in page needs; reading the flash message clears it. */
async function contextFor(
  deps: Deps,
  req: Request,
  res: Response,
  mode: Mode,
  section: string,
): Promise<PageContext> {
  const signedIn = req.dashboard;
  if (!signedIn) throw new Error('signed-in page reached without a session');
  let flash: PageContext['flash'] = null;
  if (signedIn.session.flash) {
    flash = JSON.parse(signedIn.session.flash) as PageContext['flash'];
    await setFlash(deps, signedIn, null);
  }
  return {
    nonce: res.locals.nonce as string,
    csrf: signedIn.session.csrf_token,
    mode,
    user: signedIn.user,
    accountName: signedIn.account.name,
    section,
    t: translatorOf(res),
    path: req.originalUrl,
    flash,
  };
}

export async function render(
  deps: Deps,
  req: Request,
  res: Response,
  mode: Mode,
  section: string,
  title: string,
  content: (ctx: PageContext) => Html | Promise<Html>,
  status = 200,
): Promise<void> {
  const ctx = await contextFor(deps, req, res, mode, section);
  sendHtml(res, status, page(ctx, title, await content(ctx)));
}

/** The account and mode the page acts on; the call log records the request under them. */
export async function callerOf(deps: Deps, req: Request, mode: Mode) {
  if (!req.dashboard) throw new Error('signed-in page reached without a session');
  const caller = await callerFor(deps, req.dashboard, mode);
  req.context.caller = caller;
  return caller;
}

async function redirectWithFlash(
  deps: Deps,
  req: Request,
  res: Response,
  to: string,
  kind: 'ok' | 'error',
  text: string,
): Promise<void> {
  if (req.dashboard) await setFlash(deps, req.dashboard, JSON.stringify({ kind, text }));
  res.redirect(303, to);
}

/** What a page without a session needs: its nonce, language and the path it was asked at. */
export function plainContext(req: Request, res: Response): PlainContext {
  return { nonce: res.locals.nonce as string, t: translatorOf(res), path: req.originalUrl };
}

/**
 * The one place an error becomes a page: not found (also for another account's ids), not
 * allowed, bad input, our failure. Its code goes to the call log, as the API's do.
 */
export function renderErrorPage(req: Request, res: Response, error: ApiError): void {
  req.context.errorCode = error.code;
  const pc = plainContext(req, res);
  const { t } = pc;
  const { status } = error;
  const title = t.t(status === 404 ? 'error.notFound' : status === 403 ? 'error.notAllowed' : 'error.other');
  const back = req.dashboard ? html`<p><a href="/dashboard">${t.t('error.back')}</a></p>` : '';
  sendHtml(res, status, plainPage(pc, title, html`<p>${errorText(t, error)}</p>${back}`));
}

export function requirePermission(req: Request, res: Response, permission: Permission): void {
  const user = req.dashboard?.user;
  if (!user || !can(user.role, permission)) {
    const t = translatorOf(res);
    const denied = notAllowed(t.t('error.role', { role: user ? label(t, 'role', user.role) : '-' }));
    throw refusal(denied.status, denied.code, denied.message);
  }
}

/** The signed-in user's dashboard role. */
export function roleOf(req: Request): DashboardRole {
  const user = req.dashboard?.user;
  if (!user) throw new Error('signed-in page reached without a session');
  return user.role;
}

/**
 * Runs a dashboard action (a POST). Not found and not allowed get their page and status; any
 * other refusal of the domain's rules comes back as a message on the page the user was on.
 */
export async function act(
  deps: Deps,
  req: Request,
  res: Response,
  back: string,
  work: () => Promise<string | undefined>,
): Promise<void> {
  try {
    const done = await work();
    if (done !== undefined && !res.headersSent) await redirectWithFlash(deps, req, res, back, 'ok', done);
  } catch (err) {
    if (err instanceof ApiError) {
      if (err.status === 404 || err.status === 403) return renderErrorPage(req, res, err);
      req.context.errorCode = err.code;
      return redirectWithFlash(deps, req, res, back, 'error', errorText(translatorOf(res), err));
    }
    throw err;
  }
}
