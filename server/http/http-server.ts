import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * An HTTP server for `app`, with the service's `timeouts` (Node's own without them: benchmarks
 * and tests of the prototypes), whose requests and responses are created with Express's prototypes
 * from the start, instead of `app.listen`'s plain Node ones.
 *
 * Express gives each request and response its own prototype with `Object.setPrototypeOf` when
 * it receives them (expressjs/express#5998). V8 then keeps the whole request's objects alive
 * through the next young-generation collection and promotes them, which lengthens every
 * collection's pause (docs/performance.md, "Requests born with Express's prototypes"). Express
 * still calls `setPrototypeOf`, with the prototype the object already has, which changes nothing.
 *
 * @example
 * const server = httpServerFor(buildApp(options), config.http);
 * server.listen(3000, '127.0.0.1');
 */
export function httpServerFor(app: Express, timeouts?: HttpTimeouts): Server {
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
  const server = createServer(
    {
      IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
      ...(timeouts
        ? {
            headersTimeout: timeouts.headersTimeoutMs,
            requestTimeout: timeouts.requestTimeoutMs,
            // Node looks for requests past their deadline every 30 s by default, so a 10 s
            // deadline could hold a slow client for 40 s: it looks 4 times per deadline, at
            // least every second.
            connectionsCheckingInterval: Math.min(1000, Math.ceil(timeouts.headersTimeoutMs / 4)),
          }
        : {}),
    },
    app,
  );
  if (timeouts) server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  return server;
}

/**
 * How long a client may take (docs/decisions/0032-requests-bounded.md): its headers, its whole
 * request, and an idle keep-alive connection. Past the first two it is answered `408` and its
 * connection closed (server/http/client-errors.ts); none of them is Node's default (60 s for
 * headers, 300 s for a request, 5 s idle).
 */
export interface HttpTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /**
   * Longer than clients keep idle connections (undici: 4 s), than a write may block the loop
   * waiting for another process's lock (busy_timeout: 5 s) and than a load balancer's idle
   * timeout (often 60 s), so the server never closes a connection a client is just reusing.
   */
  keepAliveTimeoutMs: number;
}
