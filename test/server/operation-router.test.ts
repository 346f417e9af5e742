/**
 * The API's operations run on the route the contract validator matched (server/http/
 * operation-router.ts): every operation of openapi.yaml must have exactly one handler, or it
 * would answer 404 although documented, and no handler may exist without an operation.
 */
import type { Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { apiOperations } from '../../server/app.js';
import type { Deps } from '../../server/domain/context.js';
import { OperationRouter } from '../../server/http/operation-router.js';
import { serviceResponse } from '../../server/http/renderings.js';
import { operations } from '../support/spec.js';

describe('the operations under /v1', () => {
  it('has one handler for each operation of the contract, and none besides', () => {
    // Handlers are only built here, never run: the routes read deps when a request comes.
    const registered = apiOperations({ config: {} } as unknown as Deps).operations();
    const documented = operations().map((op) => `${op.method.toUpperCase()} /v1${op.path}`);
    expect(registered.sort()).toEqual(documented.sort());
    expect(registered.length).toBe(43);
  });
});

describe('OperationRouter', () => {
  const run = (router: OperationRouter, req: Partial<Request> & { openapi?: unknown }) =>
    new Promise<{ ran?: unknown; next: boolean }>((resolve) => {
      const result = router.dispatch()(req as Request, { locals: {} } as Response, () =>
        resolve({ next: true }),
      );
      if (result !== undefined)
        void (result as unknown as Promise<unknown>).then((ran) => resolve({ ran, next: false }));
    });
  const answer =
    (name: string): RequestHandler =>
    async (req) =>
      ({ name, params: req.params }) as never;

  const answering = { status: 201, rendering: serviceResponse };

  it('runs the matched operation with the path params the validator decoded; HEAD runs GET', async () => {
    const router = new OperationRouter();
    router.get('/payments/:id', answer('get'));
    router.post('/payments', answering, async () => undefined);
    const openapi = { openApiRoute: '/v1/payments/{id}', pathParams: { id: 'pay 1' } };
    expect(await run(router, { method: 'GET', params: {}, openapi })).toEqual({
      ran: { name: 'get', params: { id: 'pay 1' } },
      next: false,
    });
    expect((await run(router, { method: 'HEAD', params: {}, openapi })).ran).toMatchObject({ name: 'get' });
  });

  it('leaves what it has no handler for to the next step', async () => {
    const router = new OperationRouter();
    router.get('/payments/:id', answer('get'));
    const openapi = { openApiRoute: '/v1/payments/{id}', pathParams: { id: 'x' } };
    expect(await run(router, { method: 'DELETE', params: {}, openapi })).toEqual({ next: true });
    expect(await run(router, { method: 'GET', params: {} })).toEqual({ next: true });
  });

  it('refuses an operation registered twice', () => {
    const router = new OperationRouter();
    router.post('/payments', answering, async () => undefined);
    expect(() => router.post('/payments', answering, async () => undefined)).toThrow(
      /POST \/v1\/payments is registered twice/,
    );
  });
});
