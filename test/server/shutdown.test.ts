/**
 * Shutdown never waits for ever on a client: one that stopped reading a large response keeps its
 * connection busy (the socket is full), and the server cuts it after SHUTDOWN_GRACE_MS.
 */
import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { startTestServer } from '../support/server.js';

it('a client that stops reading /openapi.yaml does not hold the shutdown past the grace period', async () => {
  const graceMs = 1000;
  const server = await startTestServer({ SHUTDOWN_GRACE_MS: String(graceMs) });
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let cutAt = 0;
  const ended = new Promise<void>((resolve) =>
    socket.once('close', () => {
      cutAt = Date.now();
      resolve();
    }),
  );
  socket.on('error', () => undefined);
  // Enough requests on one connection that their answers cannot all fit in the socket buffers.
  const request = `GET /openapi.yaml HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`;
  socket.write(request.repeat(40));
  // The first bytes of the answers arrive, then the client stops reading: the rest stalls once
  // the socket buffers are full.
  await new Promise<void>((resolve) =>
    socket.once('data', () => {
      socket.pause();
      resolve();
    }),
  );
  const started = Date.now();
  // Without the cut, this never resolves and the test times out.
  await server.close();
  // The stalled response was not cut at once: it had its grace period.
  expect(Date.now() - started).toBeGreaterThanOrEqual(graceMs - 50);
  socket.resume(); // what was buffered drains, then the cut connection ends
  await ended;
  expect(cutAt).toBeGreaterThan(0);
  expect(socket.bytesRead).toBeLessThan(40 * 192_000); // not all 40 answers arrived: it was cut
}, 30_000);
