import { randomBytes } from 'node:crypto';
import express, { type ErrorRequestHandler, type RequestHandler, Router } from 'express';
import { statementMaxBytes } from '../domain/bank-batches.js';
import type { Deps } from '../domain/context.js';
import { ApiError, fromStorage } from '../domain/errors.js';
import type { Translator } from '../i18n/translator.js';
import { csrfField, requireCsrfToken } from './csrf.js';
import { bulkMaxBytes } from './csv.js';
import { dashboardPath, localize, refusal, translatorOf } from './i18n.js';
import { multipartText } from './multipart.js';
import { authRoutes } from './routes/auth.js';
import { bankBatchRoutes } from './routes/bank-batches.js';
import { renderErrorPage } from './routes/context.js';
import { eventRoutes } from './routes/events.js';
import { exportRoutes } from './routes/exports.js';
import { keyRoutes } from './routes/keys.js';
import { languageRoutes } from './routes/language.js';
import { logRoutes } from './routes/logs.js';
import { moneyRoutes } from './routes/money.js';
import { serviceRoutes } from './routes/services.js';
import { settingsRoutes } from './routes/settings.js';
import { twoStepRoutes } from './routes/two-step.js';
import { userRoutes } from './routes/users.js';
import { webhookRoutes } from './routes/webhooks.js';
import { loadSession, readCookie, sessionCookie } from './session.js';

/** Every page: a fresh nonce for its one style and one script, nothing from anywhere else, never cached. */
const securityHeaders: RequestHandler = (_req, res, next) => {
  const nonce = randomBytes(16).toString('base64');
  res.locals.nonce = nonce;
  res.set({
    'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
  });
  next();
};

const publicPaths =
  /^\/(sign-in(\/two-step|\/enrol)?|forgot-password|welcome\/[^/]+|reset\/[^/]+|language\/[a-z]{2})$/;

/** Pages behind sign-in: without a valid session, back to the sign-in page. */
const requireSignedIn: RequestHandler = (req, res, next) => {
  if (req.dashboard || publicPaths.test(req.path)) return next();
  if (req.path === '/sign-out' || req.path === '/sign-out-everywhere')
    return res.redirect(303, '/dashboard/sign-in');
  const hadSession = readCookie(req, sessionCookie) !== undefined;
  // A page asked for by its address comes back after sign-in (only a path of this dashboard).
  const asked = req.method === 'GET' && req.path !== '/' ? dashboardPath(req.originalUrl) : undefined;
  const query = new URLSearchParams({
    ...(hadSession ? { ended: '1' } : {}),
    ...(asked ? { next: asked } : {}),
  }).toString();
  res.redirect(303, `/dashboard/sign-in${query ? `?${query}` : ''}`);
};

/**
 * The merchant dashboard at /dashboard: server-rendered pages that work without JavaScript,
 * acting through the same domain functions as the API. `/dashboard/test/...` shows the
 * sandbox, `/dashboard/live/...` live money: the mode is in every URL and on every page.
 */
export function dashboardRoutes(deps: Deps): Router {
  const router = Router({ strict: false });
  router.use(securityHeaders);
  // A bank statement pasted into its form (routes/bank-batches.ts) is the one large field.
  router.use(
    /^\/(test|live)\/bank-batches\/[^/]+\/statements$/,
    express.urlencoded({ extended: false, limit: statementMaxBytes * 2, parameterLimit: 10 }),
  );
  // A bulk payout's CSV: uploaded as a file (multipart, read by hand), pasted, or carried by its
  // confirmation page (URL-encoding may triple it).
  router.use(/^\/(test|live)\/payouts\/bulk$/, ...multipartText(bulkMaxBytes + 64 * 1024));
  router.use(
    /^\/(test|live)\/payouts\/bulk(\/send)?$/,
    express.urlencoded({ extended: false, limit: bulkMaxBytes * 3 + 16 * 1024, parameterLimit: 10 }),
  );
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 }));
  router.use(loadSession(deps));
  router.use(localize);
  router.use(languageRoutes(deps));
  router.use(requireSignedIn);
  router.use(
    requireCsrfToken((req, res) =>
      renderErrorPage(
        req,
        res,
        refusal(403, 'invalid_field', translatorOf(res).t('error.forged'), { param: csrfField }),
      ),
    ),
  );

  router.get('/', (_req, res) => res.redirect(303, '/dashboard/test'));
  router.use(authRoutes(deps));
  for (const mode of ['test', 'live'] as const) {
    router.use(
      `/${mode}`,
      exportRoutes(deps, mode),
      moneyRoutes(deps, mode),
      bankBatchRoutes(deps, mode),
      webhookRoutes(deps, mode),
      keyRoutes(deps, mode),
      logRoutes(deps, mode),
      userRoutes(deps, mode),
      settingsRoutes(deps, mode),
      twoStepRoutes(deps, mode),
      serviceRoutes(deps, mode),
      eventRoutes(deps, mode),
    );
  }

  router.use((req, res) =>
    renderErrorPage(req, res, refusal(404, 'route_not_found', translatorOf(res).t('error.noPage'))),
  );
  const handleErrors: ErrorRequestHandler = (err, req, res, _next) => {
    if (res.headersSent) return res.end();
    renderErrorPage(req, res, asApiError(fromStorage(err) ?? err, deps, translatorOf(res)));
  };
  router.use(handleErrors);
  return router;
}

/** Any error a page throws, as the ApiError its page shows; our own failures are logged. */
function asApiError(err: unknown, deps: Deps, t: Translator): ApiError {
  if (err instanceof ApiError) return err;
  // Express's body reader: a form it could not read.
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return refusal(
      status,
      status === 413 ? 'payload_too_large' : 'malformed_request',
      t.t('error.unreadable'),
      {
        cause: err,
      },
    );
  }
  deps.logger.error({ err }, 'dashboard page failed');
  return refusal(500, 'internal_error', t.t('error.ours'), { cause: err });
}
