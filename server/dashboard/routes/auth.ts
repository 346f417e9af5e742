import { type Request, type Response, Router } from 'express';
import type { Deps } from '../../domain/context.js';
import {
  acceptLink,
  findLink,
  requestReset,
  resetLinkLifetimeMs,
  resetPassword,
  signIn,
  signOut,
  signOutEverywhere,
} from '../../domain/dashboard-users.js';
import { answerChallenge, beginSession, challengeLifetimeMs, findChallenge } from '../../domain/two-step.js';
import { clientAddress } from '../../http/client-address.js';
import type { Translator } from '../../i18n/translator.js';
import { sendMail } from '../../mail/smtp.js';
import type { DashboardUserRow } from '../../storage/rows.js';
import { csrfTokenFor } from '../csrf.js';
import { dashboardPath, translatorOf } from '../i18n.js';
import {
  clearCookie,
  preSessionCookie,
  readCookie,
  sessionCookie,
  setCookie,
  startSessionCookie,
} from '../session.js';
import { forgotPasswordPage, linkInvalidPage, newPasswordPage, signInPage } from '../views/auth.js';
import { enrolAtSignInPage, recoveryCodesPage, secondStepPage } from '../views/two-step.js';
import { bodyOf, plainContext, sendHtml } from './context.js';

/** How a refused sign-in answers. */
const refusals = {
  invalid: { status: 401, message: 'signIn.wrong' },
  locked: { status: 429, message: 'signIn.locked' },
  busy: { status: 503, message: 'signIn.busy' },
} as const;

/** Holds the challenge between a right password and the second step (server/domain/two-step.ts). */
const challengeCookie = 'dash_two_step';

/** The second steps of a sign-in: a code, or an owner's enrolment where the account requires it. */
const secondSteps = {
  code: { path: '/sign-in/two-step', action: 'sign-in' },
  enrol: { path: '/sign-in/enrol', action: 'enrol' },
} as const;

type OpenChallenge = NonNullable<Awaited<ReturnType<typeof findChallenge>>>;

/** How a refused second step answers on its page; any other refusal (`spent`) starts the sign-in again. */
function secondStepRefusal(problem: string) {
  if (problem === 'wrong') return { status: 401, message: 'twoStep.wrong' } as const;
  if (problem === 'locked') return { status: 429, message: 'twoStep.locked' } as const;
  return undefined;
}

/** A right second step: the challenge's cookie goes, the session's comes. */
function signedInAfterChallenge(
  deps: Deps,
  req: Request,
  res: Response,
  result: { user: DashboardUserRow; session?: { token: string } },
): void {
  req.context.dashboardUserId = result.user.id;
  clearCookie(deps, req, res, challengeCookie);
  clearCookie(deps, req, res, preSessionCookie);
  startSessionCookie(deps, req, res, result.session?.token ?? '');
}

/**
 * After a right password: the session, or the second step's page (the challenge in its cookie),
 * then the page asked for.
 */
async function afterPassword(
  deps: Deps,
  req: Request,
  res: Response,
  user: DashboardUserRow,
  next: string | undefined,
): Promise<void> {
  const start = await beginSession(deps, user, next ?? null);
  req.context.dashboardUserId = user.id;
  if ('session' in start) {
    clearCookie(deps, req, res, preSessionCookie);
    startSessionCookie(deps, req, res, start.session.token);
    return res.redirect(303, next ?? '/dashboard/test');
  }
  setCookie(deps, req, res, challengeCookie, start.challenge, challengeLifetimeMs);
  res.redirect(303, start.kind === 'code' ? '/dashboard/sign-in/two-step' : '/dashboard/sign-in/enrol');
}

