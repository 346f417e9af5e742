/**
 * The webhook receiver of the crash test (test/support/webhook-receiver.ts) that can refuse for
 * a while (503), so that deliveries are still queued when the server is killed, and that tells
 * every event id it accepted.
 */
import { startReceiver } from '../../support/webhook-receiver.js';

interface Delivery {
  eventId: string;
  /** The `id` inside the body, which must equal the header. */
  bodyId: string | undefined;
  answered: number;
  at: number;
}

export interface FaultReceiver {
  url: string;
  /** Every delivery it got, in order. */
  deliveries(): Delivery[];
  /** Event ids answered 200, de-duplicated. */
  accepted(): Set<string>;
  /** While false, every delivery is answered 503 (and not counted as accepted). */
  setAccepting(accepting: boolean): void;
  close(): Promise<void>;
}

function bodyIdOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { id?: string }).id;
  } catch {
    return undefined;
  }
}

export async function startFaultReceiver(): Promise<FaultReceiver> {
  let accepting = true;
  const receiver = await startReceiver({ statusNow: () => (accepting ? 200 : 503) });
  const deliveries = () =>
    receiver.received.map((r) => ({
      eventId: String(r.headers['x-webhook-id'] ?? ''),
      bodyId: bodyIdOf(r.body),
      answered: r.status,
      at: r.at,
    }));
  return {
    url: receiver.url,
    deliveries,
    accepted: () =>
      new Set(
        deliveries()
          .filter((d) => d.answered === 200)
          .map((d) => d.eventId),
      ),
    setAccepting(value) {
      accepting = value;
    },
    close: receiver.close,
  };
}
