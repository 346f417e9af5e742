import type {
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookSecretRotation,
} from '../../generated/openapi.js';
import type { EventQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';
import type { EndpointSubscription } from '../storage/repositories/webhook-endpoints.js';
import type { DeliveryRow, EventRow, WebhookEndpointRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import { generateWebhookSecret } from '../webhooks/signature.js';
import { checkWebhookUrl, webhookUrlPolicy } from '../webhooks/url-policy.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound } from './errors.js';
import { subscribes } from './events.js';
import { newId } from './ids.js';
import { type Answer, write } from './write.js';

/**
 * Endpoints must be public in both modes, and https in live mode. Sandbox endpoints may be
 * local receivers only where the operator opted in (WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST).
 */
async function requireAllowedUrl(deps: Deps, caller: Caller, url: string): Promise<void> {
  const policy = webhookUrlPolicy(caller.mode, deps.config.webhookAllowPrivateUrlsInTest);
  const verdict = await checkWebhookUrl(url, policy, deps.resolveHost);
  if (!verdict.ok) throw new ApiError(400, 'invalid_field', verdict.reason, { param: 'url' });
}

/** A new endpoint, counted against the account's limit in the transaction that inserts it. */
const insertWebhookEndpoint = defineUnit(
  import.meta.url,
  'webhooks.createEndpoint',
  async (tx, a: { row: NewEndpointRow; max: number }): Promise<WebhookEndpointRow> => {
    // Counted in the transaction that inserts, so concurrent requests cannot overshoot.
    if ((await tx.endpoints.count(a.row.account_id, a.row.mode)) >= a.max) {
      throw new ApiError(
        409,
        'too_many_webhook_endpoints',
        `This account already has ${a.max} webhook endpoints in ${a.row.mode} mode; delete one before adding another.`,
      );
    }
    await tx.endpoints.insert(a.row);
    return (await tx.endpoints.byId(a.row.id)) as WebhookEndpointRow;
  },
);

type NewEndpointRow = Omit<WebhookEndpointRow, 'seq' | 'consecutive_failures' | 'paused_until'>;

export async function createWebhookEndpoint(
  deps: Deps,
  caller: Caller,
  input: WebhookEndpointCreate,
  answer?: Answer<WebhookEndpointRow>,
): Promise<WebhookEndpointRow> {
  await requireAllowedUrl(deps, caller, input.url);
  const now = deps.clock.now();
  const row: NewEndpointRow = {
    id: newId('we'),
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
  };
  return write(deps, insertWebhookEndpoint, { row, max: deps.config.webhookMaxEndpointsPerAccount }, answer);
}

export async function getWebhookEndpoint(
  deps: Deps,
  caller: Caller,
  id: string,
): Promise<WebhookEndpointRow> {
  const row = await deps.store.read(async (tx) => tx.endpoints.get(caller.accountId, caller.mode, id));
  if (!row) throw notFound('webhook endpoint', id);
  return row;
}

export async function listWebhookEndpoints(deps: Deps, caller: Caller, page: PageRequest) {
  return deps.store.read(async (tx) => tx.endpoints.list(caller.accountId, caller.mode, page));
}

/** The caller's endpoint, or a 404. */
async function endpointOf(tx: Tx, caller: Caller, id: string): Promise<WebhookEndpointRow> {
  const row = await tx.endpoints.get(caller.accountId, caller.mode, id);
  if (!row) throw notFound('webhook endpoint', id);
  return row;
}

const updateEndpoint = defineUnit(
  import.meta.url,
  'webhooks.updateEndpoint',
  async (
    tx,
    a: { caller: Caller; id: string; changes: WebhookEndpointUpdate; now: number },
  ): Promise<WebhookEndpointRow> => {
    const row = await endpointOf(tx, a.caller, a.id);
    const { changes } = a;
    const updated: WebhookEndpointRow = {
      ...row,
      url: changes.url ?? row.url,
      events: changes.events ? JSON.stringify(changes.events) : row.events,
      description: changes.description === undefined ? row.description : changes.description,
      status: changes.status ?? row.status,
      updated_at: a.now,
    };
    await tx.endpoints.update(updated);
    return updated;
  },
);

export async function updateWebhookEndpoint(
  deps: Deps,
  caller: Caller,
  id: string,
  changes: WebhookEndpointUpdate,
): Promise<WebhookEndpointRow> {
  if (changes.url !== undefined) await requireAllowedUrl(deps, caller, changes.url);
  return write(deps, updateEndpoint, { caller, id, changes, now: deps.clock.now() });
}

/** Deletes an endpoint and cancels what was still queued for it. */
const deleteEndpoint = defineUnit(
  import.meta.url,
  'webhooks.deleteEndpoint',
  async (tx, a: { caller: Caller; id: string; now: number }): Promise<void> => {
    const row = await endpointOf(tx, a.caller, a.id);
    await tx.endpoints.update({ ...row, deleted_at: a.now, updated_at: a.now });
    await tx.deliveries.cancelOf(a.id);
  },
);

export async function deleteWebhookEndpoint(deps: Deps, caller: Caller, id: string): Promise<void> {
  await write(deps, deleteEndpoint, { caller, id, now: deps.clock.now() });
}

/**
 * Gives the endpoint a new secret. With an overlap, the current secret becomes the previous
 * one and keeps signing (beside the new one) until it expires; a rotation during an overlap
 * replaces the previous secret, so at most two secrets ever sign.
 */
const rotateSecret = defineUnit(
  import.meta.url,
  'webhooks.rotateSecret',
  async (
    tx,
    a: { caller: Caller; id: string; secret: string; overlapMs: number; now: number },
  ): Promise<WebhookEndpointRow> => {
    const row = await endpointOf(tx, a.caller, a.id);
    const updated = {
      ...row,
      secret: a.secret,
      previous_secret: a.overlapMs > 0 ? row.secret : null,
      previous_secret_expires_at: a.overlapMs > 0 ? a.now + a.overlapMs : null,
      updated_at: a.now,
    };
    await tx.endpoints.update(updated);
    return updated;
  },
);

export async function rotateWebhookEndpointSecret(
  deps: Deps,
  caller: Caller,
  id: string,
  options: WebhookSecretRotation = {},
  answer?: Answer<WebhookEndpointRow>,
): Promise<WebhookEndpointRow> {
  const overlapMs = (options.overlap_seconds ?? 0) * 1000;
  const args = { caller, id, secret: generateWebhookSecret(), overlapMs, now: deps.clock.now() };
  return write(deps, rotateSecret, args, answer);
}

/** A page of the caller's events, filtered by the list's query. */
export async function listEvents(deps: Deps, caller: Caller, query: EventQuery, page: PageRequest) {
  return deps.store.read(async (tx) => tx.events.list(caller.accountId, caller.mode, query, page));
}

export async function getEvent(deps: Deps, caller: Caller, id: string): Promise<EventRow> {
  const row = await deps.store.read(async (tx) => tx.events.get(caller.accountId, caller.mode, id));
  if (!row) throw notFound('event', id);
  return row;
}

export async function listEventDeliveries(deps: Deps, caller: Caller, eventId: string, page: PageRequest) {
  return deps.store.read(async (tx) => {
    if (!(await tx.events.get(caller.accountId, caller.mode, eventId))) throw notFound('event', eventId);
    return tx.deliveries.list(eventId, page);
  });
}

/** Queues a fresh delivery of an event, whatever happened to the earlier ones. */
const resend = defineUnit(
  import.meta.url,
  'webhooks.resendEvent',
  async (
    tx,
    a: { caller: Caller; eventId: string; endpointId: string | undefined; now: number },
  ): Promise<DeliveryRow[]> => {
    const { caller, eventId, endpointId, now } = a;
    const event = await tx.events.get(caller.accountId, caller.mode, eventId);
    if (!event) throw notFound('event', eventId);
    const endpoints: EndpointSubscription[] =
      endpointId !== undefined
        ? [await endpointOf(tx, caller, endpointId)]
        : (await tx.endpoints.enabled(caller.accountId, caller.mode)).filter((e) =>
            subscribes(e, event.event),
          );
    const deliveries: DeliveryRow[] = [];
    for (const endpoint of endpoints) {
      const id = newId('whd');
      await tx.deliveries.insert(id, event.id, endpoint.id, now, now);
      deliveries.push((await tx.deliveries.byId(id)) as DeliveryRow);
    }
    return deliveries;
  },
);

export async function resendEvent(
  deps: Deps,
  caller: Caller,
  eventId: string,
  endpointId: string | undefined,
  answer?: Answer<DeliveryRow[]>,
): Promise<DeliveryRow[]> {
  return write(deps, resend, { caller, eventId, endpointId, now: deps.clock.now() }, answer);
}
