import express, { type Express, type RequestHandler, Router } from 'express';
import type { Logger } from 'pino';
import { checkoutRoutes } from './checkout/routes.js';
import { dashboardRoutes } from './dashboard/router.js';
import { statementMaxBytes } from './domain/bank-batches.js';
import type { Deps } from './domain/context.js';
import { authenticateCaller } from './http/authenticate.js';
import { docsRoutes } from './http/docs.js';
import { handleErrors } from './http/error-handler.js';
import { inOrder } from './http/in-order.js';
import { jsonBody, refuseUnreadBodies, xmlBody } from './http/json-body.js';
import { contractValidator } from './http/openapi-validator.js';
import { OperationRouter } from './http/operation-router.js';
import { requireKeyPermission } from './http/permissions.js';
import { rateLimitPerAccount } from './http/rate-limit.js';
import { assignRequestId } from './http/request-id.js';
import { observeRequests } from './http/request-metrics.js';
import { headAgain, headAsGet, routeNotFound, strictApiRoutes } from './http/routing.js';
import { metricsRoute, noSniff } from './http/security-headers.js';
import { noteTextProblems, refuseTextProblems } from './http/text-fields.js';
import type { Metrics } from './observability/metrics.js';
import { balanceRoutes } from './routes/balance.js';
import { bankBatchRoutes } from './routes/bank-batches.js';
import { healthCheck } from './routes/health.js';
import { operationRoutes } from './routes/operations.js';
import { operatorCallbackRoutes } from './routes/operator-callbacks.js';
import { paymentRoutes } from './routes/payments.js';
import { payoutRoutes } from './routes/payouts.js';
import { serviceRoutes } from './routes/services.js';
import { topupRoutes } from './routes/topups.js';
import { webhookRoutes } from './routes/webhooks.js';

export interface AppOptions {
  deps: Deps;
  logger: Logger;
  metrics: Metrics;
  callLog: RequestHandler;
  /** Asks the settlement worker for a pass now (an operator called back). */
  wakeSettlement?: () => void;
}

/**
 * Builds the HTTP application without listening, so tests and the entry point share it. A
 * request goes through, in order: request id (and, once answered, metrics and the call log) →
 * under `/v1` (`apiRoutes`): authentication → rate limit → strict routing (404, 405, OPTIONS) →
 * the key role's permission for the operation (403) → JSON body (depth bounded) → text problems
 * noted → contract validation (with them) → the operation the validator matched (its write
 * idempotent)
 * (`apiOperations`); → (error handler).
 *
 * @example
 * const app = buildApp({ deps, logger });
 * app.listen(3000);
 */
export function buildApp({ deps, logger, metrics, callLog, wakeSettlement }: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use(inOrder(assignRequestId, noSniff, observeRequests(metrics, logger), callLog));
  // First, as nearly every request is the API's: it passes no other router on its way. No other
  // path begins with /v1.
  app.use('/v1', apiRoutes(deps));
  // Not public: the operator's scraper sends METRICS_TOKEN (docs/decisions/0007-secrets-at-rest.md).
  app.get('/metrics', metricsRoute(metrics, deps.config.metricsToken));

  // Pages outside the API: the contract, its docs, the hosted checkout and the merchant dashboard.
  app.use(docsRoutes(() => deps.config.publicUrl));
  app.use('/checkout', checkoutRoutes(deps));
  // Operators' callbacks: outside the API, unauthenticated, bodies never trusted.
  app.use('/operator-callbacks', operatorCallbackRoutes(deps, wakeSettlement ?? (() => undefined)));
  app.use('/dashboard', dashboardRoutes(deps));

  app.use(routeNotFound());
  app.use(handleErrors(deps, logger));
  return app;
}

/**
 * Everything under `/v1`, in one router: Express trims the prefix once for it, where the API's
 * steps mounted one by one on `/v1` had it trimmed and put back at each of them (a copy of the
 * URL each time; the router was the largest allocator of a request, docs/performance.md).
 */
function apiRoutes(deps: Deps): Router {
  const api = Router();
  const authenticate = authenticateCaller(deps);
  const operations = apiOperations(deps);
  api.use(
    inOrder(
      (req, res, next) => (req.path === '/healthz' ? next() : authenticate(req, res, next)),
      rateLimitPerAccount(
        { limit: deps.config.rateLimitPerWindow, windowMs: deps.config.rateLimitWindowMs },
        deps.store.counters,
      ),
      strictApiRoutes(),
      requireKeyPermission(),
      jsonBody(deps.config.bodyLimitBytes),
      xmlBody(statementMaxBytes),
      refuseUnreadBodies,
      // Noted, not refused yet: they are answered with every problem the validator finds.
      noteTextProblems,
      headAsGet,
      ...(contractValidator({ validateResponses: deps.config.validateResponses }) as RequestHandler[]),
      refuseTextProblems,
      headAgain,
    ),
  );

  api.use(operations.dispatch());
  return api;
}

/** Every operation of the contract and its handler, run on the route the validator matched. */
export function apiOperations(deps: Deps): OperationRouter {
  const operations = new OperationRouter();
  operations.get('/healthz', healthCheck(deps));
  paymentRoutes(deps, operations);
  payoutRoutes(deps, operations);
  bankBatchRoutes(deps, operations);
  topupRoutes(deps, operations);
  balanceRoutes(deps, operations);
  serviceRoutes(deps, operations);
  webhookRoutes(deps, operations);
  operationRoutes(deps, operations);
  return operations;
}
