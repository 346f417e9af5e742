/**
 * Attack: a client that holds a connection by sending its request slowly (slowloris): its
 * headers a byte at a time, or complete headers and then its body a byte at a time. The server's
 * deadlines (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS; small here so the test is quick)
 * cut it off in bounded time with `408` in the envelope, and log no error. A connection idle
 * between two requests is not such a client. Over raw sockets against a real listener.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectingLogger, errorsSince } from '../support/log-lines.js';
import { startTestServer, type TestServer } from '../support/server.js';

const headersTimeoutMs = 300;
const requestTimeoutMs = 600;

let server: TestServer;
const { logger, lines } = collectingLogger();

beforeAll(async () => {
  server = await startTestServer(
    {
      HTTP_HEADERS_TIMEOUT_MS: String(headersTimeoutMs),
      HTTP_REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '5000',
    },
    { logger },
  );
});
afterAll(() => server.close());

/**
 * Sends `head` at once, then `drip` one byte every 50 ms (over again if it runs out), until the
 * server closes the connection; answers what the server sent and how long it took to close.
 */
function dripUntilClosed(head: string, drip: string): Promise<{ text: string; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(server.service.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after 10 s; got ${Buffer.concat(chunks).toString('latin1')}`));
    }, 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined); // a write after the server's close: expected
    socket.on('close', () => {
      closed = true;
      clearTimeout(giveUp);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), elapsedMs: performance.now() - started });
    });
    socket.once('connect', async () => {
      socket.write(head);
      for (let i = 0; !closed; i++) {
        await sleep(50);
        if (!closed) socket.write(drip[i % drip.length] as string);
      }
    });
  });
}

const auth = () => `Authorization: Bearer ${server.test.key}\r\nX-API-User: ${server.test.apiUser}\r\n`;

function expectCutOff(answer: { text: string; elapsedMs: number }, deadlineMs: number) {
  expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
  expect(answer.text).toContain('"code":"malformed_request"');
  // Cut off at its deadline, plus the server's look every quarter of the headers deadline,
  // plus room for a busy machine: never the minutes of Node's defaults.
  expect(answer.elapsedMs).toBeGreaterThanOrEqual(deadlineMs - 50);
  expect(answer.elapsedMs).toBeLessThan(deadlineMs + 2000);
}

describe('slow clients are cut off in bounded time', () => {
  it('headers sent a byte at a time are answered 408 at the headers deadline', async () => {
    const from = lines.length;
    const answer = await dripUntilClosed('GET /v1/balance HTTP/1.1\r\nHost: x\r\n', 'X-Slow: aaaaaaaa\r\n');
    expectCutOff(answer, headersTimeoutMs);
    expect(errorsSince(lines, from)).toEqual([]);
  });

  it('a body sent a byte at a time is answered 408 at the request deadline', async () => {
    const from = lines.length;
    const head =
      `POST /v1/services HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\n` +
      'Content-Length: 4000\r\n\r\n{"name":"';
    const answer = await dripUntilClosed(head, 'a');
    expectCutOff(answer, requestTimeoutMs);
    expect(errorsSince(lines, from)).toEqual([]);
    // Nothing was created from the part that arrived.
    const services = await server.raw('GET', '/services');
    expect(services.body.data.items).toEqual([]);
  });

  it('a connection idle between two requests is not cut off by the headers deadline', async () => {
    const socket = connect(server.service.port, '127.0.0.1');
    const answers: string[] = [];
    socket.on('data', (chunk) => answers.push(chunk.toString('utf8')));
    await new Promise((resolve) => socket.once('connect', resolve));
    const request = `GET /v1/healthz HTTP/1.1\r\nHost: x\r\n\r\n`;
    socket.write(request);
    await expect.poll(() => answers.join('')).toMatch(/^HTTP\/1\.1 200 /);
    // Idle for several headers deadlines (well within the keep-alive timeout), then reused.
    await sleep(headersTimeoutMs * 3);
    socket.write(request);
    await expect.poll(() => answers.join('').match(/HTTP\/1\.1 200 /g)?.length).toBe(2);
    socket.destroy();
  });
});
