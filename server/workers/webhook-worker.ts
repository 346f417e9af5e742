import type { Logger } from 'pino';
import type { Deps } from '../domain/context.js';
import type { Metrics } from '../observability/metrics.js';
import type { DeliveryRow } from '../storage/rows.js';
import { deliverWebhook } from '../webhooks/deliver.js';
import { createRetrySchedule } from '../webhooks/retry-schedule.js';
import { signWebhook } from '../webhooks/signature.js';
import { checkWebhookUrl } from '../webhooks/url-policy.js';
import { startPollingWorker, type Worker } from './polling-worker.js';

/** How many deliveries are in flight at once: one slow receiver cannot hold up the others. */
const parallelDeliveries = 8;
const maxResponseBytes = 64 * 1024;

/**
 * The outbox sender. Deliveries are claimed with a lease (`locked_until`) longer than an
 * attempt can take, sent, and their outcome recorded. A crash mid-send leaves the lease to
 * expire, and the delivery is sent again: at least once, never silently lost.
 */
export function startWebhookWorker(
  deps: Deps,
  logger: Logger,
  metrics: Metrics,
  options: { autostart: boolean },
): Worker {
  const { config, clock, store } = deps;
  const schedule = createRetrySchedule({
    baseDelayMs: config.webhookRetryBaseMs,
    maxDelayMs: Math.max(config.webhookRetryMaxMs, config.webhookRetryBaseMs),
    maxAgeMs: config.webhookMaxAgeMs,
  });
  const leaseMs = config.webhookTimeoutMs * 2 + 1000;

  const attempt = async (delivery: DeliveryRow): Promise<boolean> => {
    const found = await store.read((tx) => {
      const event = tx.events.eventById(delivery.event_id);
      const endpoint = tx.events.endpointById(delivery.endpoint_id);
      return event && endpoint ? { event, endpoint } : undefined;
    });
    const now = clock.now();
    let result: { ok: boolean; status: number | null; durationMs: number; error: string | null };
    if (!found || found.endpoint.deleted_at !== null) {
      result = { ok: false, status: null, durationMs: 0, error: 'The endpoint was deleted.' };
    } else {
      const { event, endpoint } = found;
      // Checked again at send time: a name can resolve elsewhere since it was registered.
      const policy = endpoint.mode === 'test' && config.webhookAllowPrivateUrlsInTest ? 'test' : 'live';
      const verdict = await checkWebhookUrl(endpoint.url, policy);
      result = verdict.ok
        ? await deliverWebhook({
            url: endpoint.url,
            body: event.payload,
            headers: {
              'x-webhook-signature': signWebhook(event.payload, endpoint.secret, Math.floor(now / 1000)),
              'x-webhook-id': event.id,
              'user-agent': 'payments-api-webhooks/1',
            },
            timeoutMs: config.webhookTimeoutMs,
            maxResponseBytes,
          })
        : { ok: false, status: null, durationMs: 0, error: verdict.reason };
    }
    const finishedAt = clock.now();
    const endpointGone = !found || found.endpoint.deleted_at !== null;
    const giveUp = !result.ok && (endpointGone || schedule.shouldGiveUp(delivery.created_at, finishedAt));
    if (!result.ok) metrics.countDeliveryFailure();
    await store.transact((tx) =>
      tx.events.recordAttempt({
        id: delivery.id,
        status: result.ok ? 'succeeded' : giveUp ? 'failed' : 'pending',
        next_attempt_at:
          result.ok || giveUp ? null : finishedAt + schedule.nextAttemptDelay(delivery.attempts + 1),
        last_attempt_at: now,
        last_response_status: result.status,
        last_error: result.error,
        last_duration_ms: result.durationMs,
      }),
    );
    return result.ok;
  };

  const deliverDue = async (): Promise<number> => {
    const now = clock.now();
    const due = await store.transact((tx) => tx.events.claimDue(now, now + leaseMs, 100));
    let delivered = 0;
    for (let i = 0; i < due.length; i += parallelDeliveries) {
      const outcomes = await Promise.all(due.slice(i, i + parallelDeliveries).map(attempt));
      delivered += outcomes.filter(Boolean).length;
    }
    return delivered;
  };

  return startPollingWorker({
    name: 'webhook delivery',
    pollMs: config.webhookPollMs,
    pass: deliverDue,
    logger,
    autostart: options.autostart,
  });
}
