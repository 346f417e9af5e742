import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { checkoutRoutes } from './checkout/routes.js';
import type { Deps } from './domain/context.js';
import { authenticateCaller } from './http/authenticate.js';
import { docsRoutes } from './http/docs.js';
import { handleErrors, routeNotFound } from './http/error-handler.js';
import { idempotentPosts } from './http/idempotency.js';
import { jsonBody } from './http/json-body.js';
import { contractValidator } from './http/openapi-validator.js';
import { rateLimitPerKey } from './http/rate-limit.js';
import { assignRequestId } from './http/request-id.js';
import { observeRequests } from './http/request-metrics.js';
import type { Metrics } from './observability/metrics.js';
import { balanceRoutes } from './routes/balance.js';
import { healthCheck } from './routes/health.js';
import { operationRoutes } from './routes/operations.js';
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
}

/**
 * Builds the HTTP application without listening, so tests and the entry point share it. A
 * request goes through, in order: request id (and, once answered, metrics and the call log) →
 * authentication → rate limit → JSON body → contract validation → idempotency → route →
 * (error handler).
 *
 * @example
 * const app = buildApp({ deps, logger });
 * app.listen(3000);
 */
export function buildApp({ deps, logger, metrics, callLog }: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use(assignRequestId);
  app.use(observeRequests(metrics, logger));
  app.use(callLog);
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  // Public pages, outside the API: the contract, its docs and the hosted checkout.
  app.use(docsRoutes(() => deps.config.publicUrl));
  app.use('/checkout', checkoutRoutes(deps));

  const authenticate = authenticateCaller(deps);
  app.use('/v1', (req, res, next) => (req.path === '/healthz' ? next() : authenticate(req, res, next)));
  app.use(
    '/v1',
    rateLimitPerKey({ limit: deps.config.rateLimitPerWindow, windowMs: deps.config.rateLimitWindowMs }),
  );
  app.use('/v1', jsonBody(deps.config.bodyLimitBytes));
  app.use(contractValidator({ validateResponses: deps.config.validateResponses }));
  app.use(idempotentPosts(deps));

  app.get('/v1/healthz', healthCheck(deps));
  app.use(
    '/v1',
    paymentRoutes(deps),
    payoutRoutes(deps),
    topupRoutes(deps),
    balanceRoutes(deps),
    serviceRoutes(deps),
    webhookRoutes(deps),
    operationRoutes(deps),
  );

  app.use(routeNotFound);
  app.use(handleErrors(deps, logger));
  return app;
}
