/**
 * "Send test event" of the dashboard: one signed delivery of a sample event to one endpoint,
 * sent at once and answered with what the endpoint said, the way Stripe's dashboard does it.
 * It is not recorded as an event (no money moved, so the API's event list stays true) and goes
 * through the same URL policy check and signing as every outbox delivery.
 */
import { deliverWebhook, type WebhookDeliveryResult } from '../webhooks/deliver.js';
import { signingSecrets, signWebhookWithSecrets } from '../webhooks/signature.js';
import { resolveWebhookTarget, webhookUrlPolicy } from '../webhooks/url-policy.js';
import { iso } from './clock.js';
import type { Caller, Deps } from './context.js';
import { randomBase62 } from './ids.js';
import { getWebhookEndpoint } from './webhooks.js';

export async function sendTestEvent(
  deps: Deps,
  caller: Caller,
  endpointId: string,
): Promise<WebhookDeliveryResult & { eventId: string }> {
  const endpoint = await getWebhookEndpoint(deps, caller, endpointId);
  const now = deps.clock.now();
  const eventId = `evt_test_${randomBase62(24)}`;
  const payload = JSON.stringify({
    id: eventId,
    event: 'payment.completed',
    data: {
      transaction_id: `pay_test_${randomBase62(24)}`,
      amount: 100,
      currency: caller.defaultCurrency,
      status: 'success',
      reference: 'Test event sent from the dashboard',
      metadata: {},
      failure_code: null,
    },
    timestamp: iso(now),
    mode: caller.mode,
  });
  // The same policy, pinned address and signatures as the outbox worker's deliveries.
  const target = await resolveWebhookTarget(
    endpoint.url,
    webhookUrlPolicy(caller.mode, deps.config.webhookAllowPrivateUrlsInTest),
    deps.resolveHost,
  );
  if (!target.ok) return { ok: false, status: null, durationMs: 0, error: target.reason, eventId };
  const result = await deliverWebhook({
    url: endpoint.url,
    address: target.address,
    body: payload,
    headers: {
      'x-webhook-signature': signWebhookWithSecrets(
        payload,
        signingSecrets(endpoint, now),
        Math.floor(now / 1000),
      ),
      'x-webhook-id': eventId,
      'user-agent': 'payments-api-webhooks/1',
    },
    timeoutMs: deps.config.webhookTimeoutMs,
    maxResponseBytes: 64 * 1024,
  });
  return { ...result, eventId };
}
