import { type RequestHandler, Router } from 'express';
import type { Deps } from '../domain/context.js';
import { operatorCallback } from '../domain/operator-callbacks.js';

const reference = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * `POST|PUT /operator-callbacks/{mtn-momo|orange-money}/{reference}`: where operators call
 * back (outside /v1 and the merchant contract: no key, the operators cannot send one). The
 * body is ignored; the reference only triggers an immediate status check. Every call is
 * answered 204 whatever it names, so the endpoint tells nobody which references exist.
 * See docs/decisions/0012-operator-callbacks.md.
 */
export function operatorCallbackRoutes(deps: Deps, wake: () => void): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const handle: RequestHandler = async (req, res) => {
    const ref = String(req.params.reference ?? '').toLowerCase();
    if (reference.test(ref) && (await operatorCallback(deps, ref))) wake();
    res.status(204).end();
  };
  for (const operator of ['mtn-momo', 'orange-money']) {
    router.post(`/${operator}/:reference`, handle);
    router.put(`/${operator}/:reference`, handle);
  }
  return router;
}
