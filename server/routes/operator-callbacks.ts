import { type RequestHandler, Router } from 'express';
import type { Deps } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';
import { operatorCallback } from '../domain/operator-callbacks.js';
import { clientAddress } from '../http/client-address.js';
import { createRateLimiter } from '../http/rate-limiter.js';

/** Our ids' shape (server/domain/ids.ts); which kinds a callback may name is the domain's to say. */
const transactionId = /^[a-z]+_[0-9A-Za-z]{24}$/;
const reference = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * `POST|PUT /operator-callbacks/{mtn-momo|orange-money}/{transaction_id}/{reference}`: where
 * operators call back (outside /v1 and the merchant contract: no key, the operators cannot send
 * one), at the URL we gave with the request (server/operators/operator.ts, `callbackUrlFor`). The
 * body is ignored; the id and reference only trigger an immediate status check. Every call is
 * answered 204 whatever it names, so the endpoint tells nobody which movements exist.
 *
 * The form without the transaction id, which versions before this one gave operators, is
 * answered the same and does nothing: finding a row by its reference alone would need the index
 * that form was dropped with, and a request whose callback is lost settles by our polling.
 * See docs/decisions/0012-routing-callbacks-sandbox.md.
 *
 * Anyone can call these URLs, so each client address (behind a proxy, the one `TRUST_PROXY`
 * names) gets OPERATOR_CALLBACK_LIMIT calls per
 * OPERATOR_CALLBACK_WINDOW_MS (per process, in memory: counting them in the database would cost
 * the write a callback must not cost), then `429 rate_limited` with `Retry-After`; a callback
 * writes nothing and many for one movement ask the operator once at a time
 * (docs/decisions/0033-operator-callbacks-bounded.md).
 */
export function operatorCallbackRoutes(deps: Deps, wake: () => void): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const limiter = createRateLimiter({
    limit: deps.config.operatorCallbackLimit,
    windowMs: deps.config.operatorCallbackWindowMs,
  });
  router.use((req, _res, next) => {
    const decision = limiter.take(clientAddress(req, deps.config.trustProxy));
    if (decision.allowed) return next();
    const wait = String(decision.retryAfterSeconds);
    throw new ApiError(429, 'rate_limited', `Too many callbacks from this address; retry after ${wait} s.`, {
      headers: { 'Retry-After': wait },
    });
  });
  const handle: RequestHandler = async (req, res) => {
    const id = String(req.params.transactionId ?? '');
    const ref = String(req.params.reference ?? '').toLowerCase();
    if (transactionId.test(id) && reference.test(ref) && (await operatorCallback(deps, id, ref))) wake();
    res.status(204).end();
  };
  const ignore: RequestHandler = (_req, res) => {
    res.status(204).end();
  };
  for (const operator of ['mtn-momo', 'orange-money']) {
    router.post(`/${operator}/:transactionId/:reference`, handle);
    router.put(`/${operator}/:transactionId/:reference`, handle);
    router.post(`/${operator}/:reference`, ignore);
    router.put(`/${operator}/:reference`, ignore);
  }
  return router;
}
