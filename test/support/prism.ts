/**
 * A Prism mock of openapi.yaml on a free 127.0.0.1 port, for tests: it answers every operation
 * with the spec's examples and checks each request against the contract (security headers
 * included: without both `Authorization: Bearer` and `X-API-User` it answers 401).
 *
 * Prism 5 serves the spec's paths at its root: the server URL's `/v1` is not part of its routes,
 * so a client's `baseUrl` is `http://127.0.0.1:<port>` (see `baseUrl` below).
 *
 * Prism reports what it found wrong with a request in the `sl-violations` response header;
 * `violationsOf` reads it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onFreePort } from './ports.js';
import { specPath } from './spec.js';

const prismBin = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));

export interface PrismMock {
  /** The base URL of the mocked API (the spec's paths hang directly under it). */
  baseUrl: string;
  port: number;
  /** Stops the mock and waits for its process to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `prism mock openapi.yaml` and resolves once it answers `GET /healthz` (the one
 * operation that needs no key). Rejects with Prism's output if it exits or stays silent.
 */
export async function startPrism({ timeoutMs = 45_000 } = {}): Promise<PrismMock> {
  // Prism exits when its port was taken meanwhile: another one is tried.
  return onFreePort(
    (port) => startPrismOn(port, timeoutMs),
    (err) => /EADDRINUSE|address already in use/i.test(String(err)),
  );
}

async function startPrismOn(port: number, timeoutMs: number): Promise<PrismMock> {
  const child = spawn(prismBin, ['mock', specPath, '-p', String(port), '-h', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const mock: PrismMock = { baseUrl, port, stop: () => stop(child, exited) };

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`prism exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`);
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) });
      await response.body?.cancel();
      if (response.ok) return mock;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await mock.stop();
  throw new Error(`prism did not answer on ${baseUrl} within ${timeoutMs} ms:\n${output}`);
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killed = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killed);
}

/** What Prism found wrong with the request that got `response`: `[]` when it honours the contract. */
export function violationsOf(
  response: Response,
): { location: string[]; code: string | number; message: string }[] {
  const header = response.headers.get('sl-violations');
  return header ? JSON.parse(header) : [];
}
