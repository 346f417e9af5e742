import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverWebhook, noAnswerError, type WebhookDeliveryRequest } from '../../server/webhooks/deliver.js';

// Timing bounds are deliberately loose: the point is "returns near the deadline instead of
// hanging", which must hold on a loaded 2-core CI machine too.
const SLACK_MS = 5_000;

interface TestServer {
  url: string;
  /** Requests that reached the server. */
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  /** Resolves when the first connection the server accepted has been closed. */
  firstConnectionClosed: Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

function trackConnections(server: Server): Promise<void> {
  const sockets = new Set<Socket>();
  let firstClosed!: () => void;
  const firstConnectionClosed = new Promise<void>((resolve) => {
    firstClosed = resolve;
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      firstClosed();
    });
  });
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return firstConnectionClosed;
}

/** A real HTTP receiver; `handler` runs once the request body has arrived. */
async function httpReceiver(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      handler(req, res);
    });
  });
  const firstConnectionClosed = trackConnections(server);
  return { url: await listen(server), requests, firstConnectionClosed };
}

/** A raw TCP receiver, for answers no HTTP server would send. */
async function tcpReceiver(onConnection: (socket: Socket) => void): Promise<TestServer> {
  const server = createTcpServer(onConnection);
  const firstConnectionClosed = trackConnections(server);
  return { url: await listen(server), requests: [], firstConnectionClosed };
}

function request(url: string, overrides: Partial<WebhookDeliveryRequest> = {}): WebhookDeliveryRequest {
  return {
    url,
    body: '{"id":"evt_1","event":"payment.completed"}',
    headers: { 'x-webhook-signature': 't=1700000000,v1=abc' },
    timeoutMs: 10_000,
    maxResponseBytes: 1024,
    ...overrides,
  };
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; elapsedMs: number }> {
  const started = performance.now();
  const value = await work;
  return { value, elapsedMs: performance.now() - started };
}

/** Writes one byte every `everyMs` until the connection closes. */
function drip(socket: Socket, everyMs: number): void {
  const timer = setInterval(() => socket.write('x'), everyMs);
  socket.on('close', () => clearInterval(timer));
  socket.on('error', () => clearInterval(timer));
}

