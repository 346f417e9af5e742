/**
 * A real HTTP server on a free 127.0.0.1 port for the client's unit tests: each test scripts its
 * answers, and the server records every request it received, body included.
 */

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach } from 'vitest';
import { createPaymentsClient } from '../../client/src/index.js';
import { sandbox } from '../support/fixtures.js';

interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; `index` counts the requests received so far, from 0. */
export type Handler = (request: ReceivedRequest, res: ServerResponse, index: number) => unknown;

export interface LocalServer {
  baseUrl: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ReceivedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(request);
    try {
      await handler(request, res, requests.length - 1);
    } catch (error) {
      res.statusCode = 599;
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For a test file whose tests each serve their own answers: `clientFor(handler)` starts a
 * server with `handler` and returns an SDK client of it and the requests it received; each is
 * closed after its test.
 */
export function useLocalServers(): (
  handler: Handler,
) => Promise<{ client: ReturnType<typeof clientOf>; requests: ReceivedRequest[] }> {
  const open: LocalServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (handler) => {
    const server = await startLocalServer(handler);
    open.push(server);
    return { client: clientOf(server), requests: server.requests };
  };
}

/** A service id shaped as the contract's, for clients of servers that never check it. */
export const someServiceId = 'svc_D0ZWUJVoTsan5UIrjR1AgIMn';

/** A payment the contract accepts, for tests of the client rather than of payments. */
export const somePayment = {
  amount: 2500,
  currency: 'XAF',
  customer_msisdn: sandbox.mtn.succeeds,
  payment_method: 'mtn_momo',
  service_id: someServiceId,
} as const;

let requestCounter = 0;

/** A request id shaped as the contract's (`req_` and 24 alphanumerics). */
function newRequestId(): string {
  requestCounter += 1;
  return `req_${String(requestCounter).padStart(24, '0')}`;
}

/** Answers with a JSON body and the `X-Request-Id` header every API response carries. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': newRequestId(), ...headers });
  res.end(JSON.stringify(body));
}

/** Answers with the contract's error envelope, its `request_id` equal to the `X-Request-Id` header. */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  headers: Record<string, string> = {},
): string {
  const requestId = newRequestId();
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...headers });
  res.end(
    JSON.stringify({ status: 'error', error: { code, message: `${code} (test)`, request_id: requestId } }),
  );
  return requestId;
}

/** A sandbox client of `server` that never retries, so each test sees every answer once. */
export function clientOf(server: Pick<LocalServer, 'baseUrl'>, apiKey = 'sk_test_pages', apiUser = 'user-1') {
  return createPaymentsClient({
    apiKey,
    apiUser,
    baseUrl: server.baseUrl,
    sandbox: true,
    retry: { maxRetries: 0 },
  });
}

/** Serves `ids` newest first, `limit` per page; the cursor is the index of the next item. */
export function pagedList(ids: readonly string[]): Handler {
  return (request, res) => {
    const url = new URL(request.url, 'http://localhost');
    const limit = Number(url.searchParams.get('limit') ?? '20');
    const start = Number(url.searchParams.get('cursor') ?? '0');
    const items = ids
      .slice(start, start + limit)
      .map((transaction_id) => ({ transaction_id, status: 'success' }));
    const next = start + limit;
    sendJson(res, 200, {
      status: 'success',
      data: { items, has_more: next < ids.length, next_cursor: next < ids.length ? String(next) : null },
    });
  };
}
