/**
 * What the operator simulators share: a real HTTP server on 127.0.0.1, JSON bodies, and the
 * fault switches every simulator honours (slow answers, 500s, connections dropped after the
 * request was recorded). Only loopback: a simulator never calls or listens anywhere else.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Faults {
  /** Every answer waits this long first. */
  slowMs: number;
  /** The next N money requests (POSTs that would record a request) answer 500 and record nothing. */
  fail500: number;
  /** The next N money requests are recorded, then the connection is destroyed with no answer. */
  dropAfterRecord: number;
  /** The next N status checks answer 500. */
  statusFail500: number;
  /** The next N token requests answer 500 (the operator's token service is down). */
  tokenFail500: number;
  /** Callbacks: sent once (`normal`), never (`lost`) or twice (`duplicated`). */
  callbacks: 'normal' | 'lost' | 'duplicated';
  /**
   * How much later than the outcome a callback is sent: a customer approving on the phone, so
   * never before the caller has recorded its request as sent (a callback within milliseconds
   * of the request would race that record on a busy machine).
   */
  callbackDelayMs: number;
}

export function defaultFaults(): Faults {
  return {
    slowMs: 0,
    fail500: 0,
    dropAfterRecord: 0,
    statusFail500: 0,
    tokenFail500: 0,
    callbacks: 'normal',
    callbackDelayMs: 1000,
  };
}

export interface SimRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type SimAnswer =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Destroy the connection without answering. */
  | 'drop';

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return Symbol.for('malformed');
  }
}

export async function listenOnLoopback(
  handle: (req: SimRequest) => Promise<SimAnswer>,
  faults: () => Faults,
  port = 0,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      const slow = faults().slowMs;
      if (slow > 0) await new Promise((r) => setTimeout(r, slow));
      const answer = await handle({
        method: req.method ?? 'GET',
        path: new URL(req.url ?? '/', 'http://127.0.0.1').pathname,
        headers: req.headers,
        body,
      });
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        ...(payload ? { 'content-type': 'application/json' } : {}),
        ...(answer.headers ?? {}),
      });
      res.end(payload);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${address.port}` };
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Posts a callback to a loopback URL only; anything else is refused (tests never leave the host). */
export async function postCallback(
  url: string,
  method: 'POST' | 'PUT',
  body: unknown,
): Promise<number | null> {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') return null;
  try {
    const response = await fetch(target, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}
