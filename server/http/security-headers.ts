import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from '../domain/errors.js';
import type { Metrics } from '../observability/metrics.js';

/** Every response: browsers never guess a content type other than the one sent. */
export const noSniff: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};

/** A CSP on every response of the wrapped routes (the contract, the docs). */
export function contentSecurityPolicy(policy: string | (() => string)): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', typeof policy === 'string' ? policy : policy());
    next();
  };
}

/** For files that are data, never pages: nothing runs, nothing loads, nothing frames them. */
export const dataOnlyPolicy =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The docs page's policy: its inline scripts allowed by their SHA-256, computed from the page
 * exactly as it is served, nothing from another origin. Redoc injects its styles at run time
 * and runs its search in a blob worker, hence the two allowances.
 */
export function docsPolicy(page: string): string {
  const hashes = [...page.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)]
    .map(
      (m) =>
        `'sha256-${createHash('sha256')
          .update(m[1] ?? '')
          .digest('base64')}'`,
    )
    .filter((hash, i, all) => all.indexOf(hash) === i);
  return [
    "default-src 'none'",
    `script-src ${hashes.join(' ') || "'none'"}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * `GET /metrics`, for the operator's scraper only: it needs `Authorization: Bearer
 * <METRICS_TOKEN>`; without a token configured it does not exist (404).
 */
export function metricsRoute(metrics: Metrics, token: string | undefined): RequestHandler {
  const expected = token ? createHash('sha256').update(token).digest() : undefined;
  return async (req, res) => {
    if (!expected) throw new ApiError(404, 'route_not_found', 'No such path in this API.');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
    const given = createHash('sha256')
      .update(match?.[1] ?? '')
      .digest();
    if (!match || !timingSafeEqual(given, expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new ApiError(401, 'invalid_api_key', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
    }
    res.setHeader('Cache-Control', 'no-store');
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };
}
