import { Router } from 'express';
import type { Deps } from '../../domain/context.js';
import { acceptLink, findLink, signIn, signOut, signOutEverywhere } from '../../domain/dashboard-users.js';
import { clientAddress } from '../../http/client-address.js';
import { csrfTokenFor } from '../csrf.js';
import { dashboardPath, translatorOf } from '../i18n.js';
import { clearCookie, preSessionCookie, sessionCookie, startSessionCookie } from '../session.js';
import { linkInvalidPage, setPasswordPage, signInPage } from '../views/auth.js';
import { bodyOf, plainContext, sendHtml } from './context.js';

/** How a refused sign-in answers. */
const refusals = {
  invalid: { status: 401, message: 'signIn.wrong' },
  locked: { status: 429, message: 'signIn.locked' },
  busy: { status: 503, message: 'signIn.busy' },
} as const;

/** Signing in and out, and the one-time links that set a first password. */
export function authRoutes(deps: Deps): Router {
  const router = Router();

  router.get('/sign-in', (req, res) => {
    const next = dashboardPath(req.query.next);
    if (req.dashboard) return res.redirect(303, next ?? '/dashboard/test');
    const ended = req.query.ended === '1' ? translatorOf(res).t('signIn.ended') : undefined;
    sendHtml(
      res,
      200,
      signInPage(plainContext(req, res), csrfTokenFor(deps, req, res), { error: ended, next }),
    );
  });

  router.post('/sign-in', async (req, res) => {
    const body = bodyOf(req);
    const email = (body.email ?? '').slice(0, 254);
    const next = dashboardPath(body.next);
    const result = await signIn(deps, {
      email,
      password: body.password ?? '',
      client: clientAddress(req, deps.config.trustProxy),
    });
    if (!result.ok) {
      const { status, message } = refusals[result.reason];
      if (result.reason === 'busy') res.setHeader('Retry-After', '1');
      const refusal = translatorOf(res).t(message);
      return sendHtml(
        res,
        status,
        signInPage(plainContext(req, res), csrfTokenFor(deps, req, res), { error: refusal, email, next }),
      );
    }
    req.context.dashboardUserId = result.user.id;
    clearCookie(deps, req, res, preSessionCookie);
    startSessionCookie(deps, req, res, result.session.token);
    res.redirect(303, next ?? '/dashboard/test');
  });

  router.post('/sign-out', async (req, res) => {
    if (req.dashboard) await signOut(deps, req.dashboard);
    clearCookie(deps, req, res, sessionCookie);
    res.redirect(303, '/dashboard/sign-in');
  });

  router.post('/sign-out-everywhere', async (req, res) => {
    if (req.dashboard) await signOutEverywhere(deps, req.dashboard.user.id);
    clearCookie(deps, req, res, sessionCookie);
    res.redirect(303, '/dashboard/sign-in');
  });

  router.get('/welcome/:token', async (req, res) => {
    const token = req.params.token as string;
    const user = await findLink(deps, token);
    if (!user) return sendHtml(res, 404, linkInvalidPage(plainContext(req, res)));
    sendHtml(res, 200, setPasswordPage(plainContext(req, res), csrfTokenFor(deps, req, res), token, user));
  });

  router.post('/welcome/:token', async (req, res) => {
    const token = req.params.token as string;
    const result = await acceptLink(deps, token, bodyOf(req).password ?? '');
    if (!result.ok) {
      const user = await findLink(deps, token);
      if (!user) return sendHtml(res, 404, linkInvalidPage(plainContext(req, res)));
      return sendHtml(
        res,
        400,
        setPasswordPage(plainContext(req, res), csrfTokenFor(deps, req, res), token, user, result.problem),
      );
    }
    req.context.dashboardUserId = result.user.id;
    clearCookie(deps, req, res, preSessionCookie);
    startSessionCookie(deps, req, res, result.session.token);
    res.redirect(303, '/dashboard/test');
  });

  return router;
}
