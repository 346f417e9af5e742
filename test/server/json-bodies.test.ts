/**
 * JSON request bodies: a plain one (`application/json`, its length announced, not compressed)
 * is read by the server's own reader (server/http/json-body.ts), any other by express.json().
 * Whichever reads it, a body gets the same answer, and a body cut short, split across packets
 * or preceded by a byte order mark is read as a client would expect.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonBody } from '../../server/http/json-body.js';
import { collectingLogger, errorsSince } from '../support/log-lines.js';
import { rawBytes, sendAndHangUp } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('JSON request bodies', () => {
  let server: TestServer;
  let port: number;
  const { logger, lines } = collectingLogger();
  let nextKey = 0;

  beforeAll(async () => {
    server = await startTestServer({}, { logger });
    port = server.service.port;
  });
  afterAll(() => server.close());

  /** The head of a POST /v1/services with a new Idempotency-Key and the given framing headers. */
  function head(framing: string, connection = 'Connection: close\r\n'): string {
    return (
      `POST /v1/services HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.test.key}\r\n` +
      `X-API-User: ${server.test.apiUser}\r\nIdempotency-Key: json-body-${++nextKey}\r\n` +
      `${framing}${connection}\r\n`
    );
  }

  /** Announced with Content-Length: the server's own reader. */
  const plain = (body: Buffer, type = 'application/json') =>
    Buffer.concat([Buffer.from(head(`Content-Type: ${type}\r\nContent-Length: ${body.length}\r\n`)), body]);

  /** Sent in chunks of unknown total length: express.json() reads it. */
  const chunked = (body: Buffer) =>
    Buffer.concat([
      Buffer.from(head('Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n')),
      Buffer.from(`${body.length.toString(16)}\r\n`),
      body,
      Buffer.from('\r\n0\r\n\r\n'),
    ]);

  async function serviceNames(): Promise<string[]> {
    const page = await server.raw('GET', '/services?limit=100');
    return page.body.data.items.map((item: { name: string }) => item.name);
  }

  const bodies: Array<{ name: string; body: Buffer; status: number; code?: string }> = [
    { name: 'an object the contract accepts', body: Buffer.from('{"name":"Plain shop"}'), status: 201 },
    {
      name: 'the same after a UTF-8 byte order mark',
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Marked shop"}')]),
      status: 201,
    },
    {
      name: 'whitespace around the object',
      body: Buffer.from(' \r\n\t{"name":"Spaced shop"} \n'),
      status: 201,
    },
    { name: 'JSON cut short', body: Buffer.from('{"name":'), status: 400, code: 'malformed_json' },
    {
      name: 'a JSON string, not an object',
      body: Buffer.from('"Bare shop"'),
      status: 400,
      code: 'malformed_json',
    },
    { name: 'a JSON number, not an object', body: Buffer.from('12'), status: 400, code: 'malformed_json' },
    { name: 'only whitespace', body: Buffer.from('   \n'), status: 400, code: 'malformed_json' },
    {
      name: 'bytes that are not UTF-8',
      body: Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]),
      status: 400,
      code: 'invalid_text',
    },
    {
      name: 'a lone UTF-16 surrogate',
      body: Buffer.from('{"name":"half \\ud800 pair"}'),
      status: 400,
      code: 'invalid_field',
    },
    {
      name: 'an unknown field',
      body: Buffer.from('{"name":"Shop","colour":"red"}'),
      status: 400,
      code: 'unknown_field',
    },
  ];

  for (const { name, body, status, code } of bodies) {
    it(`${name}: ${status}${code ? ` ${code}` : ''}, with Content-Length as in chunks`, async () => {
      for (const bytes of [plain(body), chunked(body)]) {
        const before = await serviceNames();
        const answer = await rawBytes(port, bytes);
        expect(answer.status, answer.text).toBe(status);
        const after = await serviceNames();
        if (code) {
          expect(answer.body.error.code).toBe(code);
          expect(after).toEqual(before);
        } else {
          expect(after.length).toBe(before.length + 1);
        }
      }
    });
  }

  it('reads a body that arrives in pieces, a character split between two of them, exactly', async () => {
    const body = Buffer.from('{"name":"Café ☕ corner"}');
    const cut = body.indexOf(Buffer.from('☕')) + 1; // inside the three bytes of ☕
    const whole = plain(body);
    const bodyStart = whole.length - body.length;
    const answer = await rawBytes(
      port,
      [
        whole.subarray(0, bodyStart + 5),
        whole.subarray(bodyStart + 5, bodyStart + cut),
        whole.subarray(bodyStart + cut),
      ],
      { pauseMs: 30 },
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.name).toBe('Café ☕ corner');
  });

  it('takes Content-Type in any letter case, with or without its UTF-8 charset', async () => {
    for (const type of [
      'Application/JSON',
      'application/json; charset=UTF-8',
      'application/json;charset=utf-8',
    ]) {
      const answer = await rawBytes(port, plain(Buffer.from(`{"name":"${type}"}`), type));
      expect(answer.status, `${type}: ${answer.text}`).toBe(201);
    }
  });

  it('a body announced over the limit is 413 payload_too_large at once, not after reading it', async () => {
    for (const type of ['application/json', 'application/merchant+json; charset=utf-8']) {
      // A client that would keep the connection: the server closes it.
      const answer = await rawBytes(
        port,
        `${head(`Content-Type: ${type}\r\nContent-Length: 70000000\r\n`, '')}{"name":"`,
      );
      expect(answer.status, answer.text).toBe(413);
      expect(answer.body.error.code).toBe('payload_too_large');
      expect(answer.headers.get('connection')).toBe('close');
    }
  });

  it('a client that hangs up in the middle of its body creates nothing and logs no error', async () => {
    const before = await serviceNames();
    const logged = lines.length;
    const body = Buffer.from('{"name":"Half a shop"}');
    const whole = plain(body);
    await sendAndHangUp(port, whole.subarray(0, whole.length - 8));
    const after = await serviceNames();
    expect(after).toEqual(before);
    expect(errorsSince(lines, logged)).toEqual([]);
    expect((await server.raw('GET', '/balance')).status).toBe(200);
  });
});

describe('a JSON body whose client hung up before the body was asked for', () => {
  it('ends the request as aborted instead of waiting for events that will not come', async () => {
    const reached: string[] = [];
    const app = express();
    // Stands for any step before the body is read (authentication reading the key): it goes on
    // only once the client is gone.
    app.use((req, _res, next) => {
      if (req.destroyed) next();
      else req.once('close', () => next());
    });
    app.use(jsonBody(1024));
    app.use((_req, res) => {
      reached.push('route');
      res.end();
    });
    const onError: ErrorRequestHandler = (err, _req, res, _next) => {
      reached.push(String(err.type));
      res.end();
    };
    app.use(onError);
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const body = '{"name":"Gone before read"}';
      await sendAndHangUp(
        (server.address() as AddressInfo).port,
        `POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      );
      await expect.poll(() => reached, { timeout: 2_000, interval: 10 }).toEqual(['request.aborted']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
