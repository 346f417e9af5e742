/**
 * One attempt of a leased delivery, the network part of the sender: the endpoint's host resolved
 * and checked against the URL policy once, within the attempt's deadline, then the event signed
 * with every secret that signs now and posted to the address that passed (deliver.ts). It never
 * throws for what the endpoint does: every outcome is a result to record.
 */
import { deliverWebhook, type WebhookDeliveryResult } from './deliver.js';
import type { AttemptResult } from './delivery-policy.js';
import type { Claimed } from './outbox.js';
import { signingSecrets, signWebhookWithSecrets } from './signature.js';
import { type ResolveHost, resolveWebhookTarget, webhookUrlPolicy } from './url-policy.js';

const maxResponseBytes = 64 * 1024;

export type Attempted = WebhookDeliveryResult & AttemptResult;

export interface AttemptOptions {
  /** The deadline of the whole attempt, resolving the host included. */
  timeoutMs: number;
  allowPrivateUrlsInTest: boolean;
  resolveHost?: ResolveHost | undefined;
  now: () => number;
}

export async function attemptDelivery(claimed: Claimed, options: AttemptOptions): Promise<Attempted> {
  const { event, endpoint } = claimed;
  if (!event || !endpoint || endpoint.deleted_at !== null) {
    return { ok: false, status: null, durationMs: 0, error: 'The endpoint was deleted.', gone: true };
  }
  const started = performance.now();
  // Resolved once, here; the connection goes to the address that passed the policy.
  const target = await withinDeadline(
    resolveWebhookTarget(
      endpoint.url,
      webhookUrlPolicy(endpoint.mode, options.allowPrivateUrlsInTest),
      options.resolveHost,
    ),
    options.timeoutMs,
  );
  if (!target?.ok) {
    const error = target ? target.reason : 'The host name could not be resolved in time.';
    return {
      ok: false,
      status: null,
      durationMs: Math.round(performance.now() - started),
      error,
      gone: false,
    };
  }
  const now = options.now();
  const result = await deliverWebhook({
    url: endpoint.url,
    address: target.address,
    body: event.payload,
    headers: {
      'x-webhook-signature': signWebhookWithSecrets(
        event.payload,
        signingSecrets(endpoint, now),
        Math.floor(now / 1000),
      ),
      'x-webhook-id': event.id,
      'user-agent': 'payments-api-webhooks/1',
    },
    timeoutMs: Math.max(1, options.timeoutMs - Math.round(performance.now() - started)),
    maxResponseBytes,
  });
  return { ...result, durationMs: Math.round(performance.now() - started), gone: false };
}

/** The promise's value, or `undefined` if it takes longer than `ms`. */
async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