describe('deliverWebhook', () => {
  describe('when the receiver answers 2xx', () => {
    it('POSTs the body and headers exactly as given and reports success', async () => {
      const receiver = await httpReceiver((_req, res) => res.writeHead(200).end('ok'));
      const result = await deliverWebhook(request(`${receiver.url}/hooks?x=1`));

      expect(result).toMatchObject({ ok: true, status: 200, error: null });
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
      expect(receiver.requests).toHaveLength(1);
      const [received] = receiver.requests;
      expect(received?.method).toBe('POST');
      expect(received?.path).toBe('/hooks?x=1');
      expect(received?.body).toBe('{"id":"evt_1","event":"payment.completed"}');
      expect(received?.headers['x-webhook-signature']).toBe('t=1700000000,v1=abc');
      expect(received?.headers['content-type']).toBe('application/json');
    });

    it('counts any 2xx as delivered, 204 without a body included', async () => {
      const receiver = await httpReceiver((_req, res) => res.writeHead(204).end());
      expect(await deliverWebhook(request(receiver.url))).toMatchObject({
        ok: true,
        status: 204,
        error: null,
      });
    });

    it('lets the caller override the content type', async () => {
      const receiver = await httpReceiver((_req, res) => res.writeHead(200).end());
      await deliverWebhook(
        request(receiver.url, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
      );
      expect(receiver.requests[0]?.headers['content-type']).toBe('application/json; charset=utf-8');
    });
  });

  describe('when the receiver answers something else', () => {
    it.each([400, 404, 500, 503])('reports HTTP %i as a failure with its status', async (status) => {
      const receiver = await httpReceiver((_req, res) => res.writeHead(status).end('nope'));
      const result = await deliverWebhook(request(receiver.url));
      expect(result).toMatchObject({ ok: false, status });
      expect(result.error).toContain(`HTTP ${status}`);
    });

    it.each([301, 302, 307, 308])(
      'treats a %i redirect as a failure and does not follow it',
      async (status) => {
        const target = await httpReceiver((_req, res) => res.writeHead(200).end());
        const receiver = await httpReceiver((_req, res) =>
          res.writeHead(status, { location: `${target.url}/elsewhere` }).end(),
        );
        const result = await deliverWebhook(request(receiver.url));

        expect(result).toMatchObject({ ok: false, status });
        expect(result.error).toMatch(/redirect/);
        expect(target.requests).toHaveLength(0);
      },
    );
  });

  describe('when the receiver is slow or hostile', () => {
    it('gives up near the deadline when the receiver never answers', async () => {
      const receiver = await httpReceiver(() => {});
      const { value, elapsedMs } = await timed(deliverWebhook(request(receiver.url, { timeoutMs: 500 })));

      expect(value).toMatchObject({ ok: false, status: null, error: noAnswerError });
      expect(elapsedMs).toBeGreaterThanOrEqual(450);
      expect(elapsedMs).toBeLessThan(500 + SLACK_MS);
      expect(value.durationMs).toBeGreaterThanOrEqual(450);
    });

    it('gives up near the deadline when the receiver accepts the connection but never reads or answers', async () => {
      const receiver = await tcpReceiver(() => {});
      const { value, elapsedMs } = await timed(deliverWebhook(request(receiver.url, { timeoutMs: 500 })));

      expect(value).toMatchObject({ ok: false, status: null, error: noAnswerError });
      expect(elapsedMs).toBeLessThan(500 + SLACK_MS);
    });

    it('gives up near the deadline when the receiver drips its status line and headers', async () => {
      const receiver = await tcpReceiver((socket) => {
        socket.write('HTTP/1.1 200 OK\r\nX-Slow: ');
        drip(socket, 50);
      });
      const { value, elapsedMs } = await timed(deliverWebhook(request(receiver.url, { timeoutMs: 500 })));

      expect(value).toMatchObject({ ok: false, status: null, error: noAnswerError });
      expect(elapsedMs).toBeLessThan(500 + SLACK_MS);
    });

    it('keeps a 2xx that arrived, but stops reading a body dripped after it at the deadline', async () => {
      const receiver = await tcpReceiver((socket) => {
        socket.once('data', () => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n');
          drip(socket, 50);
        });
      });
      const { value, elapsedMs } = await timed(deliverWebhook(request(receiver.url, { timeoutMs: 500 })));

      expect(value).toMatchObject({ ok: true, status: 200, error: null });
      expect(elapsedMs).toBeGreaterThanOrEqual(450);
      expect(elapsedMs).toBeLessThan(500 + SLACK_MS);
      await receiver.firstConnectionClosed;
    });

    it('reads at most maxResponseBytes of an endless body, then hangs up without waiting for the deadline', async () => {
      let bytesSent = 0;
      const receiver = await httpReceiver((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const pump = () => {
          while (!res.destroyed) {
            bytesSent += chunk.length;
            if (!res.write(chunk)) break;
          }
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
      const timeoutMs = 20_000;
      const { value } = await timed(
        deliverWebhook(request(receiver.url, { timeoutMs, maxResponseBytes: 64 * 1024 })),
      );

      expect(value).toMatchObject({ ok: true, status: 200, error: null });
      // Well before the deadline: it was the byte limit that ended the read.
      expect(value.durationMs).toBeLessThan(timeoutMs / 2);
      await receiver.firstConnectionClosed;
      expect(bytesSent).toBeGreaterThanOrEqual(64 * 1024);
    });

    it('still reports an error status when its endless body is cut off', async () => {
      const receiver = await httpReceiver((_req, res) => {
        res.writeHead(500);
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {}
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
      const result = await deliverWebhook(
        request(receiver.url, { timeoutMs: 20_000, maxResponseBytes: 1024 }),
      );
      expect(result).toMatchObject({ ok: false, status: 500 });
      expect(result.durationMs).toBeLessThan(10_000);
    });

    it('reports a connection reset before any answer as a failure without a status', async () => {
      const receiver = await tcpReceiver((socket) => {
        socket.once('data', () => socket.resetAndDestroy());
      });
      const result = await deliverWebhook(request(receiver.url));
      expect(result).toMatchObject({ ok: false, status: null });
      expect(result.error).toBe(noAnswerError);
    });

    it('keeps a 2xx whose body breaks off before its announced length', async () => {
      const receiver = await tcpReceiver((socket) => {
        socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial'));
      });
      expect(await deliverWebhook(request(receiver.url))).toMatchObject({
        ok: true,
        status: 200,
        error: null,
      });
    });

    it('reports an answer that is not HTTP as a failure', async () => {
      const receiver = await tcpReceiver((socket) => {
        socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
      });
      const result = await deliverWebhook(request(receiver.url));
      expect(result).toMatchObject({ ok: false, status: null });
      expect(result.error).toBe(noAnswerError);
    });
  });

  describe('when no connection can be made', () => {
    it('reports a refused connection', async () => {
      const closed = createTcpServer();
      const url = await listen(closed);
      await new Promise<void>((resolve) => closed.close(() => resolve()));

      const result = await deliverWebhook(request(url));
      expect(result).toMatchObject({ ok: false, status: null });
      // The same words as a timeout or a non-HTTP answer: results do not tell ports apart.
      expect(result.error).toBe(noAnswerError);
    });

    it('never throws, even for a URL or timeout it cannot use', async () => {
      await expect(deliverWebhook(request('not a url'))).resolves.toMatchObject({
        ok: false,
        status: null,
        error: 'The delivery could not be attempted: the URL is invalid.',
      });
      await expect(deliverWebhook(request('http://127.0.0.1:9/', { timeoutMs: -1 }))).resolves.toMatchObject({
        ok: false,
        error: 'The delivery could not be attempted: the timeout is invalid.',
      });
      await expect(
        deliverWebhook(request('http://127.0.0.1:9/', { headers: { 'x-bad': 'line\nbreak' } })),
      ).resolves.toMatchObject({
        ok: false,
        error: 'The delivery could not be attempted: a request header is invalid.',
      });
    });
  });
});
