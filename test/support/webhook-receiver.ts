/** A real webhook receiver on a free 127.0.0.1 port, recording what it receives. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it was answered with. */
  status: number;
  /** When it arrived (epoch ms). */
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status codes to answer, in order; then `statusNow()`'s (200 without one). */
  answer(...statuses: number[]): void;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** The status to answer when no `answer()` is queued: asked at each delivery. */
  statusNow?: () => number;
  /** How long it takes to answer each delivery: the sender waits (and holds its lease) meanwhile. */
  delayMs?: number;
}

export async function startReceiver({
  statusNow = () => 200,
  delayMs = 0,
}: ReceiverOptions = {}): Promise<Receiver> {
  const received: Received[] = [];
  const queue: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = queue.shift() ?? statusNow();
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body, status, at: Date.now() });
      res.statusCode = status;
      if (delayMs > 0) setTimeout(() => res.end('ok'), delayMs);
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (...statuses) => queue.push(...statuses),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
