import type { Logger } from 'pino';
import type { Deps } from '../domain/context.js';
import type { Metrics } from '../observability/metrics.js';
import type { DueEndpoint } from '../storage/repositories/events.js';
import type { DeliveryRow, EventRow, Mode, WebhookEndpointRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { deliverWebhook, type WebhookDeliveryResult } from '../webhooks/deliver.js';
import { createRetrySchedule } from '../webhooks/retry-schedule.js';
import { signingSecrets, signWebhookWithSecrets } from '../webhooks/signature.js';
import { type ResolveHost, resolveWebhookTarget, webhookUrlPolicy } from '../webhooks/url-policy.js';
import { failureLog } from './failure-log.js';
import type { Worker } from './polling-worker.js';

const maxResponseBytes = 64 * 1024;
/** Added to the attempt's deadline for the lease: loading before and recording after. */
const leaseMarginMs = 3000;
/** The longest pause of an endpoint whose circuit is open. */
const maxPauseMs = 60 * 60 * 1000;

interface Claimed {
  delivery: DeliveryRow;
  event: EventRow | undefined;
  endpoint: WebhookEndpointRow | undefined;
  lease: number;
  accountKey: string;
  mode: Mode;
}

/** How many deliveries are in flight, in all and per mode, account (and mode) and endpoint. */
class Slots {
  total = 0;
  readonly byMode: Record<Mode, number> = { live: 0, test: 0 };
  readonly byAccount = new Map<string, number>();
  readonly byEndpoint = new Map<string, number>();
  /** Endpoints probing after a pause (half-open circuit) may have one delivery in flight. */
  readonly endpointCap = new Map<string, number>();
  readonly deliveries = new Set<string>();

  clone(): Slots {
    const copy = new Slots();
    copy.total = this.total;
    copy.byMode.live = this.byMode.live;
    copy.byMode.test = this.byMode.test;
    for (const [k, v] of this.byAccount) copy.byAccount.set(k, v);
    for (const [k, v] of this.byEndpoint) copy.byEndpoint.set(k, v);
    for (const [k, v] of this.endpointCap) copy.endpointCap.set(k, v);
    for (const id of this.deliveries) copy.deliveries.add(id);
    return copy;
  }

  add(id: string, mode: Mode, accountKey: string, endpointId: string, delta: 1 | -1): void {
    this.total += delta;
    this.byMode[mode] += delta;
    bump(this.byAccount, accountKey, delta);
    bump(this.byEndpoint, endpointId, delta);
    if (delta === 1) this.deliveries.add(id);
    else this.deliveries.delete(id);
  }
}

function bump(map: Map<string, number>, key: string, delta: number): void {
  const value = (map.get(key) ?? 0) + delta;
  if (value <= 0) map.delete(key);
  else map.set(key, value);
}

/**
 * The outbox sender: a continuous pool, not batches. Every delivery that can start now is
 * claimed with a lease covering its whole attempt (the deadline plus a margin, counted from
 * the claim) and started at once; each one that finishes frees its slot and the next due
 * delivery starts immediately, so no delivery waits for a slow neighbour.
 *
 * Fairness: slots are capped in all, per account and mode, and per endpoint; selection goes
 * round-robin across accounts, oldest due first within each; live deliveries are chosen
 * before sandbox ones and a quarter of the slots is kept for them, so sandbox traffic never
 * delays live traffic. An endpoint that fails `webhookCircuitFailures` times in a row is
 * paused (circuit open) for a cooldown that doubles while it keeps failing; once the pause
 * ends one delivery probes it, and a success closes the circuit. That state is in the
 * database, so it survives restarts.
 *
 * A crash mid-send leaves the lease to expire, and the delivery is sent again: at least once,
 * never silently lost. In one process a delivery is never sent twice at the same time.
 */
export function startWebhookWorker(
  deps: Deps,
  logger: Logger,
  metrics: Metrics,
  options: { autostart: boolean; resolveHost?: ResolveHost },
): Worker {
  const { config, clock, store } = deps;
  const schedule = createRetrySchedule({
    baseDelayMs: config.webhookRetryBaseMs,
    maxDelayMs: Math.max(config.webhookRetryMaxMs, config.webhookRetryBaseMs),
    maxAgeMs: config.webhookMaxAgeMs,
  });
  const leaseMs = config.webhookTimeoutMs + leaseMarginMs;
  const totalCap = config.webhookConcurrency;
  // Sandbox deliveries may never take the slots kept for live ones.
  const modeCap: Record<Mode, number> = {
    live: totalCap,
    test: Math.max(1, totalCap - Math.max(1, Math.floor(totalCap / 4))),
  };
  const accountCap = config.webhookConcurrencyPerAccount;
  const endpointCap = config.webhookConcurrencyPerEndpoint;

  const slots = new Slots();
  const running = new Set<Promise<void>>();
  let succeeded = 0;
  let waiters: (() => void)[] = [];
  let stopped = false;

  const room = (s: Slots, mode: Mode) => Math.min(totalCap - s.total, modeCap[mode] - s.byMode[mode]);
  const capOf = (s: Slots, endpointId: string) => s.endpointCap.get(endpointId) ?? endpointCap;

  /**
   * Chooses and leases, in one transaction, the deliveries that can start now: endpoints with
   * something due are taken in turn per account (accounts in the order of their oldest due
   * delivery, round-robin), each giving its oldest due delivery, until slots run out. Only
   * endpoints and accounts with a free slot are looked at, so a backlog behind a busy endpoint
   * costs nothing to skip.
   */
  const claim = (): Promise<Claimed[]> =>
    store.transact(async (tx) => {
      const now = clock.now();
      const s = slots.clone();
      const picked: Claimed[] = [];
      for (const mode of ['live', 'test'] as const) {
        if (room(s, mode) <= 0) continue;
        const due = await tx.events.dueEndpoints({
          now,
          mode,
          busyEndpoints: [...s.byEndpoint].filter(([id, n]) => n >= capOf(s, id)).map(([id]) => id),
          busyAccounts: [...s.byAccount]
            .filter(([key, n]) => key.endsWith(`:${mode}`) && n >= accountCap)
            .map(([key]) => key.slice(0, -mode.length - 1)),
        });
        await pickFairly(due, s, mode, now, picked, tx);
      }
      return picked;
    });

  const pickFairly = async (
    due: DueEndpoint[],
    s: Slots,
    mode: Mode,
    now: number,
    picked: Claimed[],
    tx: Tx,
  ): Promise<void> => {
    const accounts = new Map<string, { endpoints: DueEndpoint[]; turn: number }>();
    for (const endpoint of due) {
      if (endpoint.consecutive_failures >= config.webhookCircuitFailures)
        s.endpointCap.set(endpoint.endpoint_id, 1);
      const entry = accounts.get(endpoint.account_id);
      if (entry) entry.endpoints.push(endpoint);
      else accounts.set(endpoint.account_id, { endpoints: [endpoint], turn: 0 });
    }
    const buffers = new Map<string, string[]>();
    const nextOf = async (endpointId: string): Promise<string | undefined> => {
      let buffer = buffers.get(endpointId);
      if (!buffer) {
        const free = capOf(s, endpointId) - (s.byEndpoint.get(endpointId) ?? 0);
        buffer = await tx.events.dueDeliveriesOf({
          endpointId,
          now,
          limit: free,
          busyDeliveries: [...s.deliveries],
        });
        buffers.set(endpointId, buffer);
      }
      return buffer.shift();
    };
    while (accounts.size > 0 && room(s, mode) > 0) {
      for (const [accountId, entry] of accounts) {
        if (room(s, mode) <= 0) break;
        const accountKey = `${accountId}:${mode}`;
        let started = false;
        // This account's next endpoint in turn that has a free slot and something due.
        while (!started && entry.endpoints.length > 0 && (s.byAccount.get(accountKey) ?? 0) < accountCap) {
          const index = entry.turn % entry.endpoints.length;
          const endpoint = entry.endpoints[index] as DueEndpoint;
          const id =
            (s.byEndpoint.get(endpoint.endpoint_id) ?? 0) < capOf(s, endpoint.endpoint_id)
              ? await nextOf(endpoint.endpoint_id)
              : undefined;
          if (id === undefined) {
            entry.endpoints.splice(index, 1);
            continue;
          }
          entry.turn = index + 1;
          const lease = now + leaseMs;
          if (!(await tx.events.lockDelivery(id, now, lease))) continue;
          s.add(id, mode, accountKey, endpoint.endpoint_id, 1);
          const delivery = (await tx.events.delivery(id)) as DeliveryRow;
          picked.push({
            delivery,
            event: await tx.events.eventById(delivery.event_id),
            endpoint: await tx.events.endpointById(endpoint.endpoint_id),
            lease,
            accountKey,
            mode,
          });
          started = true;
        }
        if (!started) accounts.delete(accountId);
      }
    }
  };

  const send = async (claimed: Claimed): Promise<WebhookDeliveryResult & { gone: boolean }> => {
    const { event, endpoint } = claimed;
    if (!event || !endpoint || endpoint.deleted_at !== null) {
      return { ok: false, status: null, durationMs: 0, error: 'The endpoint was deleted.', gone: true };
    }
    const started = performance.now();
    // Resolved once, here; the connection goes to the address that passed the policy.
    const target = await withinDeadline(
      resolveWebhookTarget(
        endpoint.url,
        webhookUrlPolicy(endpoint.mode, config.webhookAllowPrivateUrlsInTest),
        options.resolveHost,
      ),
      config.webhookTimeoutMs,
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
    const now = clock.now();
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
      timeoutMs: Math.max(1, config.webhookTimeoutMs - Math.round(performance.now() - started)),
      maxResponseBytes,
    });
    return { ...result, durationMs: Math.round(performance.now() - started), gone: false };
  };

  const record = async (claimed: Claimed, result: WebhookDeliveryResult & { gone: boolean }) => {
    const { delivery, endpoint } = claimed;
    const attemptedAt = clock.now();
    const giveUp = !result.ok && (result.gone || schedule.shouldGiveUp(delivery.created_at, attemptedAt));
    if (!result.ok) {
      metrics.countDeliveryFailure();
      if (result.cause) {
        logger.debug(
          { delivery: delivery.id, endpoint: delivery.endpoint_id, cause: result.cause },
          'no answer',
        );
      }
    }
    await store.transact(async (tx) => {
      await tx.events.recordAttempt({
        id: delivery.id,
        lease: claimed.lease,
        status: result.ok ? 'succeeded' : giveUp ? 'failed' : 'pending',
        next_attempt_at:
          result.ok || giveUp ? null : attemptedAt + schedule.nextAttemptDelay(delivery.attempts + 1),
        last_attempt_at: attemptedAt,
        last_response_status: result.status,
        last_error: result.error,
        // How long an attempt without an answer took would tell a refused port from a filtered one.
        last_duration_ms: result.ok || result.status !== null ? result.durationMs : null,
        duration_ms: result.durationMs,
      });
      if (!endpoint || result.gone) return;
      const current = await tx.events.endpointById(endpoint.id);
      if (!current) return;
      if (result.ok) {
        if (current.consecutive_failures !== 0 || current.paused_until !== null) {
          await tx.events.setEndpointHealth(endpoint.id, 0, null);
        }
        return;
      }
      // A paused endpoint's backlog is not attempted, so it would outlive the retry period:
      // what is past it is given up with each failure.
      await tx.events.expireDeliveries(endpoint.id, attemptedAt - config.webhookMaxAgeMs, attemptedAt);
      const failures = current.consecutive_failures + 1;
      const over = failures - config.webhookCircuitFailures;
      const pausedUntil =
        over >= 0
          ? attemptedAt + Math.min(maxPauseMs, config.webhookCircuitCooldownMs * 2 ** Math.min(over, 30))
          : current.paused_until;
      await tx.events.setEndpointHealth(endpoint.id, failures, pausedUntil);
    });
    if (result.ok) succeeded++;
  };

  const run = (claimed: Claimed): void => {
    const { delivery, mode, accountKey } = claimed;
    let task: Promise<void> | undefined;
    task = (async () => {
      let recorded: Promise<void> | undefined;
      try {
        recorded = record(claimed, await send(claimed));
      } catch (err) {
        // The lease stays: the delivery is tried again once it expires.
        failures.failed(err);
      }
      // The next claim must see this outcome: a failure may have paused the endpoint or given up
      // its backlog. A store that runs units in the order queued (SQLite) lets the slot go as
      // soon as the outcome is on its way: the claim queued next commits together with this
      // record, running after it. Where units run side by side (PostgreSQL) a claim started now
      // may read before this record commits: there the slot is freed once the record is in.
      if (!store.unitsRunInQueueOrder) await recorded?.catch(() => {});
      slots.add(delivery.id, mode, accountKey, delivery.endpoint_id, -1);
      if (!slots.byEndpoint.has(delivery.endpoint_id)) slots.endpointCap.delete(delivery.endpoint_id);
      if (!stopped) fill().catch((err) => failures.failed(err));
      try {
        await recorded;
      } catch (err) {
        failures.failed(err);
      } finally {
        if (task) running.delete(task);
        const woken = waiters;
        waiters = [];
        for (const wake of woken) wake();
      }
    })();
    running.add(task);
  };

  const failures = failureLog(logger, 'webhook delivery');
  let filling: Promise<void> | undefined;
  let again = false;
  /** Claims and starts what can start now; calls made meanwhile are folded into one more round. */
  const fill = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (filling) {
      again = true;
      return filling;
    }
    filling = (async () => {
      try {
        do {
          again = false;
          const claimed = await claim();
          for (const item of claimed) {
            slots.add(item.delivery.id, item.mode, item.accountKey, item.delivery.endpoint_id, 1);
            if (item.endpoint && item.endpoint.consecutive_failures >= config.webhookCircuitFailures) {
              slots.endpointCap.set(item.delivery.endpoint_id, 1);
            }
            run(item);
          }
        } while (again && !stopped);
      } finally {
        filling = undefined;
      }
    })();
    return filling;
  };

  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      await fill();
      failures.succeeded();
    } catch (err) {
      failures.failed(err);
    }
    if (!stopped) timer = setTimeout(tick, config.webhookPollMs);
  };
  if (options.autostart) timer = setTimeout(tick, config.webhookPollMs);

  return {
    /**
     * Starts every delivery that can start, and those that become startable as slots free
     * up, until none is in flight; returns how many succeeded meanwhile (tests call it).
     */
    async runOnce() {
      const before = succeeded;
      await fill();
      while (running.size > 0) {
        await new Promise<void>((resolve) => waiters.push(resolve));
        await filling;
      }
      return succeeded - before;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await filling?.catch(() => {});
      await Promise.all([...running]);
    },
  };
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
