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

  /** A GET of `path`, closing the connection after the answer. */
  const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
  /** An authenticated POST /v1/services of `body` with the headers given (each ending in CRLF). */
  const postServices = (headers: string, body: string | Buffer) =>
    Buffer.concat([
      Buffer.from(
        `POST /v1/services HTTP/1.1\r\nHost: x\r\n${auth()}${headers}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      ),
      Buffer.from(body),
    ]);
  const json = 'Content-Type: application/json\r\n';
  const post = 'POST /v1/services HTTP/1.1\r\nHost: x\r\n';

  const cases: Array<[name: string, status: number, code: string, bytes: () => string | Buffer]> = [
    [
      'malformed HTTP framing (no version, bare LF junk)',
      400,
      'malformed_request',
      () => 'GARBAGE\x01 /v1/balance\r\n\r\n',
    ],
    [
      'a Content-Length that is not a number',
      400,
      'malformed_request',
      () => `${post}Content-Length: abc\r\n\r\n`,
    ],
    [
      'both Content-Length and chunked Transfer-Encoding (request smuggling)',
      400,
      'malformed_request',
      () => `${post}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
    [
      'headers larger than the server accepts',
      431,
      'headers_too_large',
      () => `GET /v1/balance HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ],
    [
      'an unsupported Content-Encoding',
      415,
      'unsupported_media_type',
      () => postServices(`${json}Content-Encoding: x-evil\r\n`, '{"name":"x"}'),
    ],
    [
      'a gzip body that is not gzip',
      400,
      'malformed_request',
      () => postServices(`${json}Content-Encoding: gzip\r\n`, 'this is not gzip at all'),
    ],
    [
      'a truncated gzip body',
      400,
      'malformed_request',
      () =>
        postServices(
          `${json}Content-Encoding: gzip\r\n`,
          gzipSync('{"name":"truncated shop"}').subarray(0, 12),
        ),
    ],
    [
      'an unsupported charset',
      415,
      'unsupported_media_type',
      () => postServices('Content-Type: application/json; charset=latin1\r\n', '{"name":"x"}'),
    ],
    ['a missing file under /docs', 404, 'route_not_found', () => get('/docs/missing.js')],
    [
      'an encoded path traversal under /docs',
      404,
      'route_not_found',
      () => get('/docs/..%2f..%2fpackage.json'),
    ],
    [
      'a double-dot segment under /docs sent raw',
      404,
      'route_not_found',
      () => get('/docs/%2e%2e/%2e%2e/package.json'),
    ],
    ['a dotfile under /docs', 404, 'route_not_found', () => get('/docs/.env')],
    ['a NUL byte in a /docs path', 400, 'malformed_request', () => get('/docs/index.html%00.js')],
    ['a malformed percent-encoding under /docs', 400, 'malformed_request', () => get('/docs/%E0%A4%A')],
  ];

  for (const [name, status, code, bytes] of cases) {
    it(`${name}: ${status} ${code}`, async () => {
      const before = lines.length;
      const answer = await rawBytes(port, bytes());
      expectEnvelope(answer, status, code);
      expect(errorsSince(lines, before)).toEqual([]);
    });
  }

  it('the server still answers normally afterwards', async () => {
    expect((await server.raw('GET', '/balance')).status).toBe(200);
    expect(errorsSince(lines)).toEqual([]);
  });
});
