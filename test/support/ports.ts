/**
 * Free ports on 127.0.0.1 for what the tests start: a port is chosen free, then taken by the
 * program a moment later.
 */
import { createServer } from 'node:net';

/** A port that was free a moment ago on 127.0.0.1 (closed again before anyone takes it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/**
 * Starts something that must know its port before it listens (a callback URL names it, or its
 * command line does) on a free port. Another process may take the port between the choice and
 * the bind (a test's outgoing connection can get it as its source port): when `start` fails
 * because of that (`portTaken`), it is tried again on another one, up to `attempts` times.
 */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  portTaken: (error: unknown) => boolean,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= attempts || !portTaken(error)) throw error;
    }
  }
}
