import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Steps that every request of a router takes, one after the other, mounted as one Express
 * layer. Express's router matches each layer's path, allocates a match and a closure for it and
 * merges params at every step; for steps that apply to every path that is work with no result
 * (docs/performance.md).
 *
 * Same rules as Express 5 for the steps: `next()` goes on to the next step, `next(error)` (any
 * truthy value, `'route'` and `'router'` included) leaves the remaining steps and hands the value
 * to the router's own `next`, and a step that throws or returns a rejected promise is
 * `next(error)`. Error handlers (four parameters) do not belong here and are refused.
 */
export function inOrder(...steps: RequestHandler[]): RequestHandler {
  for (const step of steps) {
    if (step.length > 3) throw new TypeError(`inOrder: ${step.name || 'a step'} is an error handler`);
  }
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error) {
        done(error);
        return;
      }
      const step = steps[index++];
      if (step === undefined) {
        done();
        return;
      }
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise)
          result.catch((reason) => done(reason || new Error('Rejected promise')));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
