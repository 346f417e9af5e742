/**
 * What the webhook attack tests share: receivers on 127.0.0.1 that answer, hold or refuse,
 * a resolver the test controls, events queued straight into the outbox, and a wait on a
 * condition (never on a duration).
 */

import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';
import { newId } from '../../server/domain/ids.js';
import type { Mode } from '../../server/storage/rows.js';
import type { ResolveHost } from '../../server/webhooks/url-policy.js';
import { queryRows } from '../support/database.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Hit {
  eventId: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ControlledReceiver {
  url: string;
  port: number;
  /** Every request that arrived, answered or not. */
  hits: Hit[];
  /** Requests arrived and not answered yet. */
  held(): number;
  /** The most requests held at once so far. */
  mostHeld(): number;
  /** From now on, hold every request until `release`. */
  hold(): void;
  /** Answer the held requests, and those to come, with `status`. */
  release(status?: number): void;
  close(): Promise<void>;
}

export async function startControlledReceiver(status = 200): Promise<ControlledReceiver> {
  const hits: Hit[] = [];
  let holding = false;
  let answer = status;
  const waiting: ServerResponse[] = [];
  const held = () => waiting.filter((res) => !res.writableEnded && !res.destroyed).length;
  let mostHeld = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      hits.push({ eventId: String(req.headers['x-webhook-id']), headers: req.headers, body });
      if (holding) {
        waiting.push(res);
        mostHeld = Math.max(mostHeld, held());
      } else res.writeHead(answer).end('ok');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    hits,
    held,
    mostHeld: () => mostHeld,
    hold() {
      holding = true;
    },
    release(statusCode = 200) {
      holding = false;
      answer = statusCode;
      for (const res of waiting.splice(0)) if (!res.destroyed) res.writeHead(statusCode).end('ok');
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of waiting.splice(0)) res.destroy();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A resolver that answers from a table the test edits; it never touches the network. */
export function tableResolver(table: Record<string, string[]>): ResolveHost & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [...addresses];
  };
  return Object.assign(resolve, { calls });
}

/**
 * Queues `count` events for one endpoint straight into the outbox (as settlement would), due
 * now, oldest first; returns their event ids in order.
 */
export async function queueEvents(
  server: TestServer,
  endpointId: string,
  count: number,
  options: { accountId?: string; mode?: Mode } = {},
): Promise<string[]> {
  const accountId = options.accountId ?? server.account.accountId;
  const mode = options.mode ?? 'test';
  return server.service.deps.store.transact(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const now = server.clock.now();
      const id = newId('evt');
      const transactionId = newId('pay');
      const payload = {
        id,
        event: 'payment.completed',
        mode,
        timestamp: new Date(now).toISOString(),
        data: {
          transaction_id: transactionId,
          amount: 1000,
          currency: 'XAF',
          status: 'success',
          reference: null,
          failure_code: null,
        },
      };
      await tx.events.insert({
        id,
        account_id: accountId,
        mode,
        event: 'payment.completed',
        transaction_id: transactionId,
        payload: JSON.stringify(payload),
        created_at: now,
      });
      // Each one a millisecond older than the next, so "oldest first" is well defined.
      await tx.deliveries.insert(newId('whd'), id, endpointId, now - count + i, now);
      ids.push(id);
    }
    return ids;
  });
}

export interface OutboxRow {
  id: string;
  event_id: string;
  status: string;
  attempts: number;
  locked_until: number | null;
  next_attempt_at: number | null;
  last_error: string | null;
  last_response_status: number | null;
  last_duration_ms: number | null;
}

/**
 * The outbox rows of an endpoint, oldest first (those with no next attempt, finished, first on
 * both engines), read from the server's database like any other reader would.
 */
export function outboxOf(server: TestServer, endpointId: string): Promise<OutboxRow[]> {
  return queryRows<OutboxRow>(
    server,
    `SELECT id, event_id, status, attempts, locked_until, next_attempt_at, last_error, last_response_status,
            last_duration_ms
       FROM webhook_deliveries WHERE endpoint_id = ?
      ORDER BY (next_attempt_at IS NULL) DESC, next_attempt_at, seq`,
    endpointId,
  );
}

/** Waits until `condition` holds, polling; fails with `what` if it never does. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * What a test started and must stop (servers, receivers), stopped after each test, the last
 * started first: `cleanups.push(() => thing.close())`.
 */
function useCleanups(): Array<() => Promise<void>> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

/**
 * A test server and controlled receivers stopped after each test: `server(env, resolveHost)`
 * starts one with `defaults` under `env`, names resolved by `resolveHost` when given.
 */
export function useWebhookRig(defaults: Record<string, string> = {}) {
  const cleanups = useCleanups();
  return {
    cleanups,
    async server(env: Record<string, string> = {}, resolveHost?: ReturnType<typeof tableResolver>) {
      const started = await startTestServer({ ...defaults, ...env }, resolveHost ? { resolveHost } : {});
      cleanups.push(() => started.close());
      return started;
    },
    async receiver(status = 200): Promise<ControlledReceiver> {
      const started = await startControlledReceiver(status);
      cleanups.push(() => started.close());
      return started;
    },
  };
}
