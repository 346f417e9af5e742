/**
 * `inOrder` (server/http/in-order.ts) runs a router's common steps as one Express layer; it must
 * keep Express 5's rules for them, or an error would be lost or a later step run after one.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { inOrder } from '../../server/http/in-order.js';

/** Runs `handler` on a fake request; resolves with what reached the router's `next`. */
function run(handler: RequestHandler): Promise<{ error: unknown; trail: string[] }> {
  const req = { trail: [] as string[] } as unknown as Request & { trail: string[] };
  return new Promise((resolve) => {
    handler(req, {} as Response, ((error?: unknown) => resolve({ error, trail: req.trail })) as NextFunction);
  });
}

const step =
  (name: string): RequestHandler =>
  (req, _res, next) => {
    (req as unknown as { trail: string[] }).trail.push(name);
    next();
  };

describe('inOrder', () => {
  it('runs the steps one after the other, then the router goes on', async () => {
    const asyncStep: RequestHandler = async (req, _res, next) => {
      await Promise.resolve();
      (req as unknown as { trail: string[] }).trail.push('async');
      next();
    };
    expect(await run(inOrder(step('a'), asyncStep, step('b')))).toEqual({
      error: undefined,
      trail: ['a', 'async', 'b'],
    });
  });

  it('hands next(error) to the router and runs no later step', async () => {
    const refuse: RequestHandler = (_req, _res, next) => next(new Error('refused'));
    const outcome = await run(inOrder(step('a'), refuse, step('never')));
    expect((outcome.error as Error).message).toBe('refused');
    expect(outcome.trail).toEqual(['a']);
  });

  it('turns a thrown error into next(error)', async () => {
    const boom: RequestHandler = () => {
      throw new Error('thrown');
    };
    const outcome = await run(inOrder(boom, step('never')));
    expect((outcome.error as Error).message).toBe('thrown');
    expect(outcome.trail).toEqual([]);
  });

  it('turns a rejected promise into next(error), and a rejection without a reason into an Error', async () => {
    const rejects: RequestHandler = async () => {
      throw new Error('rejected');
    };
    expect(((await run(inOrder(rejects))).error as Error).message).toBe('rejected');
    const rejectsEmpty: RequestHandler = () => Promise.reject(undefined);
    expect(((await run(inOrder(rejectsEmpty))).error as Error).message).toBe('Rejected promise');
  });

  it("passes 'router' and 'route' on, as Express does with any other value", async () => {
    for (const value of ['router', 'route']) {
      const leave: RequestHandler = (_req, _res, next) => next(value);
      expect(await run(inOrder(leave, step('never')))).toEqual({ error: value, trail: [] });
    }
  });

  it('refuses an error handler among its steps', () => {
    const handler = (_e: unknown, _req: Request, _res: Response, next: NextFunction) => next();
    expect(() => inOrder(step('a'), handler as unknown as RequestHandler)).toThrow(/error handler/);
  });
});
