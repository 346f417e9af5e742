/**
 * Test events: one signed delivery of a sample event, sent at once and answered with what the
 * endpoint said, the way Stripe's dashboard ("Send test event") and `stripe trigger` do it. The
 * dashboard sends one to one endpoint; `npm run admin -- trigger <event>` sends one of any type
 * the contract declares to every endpoint of an account that listens for it. A test event is not
 * recorded as an event (no money moved, so the API's event list stays true) and goes through
 * the same URL policy check and signing as every outbox delivery.
 */
import { type EventName, eventNameValues } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { Mode, WebhookEndpointRow } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import { deliverWebhook, type WebhookDeliveryResult } from '../webhooks/deliver.js';
import { signingSecrets, signWebhookWithSecrets } from '../webhooks/signature.js';
import { type ResolveHost, resolveWebhookTarget, webhookUrlPolicy } from '../webhooks/url-policy.js';
import { iso } from './clock.js';
import type { Caller, Deps } from './context.js';
import { ApiError } from './errors.js';
import { subscribes } from './events.js';
import { randomBase62 } from './ids.js';
import { getWebhookEndpoint } from './webhooks.js';

type TestEventResult = WebhookDeliveryResult & { eventId: string };

/** A sample event's data: a transaction of the event's kind, in the status the event names. */
function sampleData(name: EventName, currency: string, reference: string) {
  const [kind, outcome] = name.split('.') as [string, string];
  const prefix = { payment: 'pay', payout: 'po', refund: 'po', topup: 'tu' }[kind] ?? 'pay';
  const status = outcome === 'completed' ? 'success' : outcome === 'failed' ? 'failed' : 'expired';
  const failure = kind === 'payout' || kind === 'refund' ? 'recipient_rejected' : 'payer_declined';
  return {
    transaction_id: `${prefix}_${randomBase62(24)}`,
    amount: 100,
    currency,
    status,
    reference,
    metadata: {},
    failure_code: status === 'failed' ? failure : null,
    service_id: kind === 'payment' || kind === 'refund' ? `svc_${randomBase62(24)}` : null,
    payment_id: kind === 'refund' ? `pay_${randomBase62(24)}` : null,
  };
}

/** One signed sample event of type `name`, sent to `endpoint` now; the endpoint's answer. */
async function sendSampleEvent(
  context: { config: Config; now: number; resolveHost?: ResolveHost | undefined },
  endpoint: WebhookEndpointRow,
  event: { name: EventName; currency: string; reference: string },
): Promise<TestEventResult> {
  const { config, now } = context;
  const eventId = `evt_test_${randomBase62(24)}`;
  const payload = JSON.stringify({
    id: eventId,
    event: event.name,
    data: sampleData(event.name, event.currency, event.reference),
    timestamp: iso(now),
    mode: endpoint.mode,
  });
  // The same policy, pinned address and signatures as the outbox worker's deliveries.
  const target = await resolveWebhookTarget(
    endpoint.url,
    webhookUrlPolicy(endpoint.mode, config.webhookAllowPrivateUrlsInTest),
    context.resolveHost,
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
    timeoutMs: config.webhookTimeoutMs,
    maxResponseBytes: 64 * 1024,
  });
  return { ...result, eventId };
}

/** The dashboard's "Send test event": a `payment.completed` to one endpoint of the caller's. */
export async function sendTestEvent(
  deps: Deps,
  caller: Caller,
  endpointId: string,
): Promise<TestEventResult> {
  const endpoint = await getWebhookEndpoint(deps, caller, endpointId);
  return sendSampleEvent(
    { config: deps.config, now: deps.clock.now(), resolveHost: deps.resolveHost },
    endpoint,
    {
      name: 'payment.completed',
      currency: caller.defaultCurrency,
      reference: 'Test event sent from the dashboard',
    },
  );
}

/**
 * `npm run admin -- trigger <event>`: a sample event of type `name` to every enabled endpoint of
 * the account (its API user; default: the first account) in `mode` that listens for it.
 * Refuses a type the contract does not declare (listing those it does), an unknown account, and
 * an account with no endpoint to send to.
 */
export async function triggerTestEvent(
  context: { store: Store; config: Config; now: number; resolveHost?: ResolveHost },
  request: { name: string; apiUser?: string | undefined; mode: Mode },
): Promise<Array<TestEventResult & { endpointId: string; url: string }>> {
  const { store } = context;
  if (!(eventNameValues as readonly string[]).includes(request.name)) {
    throw new ApiError(
      400,
      'invalid_parameter',
      `Unknown event type ${request.name}. The contract declares: ${eventNameValues.join(', ')}.`,
    );
  }
  const name = request.name as EventName;
  const { account, endpoints } = await store.read(async (tx) => {
    const account = request.apiUser
      ? await tx.accounts.accountByApiUser(request.apiUser)
      : await tx.accounts.firstAccount();
    if (!account) return { account: undefined, endpoints: [] };
    const listening = (await tx.endpoints.enabled(account.id, request.mode)).filter((e) =>
      subscribes(e, name),
    );
    const rows: WebhookEndpointRow[] = [];
    for (const { id } of listening) {
      const row = await tx.endpoints.get(account.id, request.mode, id);
      if (row) rows.push(row);
    }
    return { account, endpoints: rows };
  });
  if (!account) {
    throw new ApiError(
      404,
      'resource_not_found',
      request.apiUser ? `No account has the API user ${request.apiUser}.` : 'No account yet.',
    );
  }
  if (endpoints.length === 0) {
    throw new ApiError(
      404,
      'resource_not_found',
      `No enabled ${request.mode}-mode webhook endpoint of ${account.api_user} listens for ${name}: add one (POST /v1/webhook-endpoints, or the dashboard's Webhooks page).`,
    );
  }
  const results = [];
  for (const endpoint of endpoints) {
    const result = await sendSampleEvent(context, endpoint, {
      name,
      currency: account.default_currency,
      reference: `Test event sent by npm run admin -- trigger ${name}`,
    });
    results.push({ ...result, endpointId: endpoint.id, url: endpoint.url });
  }
  return results;
}
