/**
 * Real network pieces for the client's tests against the real server: a small HTTP proxy on
 * 127.0.0.1 that misbehaves on purpose in front of it, and a fetch that records every attempt
 * the client sends.
 */
import { createServer, type IncomingHttpHeaders, request as sendUpstream } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Fetch } from '../../client/src/index.js';

/** What the proxy does with one request. */
type ProxyAction =
  /** Passes the request to the server and its response back to the client. */
  | { kind: 'forward' }
  /** Answers itself; the server never sees the request. */
  | { kind: 'answer'; status: number; body: unknown; headers?: Record<string, string> }
  /** Passes the request to the server, waits for its full response, then closes the client's connection unanswered. */
  | { kind: 'forward-then-drop' };

/** Chooses the action for a request; `index` counts the requests received so far, from 0. */
export type ProxyPlan = (request: { method: string; url: string; index: number }) => ProxyAction;

interface ProxiedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  action: ProxyAction['kind'];
  /** The status the client was given, or the server's status when the client was given nothing. */
  status: number;
  /** The server's response, when the request reached it. */
  upstream?: { headers: IncomingHttpHeaders; body: string };
}

export interface Proxy {
  /** The proxy's address, `/v1` included, to use as the client's `baseUrl`. */
  baseUrl: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a proxy in front of `targetBaseUrl` (an `http://127.0.0.1:<port>/v1` address) that
 * handles each request as `plan` says.
 */
export async function startProxy(targetBaseUrl: string, plan: ProxyPlan): Promise<Proxy> {
  const target = new URL(targetBaseUrl);
  const requests: ProxiedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = req.method ?? '';
    const url = req.url ?? '';
    const action = plan({ method, url, index: requests.length });
    const record: ProxiedRequest = {
      method,
      url,
      headers: req.headers,
      body: body.toString('utf8'),
      action: action.kind,
      status: 0,
    };
    requests.push(record);

    if (action.kind === 'answer') {
      record.status = action.status;
      res.writeHead(action.status, { 'Content-Type': 'application/json', ...action.headers });
      res.end(JSON.stringify(action.body));
      return;
    }
    const upstream = await forward(target, method, url, req.headers, body);
    record.status = upstream.status;
    record.upstream = { headers: upstream.headers, body: upstream.body.toString('utf8') };
    if (action.kind === 'forward-then-drop') {
      req.socket.destroy();
      return;
    }
    res.writeHead(upstream.status, upstream.headers);
    res.end(upstream.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function forward(
  target: URL,
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const upstream = sendUpstream(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: url,
        headers: { ...headers, host: target.host },
      },
      async (response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of response) chunks.push(chunk as Buffer);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

export interface Attempt {
  method: string;
  url: string;
  status: number;
  idempotencyKey: string | null;
  retryAfter: string | null;
}

/**
 * The global fetch, recording each attempt the client sends through it (retries included,
 * since the client retries around the fetch it is given).
 */
export function recordingFetch(): { fetch: Fetch; attempts: Attempt[] } {
  const attempts: Attempt[] = [];
  return {
    attempts,
    fetch: async (request) => {
      const response = await globalThis.fetch(request);
      attempts.push({
        method: request.method,
        url: request.url,
        status: response.status,
        idempotencyKey: request.headers.get('Idempotency-Key'),
        retryAfter: response.headers.get('Retry-After'),
      });
      return response;
    },
  };
}
