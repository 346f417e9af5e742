/**
 * A webhook receiver on 127.0.0.1 that can refuse for a while (503), so that deliveries are
 * still queued when the server is killed, and that records every event id it accepted.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Delivery {
  eventId: string;
  /** The `id` inside the body, which must equal the header. */
  bodyId: string | undefined;
  answered: number;
  at: number;
}

export interface FaultReceiver {
  url: string;
  deliveries: Delivery[];
  /** Event ids answered 200, de-duplicated. */
  accepted(): Set<string>;
  /** While false, every delivery is answered 503 (and not counted as accepted). */
  setAccepting(accepting: boolean): void;
  close(): Promise<void>;
}

export async function startFaultReceiver(): Promise<FaultReceiver> {
  const deliveries: Delivery[] = [];
  let accepting = true;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let bodyId: string | undefined;
      try {
        bodyId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string }).id;
      } catch {
        bodyId = undefined;
      }
      const answered = accepting ? 200 : 503;
      deliveries.push({
        eventId: String(req.headers['x-webhook-id'] ?? ''),
        bodyId,
        answered,
        at: Date.now(),
      });
      res.statusCode = answered;
      res.end(answered === 200 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    accepted: () => new Set(deliveries.filter((d) => d.answered === 200).map((d) => d.eventId)),
    setAccepting(value) {
      accepting = value;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
