import { randomBytes } from 'node:crypto';
import express, { type ErrorRequestHandler, type RequestHandler, Router } from 'express';
import { statementMaxBytes } from '../domain/bank-batches.js';
import type { Deps } from '../domain/context.js';
import { ApiError, fromStorage } from '../domain/errors.js';
import { csrfField, requireCsrfToken } from './csrf.js';
import { authRoutes } from './routes/auth.js';
import { bankBatchRoutes } from './routes/bank-batches.js';
import { renderErrorPage } from './routes/context.js';
import { keyRoutes } from './routes/keys.js';
import { logRoutes } from './routes/logs.js';
import { moneyRoutes } from './routes/money.js';
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

const publicPaths = /^\/(sign-in|welcome\/[^/]+)$/;

/** Pages behind sign-in: without a valid session, back to the sign-in page. */
const requireSignedIn: RequestHandler = (req, res, next) => {
  if (req.dashboard || publicPaths.test(req.path)) return next();
  if (req.path === '/sign-out' || req.path === '/sign-out-everywhere')
    return res.redirect(303, '/dashboard/sign-in');
  const hadSession = readCookie(req, sessionCookie) !== undefined;
  res.redirect(303, `/dashboard/sign-in${hadSession ? '?ended=1' : ''}`);
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
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 }));
  router.use(loadSession(deps));
  router.use(requireSignedIn);
  router.use(
    requireCsrfToken((req, res) =>
      renderErrorPage(
        req,
        res,
        new ApiError(
          403,
          'invalid_field',
          'This form has expired or did not come from this dashboard. Reload the page and try again.',
          { param: csrfField },
        ),
      ),
    ),
  );

  router.get('/', (_req, res) => res.redirect(303, '/dashboard/test'));
  router.use(authRoutes(deps));
  for (const mode of ['test', 'live'] as const) {
    router.use(
      `/${mode}`,
      moneyRoutes(deps, mode),
      bankBatchRoutes(deps, mode),
      webhookRoutes(deps, mode),
      keyRoutes(deps, mode),
      logRoutes(deps, mode),
      userRoutes(deps, mode),
    );
  }

  router.use((req, res) =>
    renderErrorPage(
      req,
      res,
      new ApiError(404, 'route_not_found', 'There is no such page in the dashboard.'),
    ),
  );
  const handleErrors: ErrorRequestHandler = (err, req, res, _next) => {
    if (res.headersSent) return res.end();
    renderErrorPage(req, res, asApiError(fromStorage(err) ?? err, deps));
  };
  router.use(handleErrors);
  return router;
}

/** Any error a page throws, as the ApiError its page shows; our own failures are logged. */
function asApiError(err: unknown, deps: Deps): ApiError {
  if (err instanceof ApiError) return err;
  // Express's body reader: a form it could not read.
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(
      status,
      status === 413 ? 'payload_too_large' : 'malformed_request',
      'The request could not be read. Reload the page and try again.',
      { cause: err },
    );
  }
  deps.logger.error({ err }, 'dashboard page failed');
  return new ApiError(500, 'internal_error', 'Something went wrong on our side. Try again in a moment.', {
    cause: err,
  });
}
