/**
 * Shutdown never waits for ever on a client: one that stopped reading a large response keeps its
 * connection busy (the socket is full), and the server cuts it after the grace period.
 */
import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { startTestServer } from '../support/server.js';

it('a client that stops reading /openapi.yaml does not hold the shutdown past the grace period', async () => {
  const server = await startTestServer();
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  socket.pause(); // reads nothing: the response stalls once the socket buffers are full
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  // Enough requests on one connection that their answers cannot all fit in the socket buffers.
  const request = `GET /openapi.yaml HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`;
  socket.write(request.repeat(40));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = Date.now();
  await server.close();
  const seconds = (Date.now() - started) / 1000;
  expect(seconds).toBeGreaterThan(5);
  expect(seconds).toBeLessThan(20);
  socket.resume(); // the connection was cut: what was buffered drains, then it ends
  await ended;
}, 40_000);
