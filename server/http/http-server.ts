import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * An HTTP server for `app` whose requests and responses are created with Express's prototypes
 * from the start, instead of `app.listen`'s plain Node ones.
 *
 * Express gives each request and response its own prototype with `Object.setPrototypeOf` when
 * it receives them (expressjs/express#5998). V8 then keeps the whole request's objects alive
 * through the next young-generation collection and promotes them, which lengthens every
 * collection's pause (docs/performance.md, "Requests born with Express's prototypes"). Express
 * still calls `setPrototypeOf`, with the prototype the object already has, which changes nothing.
 *
 * @example
 * const server = httpServerFor(buildApp(options));
 * server.listen(3000, '127.0.0.1');
 */
export function httpServerFor(app: Express): Server {
  // Node's constructors are plain functions (Node 20), so they run on an object whose
  // prototype is already Express's. Called by `new`, `Reflect.construct` would do the same, many
  // times slower (docs/performance.md; the bench's `bare` section).
  const nodeRequest = IncomingMessage as unknown as (this: object, socket: Socket) => void;
  const nodeResponse = ServerResponse as unknown as (
    this: object,
    req: IncomingMessage,
    options?: object,
  ) => void;
  function ExpressRequest(this: object, socket: Socket): void {
    nodeRequest.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: object, req: IncomingMessage, options?: object): void {
    nodeResponse.call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return createServer(
    {
      IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}
