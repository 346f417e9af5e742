import type { Request, RequestHandler, Response } from 'express';
import { AlreadyAnswered, type Answer } from '../domain/write.js';
import type { Rendering } from '../storage/unit.js';
import { sendJson } from './envelope.js';
import { idempotencyKeyOf } from './idempotency.js';
import { contractMatch } from './openapi-validator.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How a write operation answers, declared once beside its route: its status and the rendering
 * of its response (server/http/renderings.ts), with what the rendering needs besides the result.
 */
export interface Answering<R, C> {
  status: number;
  rendering: Rendering<R, C>;
  /** Evaluated per request (`() => deps.clock.now()`), or none. */
  context?: () => C;
}

/**
 * The work of a write operation: it hands `answer` to the one write its response comes from
 * (server/domain/write.ts), which renders the response in its transaction and, with an
 * Idempotency-Key, stores it there.
 */
export type WriteHandler<R> = (req: Request, answer: Answer<R>, res: Response) => Promise<unknown>;

/**
 * The API's operations, each registered under its method and path (Express's `:id` syntax,
 * under `/v1`), and run by what the contract validator already matched: one map lookup on
 * `req.openapi.openApiRoute` (`/v1/payments/{id}`) instead of Express matching the request's
 * path against each route in turn. A path the contract does not have never gets here
 * (`strictApiRoutes` answers 404 or 405 first); an operation of the contract without a handler
 * would be a 404, which the test of this file (`test/server/operation-router.test.ts`) rules out
 * for every operation of openapi.yaml.
 *
 * Every POST is a write that declares how it answers (`Answering`), and is idempotent the one
 * way: its write looks the request's Idempotency-Key up, runs, renders and stores the response
 * in one transaction; the operation sends that response as rendered, and a request already
 * answered under its key gets the stored bytes again (`Idempotent-Replayed: true`).
 *
 * @example
 * const operations = new OperationRouter();
 * operations.get('/payments/:id', getPayment);
 * operations.post('/payouts', { status: 202, rendering: payoutResponse }, (req, answer) =>
 *   payouts.createPayout(deps, callerOf(req), req.body, answer));
 * api.use(operations.dispatch());
 */
export class OperationRouter {
  readonly #handlers = new Map<string, RequestHandler>();

  get(path: string, handler: RequestHandler): void {
    this.#add('GET', path, handler);
  }

  post<R, C>(path: string, answering: Answering<R, C>, handler: WriteHandler<R>): void {
    const operation = this.#add('POST', path, async (req, res) => {
      const answer: Answer<R> = {
        status: answering.status,
        rendering: answering.rendering as Rendering<R, unknown>,
        context: answering.context?.() ?? null,
        idempotency: idempotencyKeyOf(req),
      };
      try {
        await handler(req, answer, res);
      } catch (error) {
        if (!(error instanceof AlreadyAnswered)) throw error;
        res.setHeader('Idempotent-Replayed', 'true');
        sendJson(res, error.status, error.text);
        return;
      }
      if (answer.text === undefined) throw new Error(`${operation} ended without its write's response`);
      sendJson(res, answer.status, answer.text);
    });
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