/** Signing in and out, its second step, and the one-time links that set a password. */
export function authRoutes(deps: Deps): Router {
  const router = Router();

  router.get('/sign-in', (req, res) => {
    const next = dashboardPath(req.query.next);
    if (req.dashboard) return res.redirect(303, next ?? '/dashboard/test');
    const t = translatorOf(res);
    const ended = req.query.ended === '1' ? t.t('signIn.ended') : undefined;
    const notice =
      req.query.reset === '1'
        ? t.t('signIn.passwordChanged')
        : req.query.again === '1'
          ? t.t('twoStep.again')
          : undefined;
    sendHtml(
      res,
      200,
      signInPage(plainContext(req, res), csrfTokenFor(deps, req, res), { error: ended, notice, next }),
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
    await afterPassword(deps, req, res, result.user, next);
  });

  /** The challenge of this browser's sign-in, while open and of `kind`. */
  const challengeOf = async (req: Request, kind: 'code' | 'enrol') => {
    const found = await findChallenge(deps, readCookie(req, challengeCookie) ?? '');
    return found?.challenge.kind === kind ? found : undefined;
  };
  const startAgain = (res: Response) => res.redirect(303, '/dashboard/sign-in?again=1');

  /** The page of a second step: the code's, or an owner's enrolment with the key to add. */
  const stepPage = (req: Request, res: Response, found: OpenChallenge, error?: string) => {
    const pc = plainContext(req, res);
    const csrf = csrfTokenFor(deps, req, res);
    if (found.challenge.kind === 'code') return secondStepPage(pc, csrf, error);
    const secret = found.challenge.pending_secret ?? '';
    return enrolAtSignInPage(pc, csrf, { email: found.user.email, secret, ...(error ? { error } : {}) });
  };

  for (const [kind, { path, action }] of Object.entries(secondSteps) as Array<
    [keyof typeof secondSteps, (typeof secondSteps)[keyof typeof secondSteps]]
  >) {
    router.get(path, async (req, res) => {
      const found = await challengeOf(req, kind);
      if (!found) return startAgain(res);
      sendHtml(res, 200, stepPage(req, res, found));
    });

    router.post(path, async (req, res) => {
      const result = await answerChallenge(deps, {
        token: readCookie(req, challengeCookie) ?? '',
        code: bodyOf(req).code ?? '',
        action,
      });
      if (!result.ok) {
        // Out of tries, expired or used: the sign-in starts again.
        const refused = secondStepRefusal(result.problem);
        const found = refused && (await challengeOf(req, kind));
        if (!refused || !found) return startAgain(res);
        return sendHtml(res, refused.status, stepPage(req, res, found, translatorOf(res).t(refused.message)));
      }
      signedInAfterChallenge(deps, req, res, result);
      const next = result.next ?? '/dashboard/test';
      if (kind === 'code') return res.redirect(303, next);
      sendHtml(res, 200, recoveryCodesPage(plainContext(req, res), result.recoveryCodes ?? [], next));
    });
  }

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
    sendHtml(
      res,
      200,
      newPasswordPage(plainContext(req, res), csrfTokenFor(deps, req, res), { kind: 'welcome', token, user }),
    );
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
        newPasswordPage(
          plainContext(req, res),
          csrfTokenFor(deps, req, res),
          { kind: 'welcome', token, user },
          result.problem,
        ),
      );
    }
    await afterPassword(deps, req, res, result.user, undefined);
  });

  router.get('/forgot-password', (req, res) => {
    const mail = deps.config.mail !== null;
    sendHtml(res, 200, forgotPasswordPage(plainContext(req, res), csrfTokenFor(deps, req, res), { mail }));
  });

  router.post('/forgot-password', async (req, res) => {
    const t = translatorOf(res);
    const pc = plainContext(req, res);
    if (deps.config.mail === null) return sendHtml(res, 404, forgotPasswordPage(pc, '', { mail: false }));
    const result = await requestReset(deps, {
      email: (bodyOf(req).email ?? '').slice(0, 254),
      client: clientAddress(req, deps.config.trustProxy),
    });
    if (!result.ok) {
      const csrf = csrfTokenFor(deps, req, res);
      return sendHtml(res, 429, forgotPasswordPage(pc, csrf, { mail: true, error: t.t('forgot.locked') }));
    }
    // Sent after the answer, which is the same whether or not the email is a user's.
    if (result.sent) mailResetLink(deps, t, result.sent);
    sendHtml(res, 200, forgotPasswordPage(pc, '', { mail: true, sent: true }));
  });

  router.get('/reset/:token', async (req, res) => {
    const token = req.params.token as string;
    const user = await findLink(deps, token, 'reset');
    if (!user) return sendHtml(res, 404, linkInvalidPage(plainContext(req, res), 'reset'));
    sendHtml(
      res,
      200,
      newPasswordPage(plainContext(req, res), csrfTokenFor(deps, req, res), { kind: 'reset', token, user }),
    );
  });

  router.post('/reset/:token', async (req, res) => {
    const token = req.params.token as string;
    const result = await resetPassword(deps, token, bodyOf(req).password ?? '');
    if (!result.ok) {
      const user = await findLink(deps, token, 'reset');
      if (!user) return sendHtml(res, 404, linkInvalidPage(plainContext(req, res), 'reset'));
      const csrf = csrfTokenFor(deps, req, res);
      return sendHtml(
        res,
        400,
        newPasswordPage(plainContext(req, res), csrf, { kind: 'reset', token, user }, result.problem),
      );
    }
    req.context.dashboardUserId = result.user.id;
    clearCookie(deps, req, res, sessionCookie);
    res.redirect(303, '/dashboard/sign-in?reset=1');
  });

  return router;
}

/** Mails a reset link in the language it was asked in; a failure is logged, never shown. */
function mailResetLink(deps: Deps, t: Translator, sent: { email: string; token: string }): void {
  const mail = deps.config.mail;
  if (!mail) return;
  const link = `${deps.config.publicUrl}/dashboard/reset/${sent.token}`;
  const text = t.t('resetMail.body', { link, minutes: resetLinkLifetimeMs / 60_000 });
  sendMail(mail, sent.email, t.t('resetMail.subject'), text).then(
    () => deps.logger.info({ event: 'dashboard_reset_mailed' }, 'password reset link mailed'),
    (err: unknown) =>
      deps.logger.warn(
        { event: 'dashboard_reset_mail_failed', reason: (err as Error).message },
        'password reset link not mailed',
      ),
  );
}
