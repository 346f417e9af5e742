import type { Request, RequestHandler } from 'express';
import { contractMatch } from './openapi-validator.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface OperationOptions {
  /**
   * The operation's work is one named unit that stores its response under the request's
   * Idempotency-Key in its own transaction (`commitUnit`, server/domain/transaction.ts): a
   * repeated request is found there, by the key's uniqueness, so the key is not looked up
   * before it runs (server/http/idempotency.ts).
   */
  keyCheckedInUnit?: boolean;
}

/**
 * The API's operations, each registered under its method and path (Express's `:id` syntax,
 * under `/v1`), and run by what the contract validator already matched: one map lookup on
 * `req.openapi.openApiRoute` (`/v1/payments/{id}`) instead of Express matching the request's
 * path against each route in turn. A path the contract does not have never gets here
 * (`strictApiRoutes` answers 404 or 405 first); an operation of the contract without a handler
 * would be a 404, which the test of this file (`test/server/operation-router.test.ts`) rules out
 * for every operation of openapi.yaml.
 *
 * @example
 * const operations = new OperationRouter();
 * operations.get('/payments/:id', getPayment);
 * api.use(operations.dispatch());
 */
export class OperationRouter {
  readonly #handlers = new Map<string, RequestHandler>();
  readonly #keyCheckedInUnit = new Set<string>();

  get(path: string, handler: RequestHandler): void {
    this.#add('GET', path, handler);
  }

  post(path: string, handler: RequestHandler, options: OperationOptions = {}): void {
    const key = this.#add('POST', path, handler);
    if (options.keyCheckedInUnit) this.#keyCheckedInUnit.add(key);
  }

  put(path: string, handler: RequestHandler): void {
    this.#add('PUT', path, handler);
  }

  delete(path: string, handler: RequestHandler): void {
    this.#add('DELETE', path, handler);
  }

  /** `METHOD /v1/template` of every registered operation, as the contract spells its paths. */
  operations(): string[] {
    return [...this.#handlers.keys()];
  }

  /** Whether the operation the contract validator matched was registered `keyCheckedInUnit`. */
  keyCheckedInUnit(req: Request): boolean {
    const matched = contractMatch(req);
    return matched !== undefined && this.#keyCheckedInUnit.has(`${req.method} ${matched.openApiRoute}`);
  }

  /** Runs the handler of the operation the contract validator matched; HEAD runs GET's. */
  dispatch(): RequestHandler {
    return (req, res, next) => {
      const matched = contractMatch(req);
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const handler = matched && this.#handlers.get(`${method} ${matched.openApiRoute}`);
      if (!handler) return next();
      // Express gives each layer the params of its own path, none for this one: the operation's
      // are the ones the validator matched (and decoded).
      req.params = matched.pathParams;
      return handler(req, res, next);
    };
  }

  #add(method: Method, path: string, handler: RequestHandler): string {
    const key = `${method} /v1${path.replace(/:(\w+)/g, '{$1}')}`;
    if (this.#handlers.has(key)) throw new Error(`${key} is registered twice`);
    this.#handlers.set(key, handler);
    return key;
  }
}
