import type {
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookSecretRotation,
} from '../../generated/openapi.js';
import type { EventQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';
import type { EndpointSubscription } from '../storage/repositories/events.js';
import type { DeliveryRow, EventRow, WebhookEndpointRow } from '../storage/rows.js';
import { generateWebhookSecret } from '../webhooks/signature.js';
import { checkWebhookUrl, webhookUrlPolicy } from '../webhooks/url-policy.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound } from './errors.js';
import { subscribes } from './events.js';
import { newId } from './ids.js';
import { commit } from './transaction.js';
import type { Answer } from './write.js';

/**
 * Endpoints must be public in both modes, and https in live mode. Sandbox endpoints may be
 * local receivers only where the operator opted in (WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST).
 */
async function requireAllowedUrl(deps: Deps, caller: Caller, url: string): Promise<void> {
  const policy = webhookUrlPolicy(caller.mode, deps.config.webhookAllowPrivateUrlsInTest);
  const verdict = await checkWebhookUrl(url, policy, deps.resolveHost);
  if (!verdict.ok) throw new ApiError(400, 'invalid_field', verdict.reason, { param: 'url' });
}

export async function createWebhookEndpoint(
  deps: Deps,
  caller: Caller,
  input: WebhookEndpointCreate,
  answer?: Answer<WebhookEndpointRow>,
): Promise<WebhookEndpointRow> {
  await requireAllowedUrl(deps, caller, input.url);
  return commit(deps, caller, answer, async (tx, now) => {
    // Counted in the transaction that inserts, so concurrent requests cannot overshoot.
    const max = deps.config.webhookMaxEndpointsPerAccount;
    if ((await tx.events.countEndpoints(caller.accountId, caller.mode)) >= max) {
      throw new ApiError(
        409,
        'too_many_webhook_endpoints',
        `This account already has ${max} webhook endpoints in ${caller.mode} mode; delete one before adding another.`,
      );
    }
    const id = newId('we');
    await tx.events.insertEndpoint({
      id,
      account_id: caller.accountId,
      mode: caller.mode,
      url: input.url,
      events: input.events ? JSON.stringify(input.events) : null,
      description: input.description ?? null,
      status: 'enabled',
      secret: generateWebhookSecret(),
      previous_secret: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    return (await tx.events.endpointById(id)) as WebhookEndpointRow;
  });
}

export async function getWebhookEndpoint(
  deps: Deps,
  caller: Caller,
  id: string,
): Promise<WebhookEndpointRow> {
  const row = await deps.store.read(async (tx) => tx.events.getEndpoint(caller.accountId, caller.mode, id));
  if (!row) throw notFound('webhook endpoint', id);
  return row;
}

export async function listWebhookEndpoints(deps: Deps, caller: Caller, page: PageRequest) {
  return deps.store.read(async (tx) => tx.events.listEndpoints(caller.accountId, caller.mode, page));
}

export async function updateWebhookEndpoint(
  deps: Deps,
  caller: Caller,
  id: string,
  changes: WebhookEndpointUpdate,
): Promise<WebhookEndpointRow> {
  if (changes.url !== undefined) await requireAllowedUrl(deps, caller, changes.url);
  return commit(deps, caller, undefined, async (tx, now) => {
    const row = await tx.events.getEndpoint(caller.accountId, caller.mode, id);
    if (!row) throw notFound('webhook endpoint', id);
    const updated: WebhookEndpointRow = {
      ...row,
      url: changes.url ?? row.url,
      events: changes.events ? JSON.stringify(changes.events) : row.events,
      description: changes.description === undefined ? row.description : changes.description,
      status: changes.status ?? row.status,
      updated_at: now,
    };
    await tx.events.updateEndpoint(updated);
    return updated;
  });
}

/** Deletes an endpoint and cancels what was still queued for it. */
export async function deleteWebhookEndpoint(deps: Deps, caller: Caller, id: string): Promise<void> {
  await commit(deps, caller, undefined, async (tx, now) => {
    const row = await tx.events.getEndpoint(caller.accountId, caller.mode, id);
    if (!row) throw notFound('webhook endpoint', id);
    await tx.events.updateEndpoint({ ...row, deleted_at: now, updated_at: now });
    await tx.events.cancelDeliveries(id);
  });
}

/**
 * Gives the endpoint a new secret. With an overlap, the current secret becomes the previous
 * one and keeps signing (beside the new one) until it expires; a rotation during an overlap
 * replaces the previous secret, so at most two secrets ever sign.
 */
export async function rotateWebhookEndpointSecret(
  deps: Deps,
  caller: Caller,
  id: string,
  options: WebhookSecretRotation = {},
  answer?: Answer<WebhookEndpointRow>,
): Promise<WebhookEndpointRow> {
  const overlapMs = (options.overlap_seconds ?? 0) * 1000;
  return commit(deps, caller, answer, async (tx, now) => {
    const row = await tx.events.getEndpoint(caller.accountId, caller.mode, id);
    if (!row) throw notFound('webhook endpoint', id);
    const updated = {
      ...row,
      secret: generateWebhookSecret(),
      previous_secret: overlapMs > 0 ? row.secret : null,
      previous_secret_expires_at: overlapMs > 0 ? now + overlapMs : null,
      updated_at: now,
    };
    await tx.events.updateEndpoint(updated);
    return updated;
  });
}

/** A page of the caller's events, filtered by the list's query. */
export async function listEvents(deps: Deps, caller: Caller, query: EventQuery, page: PageRequest) {
  return deps.store.read(async (tx) => tx.events.listEvents(caller.accountId, caller.mode, query, page));
}

export async function getEvent(deps: Deps, caller: Caller, id: string): Promise<EventRow> {
  const row = await deps.store.read(async (tx) => tx.events.getEvent(caller.accountId, caller.mode, id));
  if (!row) throw notFound('event', id);
  return row;
}

export async function listEventDeliveries(deps: Deps, caller: Caller, eventId: string, page: PageRequest) {
  return deps.store.read(async (tx) => {
    if (!(await tx.events.getEvent(caller.accountId, caller.mode, eventId))) throw notFound('event', eventId);
    return tx.events.listDeliveries(eventId, page);
  });
}

/** Queues a fresh delivery of an event, whatever happened to the earlier ones. */
export async function resendEvent(
  deps: Deps,
  caller: Caller,
  eventId: string,
  endpointId: string | undefined,
  answer?: Answer<DeliveryRow[]>,
): Promise<DeliveryRow[]> {
  return commit(deps, caller, answer, async (tx, now) => {
    const event = await tx.events.getEvent(caller.accountId, caller.mode, eventId);
    if (!event) throw notFound('event', eventId);
    let endpoints: EndpointSubscription[];
    if (endpointId !== undefined) {
      const endpoint = await tx.events.getEndpoint(caller.accountId, caller.mode, endpointId);
      if (!endpoint) throw notFound('webhook endpoint', endpointId);
      endpoints = [endpoint];
    } else {
      endpoints = (await tx.events.enabledEndpoints(caller.accountId, caller.mode)).filter((e) =>
        subscribes(e, event.event),
      );
    }
    const deliveries: DeliveryRow[] = [];
    for (const endpoint of endpoints) {
      const id = newId('whd');
      await tx.events.insertDelivery(id, event.id, endpoint.id, now, now);
      deliveries.push((await tx.events.delivery(id)) as DeliveryRow);
    }
    return deliveries;
  });
}
