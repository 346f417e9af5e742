/**
 * Attack: requests that Node's HTTP parser, body-parser, `send` (static files) or the contract
 * validator refuse before any route runs. Each must be answered in the error envelope with the
 * request id (header and body), never as a 500, and never logged as an error, which would let
 * anyone flood the error alerts.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawReply } from '../support/api.js';
import { collectingLogger, errorsSince } from '../support/log-lines.js';
import { rawBytes } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('every 4xx raised below the routes is in the envelope, with the request id, and not an error log', () => {
  let server: TestServer;
  let port: number;
  const { logger, lines } = collectingLogger();

  beforeAll(async () => {
    server = await startTestServer({}, { logger });
    port = server.service.port;
  });
  afterAll(() => server.close());

  const auth = () => `Authorization: Bearer ${server.test.key}\r\nX-API-User: ${server.test.apiUser}\r\n`;

  function expectEnvelope(answer: RawReply, status: number, code: string) {
    expect(answer.status, answer.text).toBe(status);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const body = answer.body;
    expect(body.status).toBe('error');
    expect(body.error.code).toBe(code);
    expect(body.error.request_id).toMatch(/^req_/);
    expect(answer.headers.get('x-request-id')).toBe(body.error.request_id);
  }

  const cases: Array<{ name: string; status: number; code: string; bytes: () => string | Buffer }> = [
    {
      name: 'malformed HTTP framing (no version, bare LF junk)',
      status: 400,
      code: 'malformed_request',
      bytes: () => 'GARBAGE\x01 /v1/balance\r\n\r\n',
    },
    {
      name: 'a Content-Length that is not a number',
      status: 400,
      code: 'malformed_request',
      bytes: () => 'POST /v1/services HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    },
    {
      name: 'both Content-Length and chunked Transfer-Encoding (request smuggling)',
      status: 400,
      code: 'malformed_request',
      bytes: () =>
        'POST /v1/services HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    },
    {
      name: 'headers larger than the server accepts',
      status: 431,
      code: 'headers_too_large',
      bytes: () => `GET /v1/balance HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    },
    {
      name: 'an unsupported Content-Encoding',
      status: 415,
      code: 'unsupported_media_type',
      bytes: () => {
        const body = '{"name":"x"}';
        return `POST /v1/services HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Encoding: x-evil\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
      },
    },
    {
      name: 'a gzip body that is not gzip',
      status: 400,
      code: 'malformed_request',
      bytes: () => {
        const body = 'this is not gzip at all';
        return `POST /v1/services HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
      },
    },
    {
      name: 'a truncated gzip body',
      status: 400,
      code: 'malformed_request',
      bytes: () => {
        const body = gzipSync('{"name":"truncated shop"}').subarray(0, 12);
        return Buffer.concat([
          Buffer.from(
            `POST /v1/services HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
          ),
          body,
        ]);
      },
    },
    {
      name: 'an unsupported charset',
      status: 415,
      code: 'unsupported_media_type',
      bytes: () => {
        const body = '{"name":"x"}';
        return `POST /v1/services HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json; charset=latin1\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
      },
    },
    {
      name: 'a missing file under /docs',
      status: 404,
      code: 'route_not_found',
      bytes: () => 'GET /docs/missing.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    },
    {
      name: 'an encoded path traversal under /docs',
      status: 404,
      code: 'route_not_found',
      bytes: () => 'GET /docs/..%2f..%2fpackage.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    },
    {
      name: 'a double-dot segment under /docs sent raw',
      status: 404,
      code: 'route_not_found',
      bytes: () => 'GET /docs/%2e%2e/%2e%2e/package.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    },
    {
      name: 'a dotfile under /docs',
      status: 404,
      code: 'route_not_found',
      bytes: () => 'GET /docs/.env HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    },
    {
      name: 'a NUL byte in a /docs path',
      status: 400,
      code: 'malformed_request',
      bytes: () => 'GET /docs/index.html%00.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    },
    {
      name: 'a malformed percent-encoding under /docs',
      status: 400,
      code: 'malformed_request',
      bytes: () => 'GET /docs/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    },
  ];

  for (const attack of cases) {
    it(`${attack.name}: ${attack.status} ${attack.code}`, async () => {
      const before = lines.length;
      const answer = await rawBytes(port, attack.bytes());
      expectEnvelope(answer, attack.status, attack.code);
      expect(errorsSince(lines, before)).toEqual([]);
    });
  }

  it('the server still answers normally afterwards', async () => {
    expect((await server.raw('GET', '/balance')).status).toBe(200);
    expect(errorsSince(lines)).toEqual([]);
  });
});
