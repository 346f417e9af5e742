/**
 * The API's HTTP server (server/http/http-server.ts) creates its requests and responses with
 * Express's prototypes, so Express never has to swap them (what made V8 promote every request's
 * objects, docs/benchmarks.md). These tests pin that, and that Express works on them as usual.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { httpServerFor } from '../../server/http/http-server.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listening(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Whether each request reached the server already with Express's prototypes. */
function recordBirth(server: Server, app: Express): boolean[] {
  const born: boolean[] = [];
  // Runs before Express's own listener, so it sees the objects as Node created them.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    born.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
  });
  return born;
}

function demoApp(): Express {
  const app = express();
  app.use(express.json());
  app.post('/echo/:id', (req, res) => {
    res
      .status(201)
      .set('X-Seen', req.get('x-test') ?? '')
      .json({ id: req.params.id, body: req.body, q: req.query });
  });
  app.get('/fail', () => {
    throw new Error('boom');
  });
  app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: err.message });
  });
  return app;
}

describe('httpServerFor', () => {
  it('creates every request and response with Express prototypes, where app.listen does not', async () => {
    const app = demoApp();
    const ours = httpServerFor(app);
    const oursBorn = recordBirth(ours, app);
    const plain = createServer(app);
    const plainBorn = recordBirth(plain, app);
    for (const base of [await listening(ours), await listening(plain)]) {
      for (let i = 0; i < 3; i++)
        await fetch(`${base}/echo/${i}`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        });
    }
    expect(oursBorn).toEqual([true, true, true]);
    expect(plainBorn).toEqual([false, false, false]);
  });

  it('serves Express as usual: params, query, headers, JSON bodies, status, error handlers, HEAD', async () => {
    const base = await listening(httpServerFor(demoApp()));
    const posted = await fetch(`${base}/echo/abc?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test': 'yes' },
      body: JSON.stringify({ amount: 2500 }),
    });
    expect(posted.status).toBe(201);
    expect(posted.headers.get('x-seen')).toBe('yes');
    expect(await posted.json()).toEqual({ id: 'abc', body: { amount: 2500 }, q: { x: '1' } });

    const failed = await fetch(`${base}/fail`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'boom' });

    const head = await fetch(`${base}/fail`, { method: 'HEAD' });
    expect(head.status).toBe(500);
    expect(await head.text()).toBe('');

    const missing = await fetch(`${base}/nowhere`);
    expect(missing.status).toBe(404);
  });

  it('keeps requests apart on one kept-alive connection', async () => {
    const server = httpServerFor(demoApp());
    const sockets = new Set<unknown>();
    server.on('request', (req: IncomingMessage) => sockets.add(req.socket));
    const base = new URL(await listening(server));
    // One socket for all twenty: each request and response is a new object on it, and none
    // sees another's params, headers or body.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (i: number) =>
      new Promise<{ seen: unknown; json: unknown }>((resolve, reject) => {
        const req = httpRequest(base, {
          agent,
          method: 'POST',
          path: `/echo/${i}`,
          headers: { 'content-type': 'application/json', 'x-test': String(i) },
        });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ seen: res.headers['x-seen'], json: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ i }));
      });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i)));
    agent.destroy();
    answers.forEach((a, i) => {
      expect(a.seen).toBe(String(i));
      expect(a.json).toMatchObject({ id: String(i), body: { i } });
    });
    expect(sockets.size).toBe(1);
  });
});
