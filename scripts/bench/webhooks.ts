/**
 * A local webhook receiver: a node:http server on 127.0.0.1 that answers 200 at once (while it
 * stalls, when released) and notes, for each event, when it arrived and the event's own
 * `timestamp` (the settlement time).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LatencySummary, summarize } from './load.js';

export interface Receipt {
  eventId: string;
  transactionId: string;
  /** Settlement time (the event's `timestamp`), epoch ms. */
  settledAt: number;
  receivedAt: number;
}

export interface Receiver {
  url: string;
  receipts: Receipt[];
  /** Deliveries of an event already received (webhooks are at least once). */
  duplicates(): number;
  /** Starts a new phase: no receipts, no duplicates (the events seen before still count). */
  clear(): void;
  /** The receiver stalls: requests are read but not answered until `release`. */
  hold(): void;
  /** Requests waiting for `release`. */
  heldCount(): number;
  /** Answers the held requests and every later one at once. */
  release(): void;
  /** Resolves when `count` distinct events have arrived, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let receipts: Receipt[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  let waiter: { count: number; resolve: () => void } | undefined;
  let held: (() => void)[] | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (held) {
        held.push(handle);
        return;
      }
      handle();
    });
    const handle = () => {
      const receivedAt = Date.now();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          id: string;
          timestamp: string;
          data: { transaction_id: string };
        };
        if (seen.has(event.id)) {
          duplicates++;
          return;
        }
        seen.add(event.id);
        receipts.push({
          eventId: event.id,
          transactionId: event.data.transaction_id,
          settledAt: Date.parse(event.timestamp),
          receivedAt,
        });
        if (waiter && receipts.length >= waiter.count) waiter.resolve();
      } catch {
        // Not an event: ignored.
      }
    };
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    get receipts() {
      return receipts;
    },
    duplicates: () => duplicates,
    hold() {
      held = [];
    },
    heldCount: () => held?.length ?? 0,
    release() {
      const waiting = held ?? [];
      held = undefined;
      for (const answer of waiting) answer();
    },
    clear() {
      // The events seen are kept: an event of an earlier phase delivered again is a duplicate.
      receipts = [];
      duplicates = 0;
    },
    waitFor(count, timeoutMs) {
      if (receipts.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          reject(new Error(`only ${receipts.length} of ${count} webhook events arrived in ${timeoutMs} ms`));
        }, timeoutMs);
        waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            waiter = undefined;
            resolve();
          },
        };
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export interface DeliveryStats {
  events: number;
  duplicates: number;
  /** Events delivered per second, from the first arrival to the last. */
  deliveriesPerSecond: number;
  /** Events settled per second, from the first settlement time to the last. */
  settlementsPerSecond: number;
  /** Arrival minus settlement time, ms (wall clock of one machine, ms resolution). */
  delayMs: LatencySummary;
}

export function deliveryStats(receipts: Receipt[], duplicates: number): DeliveryStats {
  const received = receipts.map((r) => r.receivedAt);
  const settled = receipts.map((r) => r.settledAt);
  const span = (values: number[]) => (Math.max(...values) - Math.min(...values)) / 1000;
  const perSecond = (values: number[]) =>
    values.length > 1 ? values.length / Math.max(span(values), 0.001) : 0;
  return {
    events: receipts.length,
    duplicates,
    deliveriesPerSecond: perSecond(received),
    settlementsPerSecond: perSecond(settled),
    delayMs: summarize(receipts.map((r) => r.receivedAt - r.settledAt)),
  };
}

/** Creates `count` payments, `concurrency` at a time, with the Idempotency-Keys `<keyPrefix>-<i>`. */
export async function createPayments(
  apiUrl: string,
  headers: Record<string, string>,
  body: string,
  count: number,
  concurrency: number,
  keyPrefix: string,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const response = await fetch(`${apiUrl}/payments`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `${keyPrefix}-${i}` },
        body,
      });
      if (response.status !== 202) {
        throw new Error(`POST /payments answered ${response.status}: ${await response.text()}`);
      }
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
