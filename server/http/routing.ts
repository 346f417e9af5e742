import type { Request, RequestHandler } from 'express';
import { ApiError } from '../domain/errors.js';
import { contractDocument } from './contract.js';

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Route {
  template: string;
  pattern: RegExp;
  /** What `Allow` says: the contract's methods, HEAD beside GET, and OPTIONS. */
  allow: string[];
}

export interface RouteTable {
  /** The contract's path that `path` (under `/v1`, undecoded) is, matched exactly: case and slashes. */
  match(path: string): Route | undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The contract's paths, as exact, case-sensitive patterns under `/v1`. */
function routeTable(spec: { paths: Record<string, Record<string, unknown>> }): RouteTable {
  const routes: Route[] = Object.entries(spec.paths).map(([template, item]) => {
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : escapeRegExp(part)))
      .join('');
    const methods = httpMethods.filter((m) => m in item).map((m) => m.toUpperCase());
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    if (!methods.includes('OPTIONS')) methods.push('OPTIONS');
    return { template, pattern: new RegExp(`^/v1${source}$`), allow: methods };
  });
  return { match: (path) => routes.find((r) => r.pattern.test(path)) };
}

let contractRoutes: RouteTable | undefined;
function contractRouteTable(): RouteTable {
  contractRoutes ??= routeTable(contractDocument() as Parameters<typeof routeTable>[0]);
  return contractRoutes;
}

/** The request's path as sent, before any decoding or router rewriting. */
function rawPath(originalUrl: string): string {
  const end = originalUrl.search(/[?#]/);
  return end === -1 ? originalUrl : originalUrl.slice(0, end);
}

/**
 * Paths that carry a secret, and the part of each that is one: a hosted checkout's token (it
 * lets anyone pay the payment and read it), a dashboard invitation's or reset's one-time link, and an
 * operator callback's reference (with the movement's id, what makes a callback act). Case does
 * not matter: Express serves `/Checkout/...` as `/checkout/...`.
 */
const secretInPath =
  /^(\/+(?:checkout|dashboard\/+(?:welcome|reset)|operator-callbacks\/+[^/]+(?:\/+[a-z]+_[0-9A-Za-z]{24}(?=\/))?)\/+)[^/]+/i;

/**
 * A request's path as the logs keep it (the process log's `request` lines, the call log, error
 * lines): as sent, without its query string (where a one-time token could also travel), and
 * with the secret of a path that carries one replaced by `[REDACTED]`, as `Authorization` is
 * (docs/decisions/0032-requests-bounded.md). A log is read by more people than a secret may be.
 */
export function loggedPath(originalUrl: string): string {
  const path = rawPath(originalUrl);
  return secretInPath.test(path) ? path.replace(secretInPath, '$1[REDACTED]') : path;
}

export const apiPrefix = /^\/v1(?:[/?]|$)/i;

/**
 * The API's routing, strict and case-sensitive, decided from the contract before anything else
 * runs: `/v1/payments/`, `/v1/PAYMENTS` or `/V1/payments` are `404 route_not_found` (Express
 * alone would run the operation), a method the path does not have is `405` with `Allow`,
 * `OPTIONS` answers `204` with `Allow`, and `HEAD` is a `GET` without its body.
 */
export function strictApiRoutes(table: RouteTable = contractRouteTable()): RequestHandler {
  return (req, res, next) => {
    const path = rawPath(req.originalUrl);
    if (!apiPrefix.test(path)) return next();
    const route = table.match(path);
    if (!route) throw new ApiError(404, 'route_not_found', 'No such path in this API.');
    req.context.route = route.template;
    const allow = route.allow.join(', ');
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', allow);
      res.status(204).end();
      return;
    }
    if (!route.allow.includes(req.method)) {
      res.setHeader('Allow', allow);
      throw new ApiError(
        405,
        'method_not_allowed',
        `${route.template} does not accept ${req.method}; it accepts ${allow}.`,
      );
    }
    next();
  };
}

/**
 * The contract describes GET only, so the contract validator sees a HEAD request as the GET it
 * mirrors (`headAsGet`), and everything after it sees HEAD again (`headAgain`, and the error
 * handler). Node sends no body in answer to a HEAD, whatever the handler writes.
 */
export const headAsGet: RequestHandler = (req, _res, next) => {
  if (req.method === 'HEAD') {
    req.method = 'GET';
    req.context.headAsGet = true;
  }
  next();
};

export const headAgain: RequestHandler = (req, _res, next) => {
  restoreHead(req);
  next();
};

export function restoreHead(req: Request): void {
  if (req.context?.headAsGet) {
    req.method = 'HEAD';
    req.context.headAsGet = false;
  }
}

/** Paths outside the API; the ones that lack the `/v1` prefix are told so. */
export function routeNotFound(table: RouteTable = contractRouteTable()): RequestHandler {
  return (req) => {
    const path = rawPath(req.originalUrl);
    if (!apiPrefix.test(path)) {
      const route = table.match(`/v1${path}`);
      throw new ApiError(
        404,
        'route_not_found',
        route
          ? `No such path in this API. Every API path starts with /v1: did you mean /v1${path}?`
          : 'No such path in this API. Every API path starts with /v1 (for example /v1/payments).',
      );
    }
    throw new ApiError(404, 'route_not_found', 'No such path in this API.');
  };
}
