import type { Logger } from 'pino';
import type { Deps } from '../domain/context.js';
import type { Metrics } from '../observability/metrics.js';
import { deliverWebhook, type WebhookDeliveryResult } from '../webhooks/deliver.js';
import { type Claimed, claimDeliveries, recordAttempt, type SlotCaps, Slots } from '../webhooks/outbox.js';
import { createRetrySchedule } from '../webhooks/retry-schedule.js';
import { signingSecrets, signWebhookWithSecrets } from '../webhooks/signature.js';
import { type ResolveHost, resolveWebhookTarget, webhookUrlPolicy } from '../webhooks/url-policy.js';
import { failureLog } from './failure-log.js';
import type { Worker } from './polling-worker.js';

const maxResponseBytes = 64 * 1024;
/** Added to the attempt's deadline for the lease: loading before and recording after. */
const leaseMarginMs = 3000;

/**
 * What a slot going on holds next, oldest first: deliveries leased ahead (one an entry), and
 * the records in flight, each answering what it leases (none: nothing was due, or it failed).
 */
type Ahead = Promise<Claimed[]>[];

/** Everything a slot held ahead, once the records in flight have answered. */
async function settled(ahead: Ahead): Promise<Claimed[]> {
  return (await Promise.all(ahead)).flat();
}

/**
 * Takes the oldest delivery held ahead, waiting for a record in flight if that is what comes
 * first (the oldest: it has had the most sends to commit). What else that record leased stays
 * ahead, one entry each.
 */
async function nextHeld(ahead: Ahead): Promise<Claimed | undefined> {
  while (ahead.length > 0) {
    const [first, ...rest] = await (ahead.shift() as Promise<Claimed[]>);
    if (first) {
      ahead.unshift(...rest.map((item) => Promise.resolve([item])));
      return first;
    }
  }
  return undefined;
}

/**
 * The outbox sender: a continuous pool, not batches. Every delivery that can start now is
 * claimed with a lease covering its whole attempt (the deadline plus a margin, counted from
 * the claim) and started at once; each one that finishes frees its slot and the next due
 * delivery starts immediately, so no delivery waits for a slow neighbour. A slot whose delivery
 * succeeded while no one else wants a slot goes on to its endpoint's next delivery, keeping a
 * few leased ahead so that it sends while its records commit (`run` below).
 *
 * Fairness: slots are capped in all, per account and mode, and per endpoint; selection goes
 * round-robin across accounts, oldest due first within each; live deliveries are chosen
 * before sandbox ones and a quarter of the slots is kept for them, so sandbox traffic never
 * delays live traffic. An endpoint that fails `webhookCircuitFailures` times in a row is
 * paused (circuit open) for a cooldown that doubles while it keeps failing; once the pause
 * ends one delivery probes it, and a success closes the circuit. That state is in the
 * database, so it survives restarts.
 *
 * A crash mid-send leaves the lease to expire (those held ahead too), and the delivery is
 * sent again: at least once, never silently lost. In one process a delivery is never sent twice
 * at the same time.
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
  const total = config.webhookConcurrency;
  const caps: SlotCaps = {
    total,
    // A quarter of the slots is kept for live deliveries: sandbox ones may never take them.
    mode: { live: total, test: Math.max(1, total - Math.max(1, Math.floor(total / 4))) },
    account: config.webhookConcurrencyPerAccount,
    endpoint: config.webhookConcurrencyPerEndpoint,
    circuitFailures: config.webhookCircuitFailures,
  };

  const slots = new Slots();
  const running = new Set<Promise<void>>();
  let succeeded = 0;
  let waiters: (() => void)[] = [];
  let stopped = false;

  /** Leases what can start now, given the slots in flight (server/webhooks/outbox.ts). */
  const claim = (): Promise<Claimed[]> =>
    store.run(claimDeliveries, { now: clock.now(), leaseMs, slots: slots.data(), caps });

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

  /**
   * Whether a slot that just succeeded may go on to its endpoint's next delivery without a
   * claim: only when no one else could have wanted it. Every other cap still has room (so any
   * account or endpoint with something due already had a free slot to take), and the endpoint
   * is not probing after a pause (a success there ends the probe: the slots come back, cap
   * lifted, through a claim).
   */
  const canHandOver = ({ delivery, mode, accountKey }: Claimed): boolean =>
    !stopped &&
    slots.total < caps.total &&
    slots.byMode[mode] < caps.mode[mode] &&
    (slots.byAccount.get(accountKey) ?? 0) < caps.account &&
    !slots.endpointCap.has(delivery.endpoint_id);

  /**
   * Records an attempt. `lease`: how many of the endpoint's next due deliveries the same
   * transaction leases for the slot, which goes on (0: it does not); `release`: what the slot
   * held ahead, given back because it does not go on. Answers what it leased, marked in flight.
   */
  const record = async (
    claimed: Claimed,
    result: WebhookDeliveryResult & { gone: boolean },
    lease: number,
    release: Claimed[] = [],
  ): Promise<Claimed[]> => {
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
    const leased = await store.run(recordAttempt, {
      outcome: {
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
      },
      endpointId: endpoint && !result.gone ? endpoint.id : null,
      maxAgeMs: config.webhookMaxAgeMs,
      circuitFailures: config.webhookCircuitFailures,
      cooldownMs: config.webhookCircuitCooldownMs,
      ...(lease > 0 && {
        handOver: {
          now: attemptedAt,
          // One leased ahead may wait for as many attempts as are held before it, then has its own.
          leaseMs: leaseMs + config.webhookLeaseAhead * config.webhookTimeoutMs,
          deliveries: lease,
          busyDeliveries: [...slots.deliveries],
          accountKey: claimed.accountKey,
          mode: claimed.mode,
        },
      }),
      ...(release.length > 0 && {
        release: release.map((held) => ({ id: held.delivery.id, lease: held.lease })),
      }),
    });
    for (const item of leased) slots.deliveries.add(item.delivery.id);
    if (result.ok) succeeded++;
    return leased;
  };

  /** Takes a slot for a leased delivery and sends it; `ahead`: what the slot holds next (see `run`). */
  const start = (item: Claimed, ahead: Ahead = []): void => {
    slots.add(item.delivery.id, item.mode, item.accountKey, item.delivery.endpoint_id, 1);
    if (item.endpoint && item.endpoint.consecutive_failures >= config.webhookCircuitFailures) {
      slots.endpointCap.set(item.delivery.endpoint_id, 1);
    }
    run(item, ahead);
  };

  /**
   * Sends a delivery in its slot and records it. After a success, while no one else could want
   * the slot, the slot goes on to its endpoint's next delivery. It keeps `webhookLeaseAhead`
   * of them leased ahead, oldest first: each record that goes on leases what tops that up, and
   * the slot sends the oldest held while the newer records commit, so its sends do not wait for
   * the disk. A slot that does not go on gives back what it held ahead in its record.
   */
  const run = (claimed: Claimed, ahead: Ahead): void => {
    const { delivery, mode, accountKey } = claimed;
    let task: Promise<void> | undefined;
    task = (async () => {
      let recorded: Promise<Claimed[]> | undefined;
      let held: Claimed[] = [];
      let next: Claimed | undefined;
      try {
        const result = await send(claimed);
        if (result.ok && canHandOver(claimed)) {
          // Leases what brings the slot back to its depth ahead, plus the one it goes on to:
          // all of them after a claim, one more in the steady state.
          recorded = record(claimed, result, 1 + config.webhookLeaseAhead - ahead.length);
          ahead.push(recorded.catch((): Claimed[] => []));
          next = await nextHeld(ahead);
        } else {
          held = await settled(ahead);
          recorded = record(claimed, result, 0, held);
        }
      } catch (err) {
        // The lease stays: the delivery is tried again once it expires (those held ahead too).
        failures.failed(err);
        held = await settled(ahead);
      }
      // Not going on: what was held ahead is no longer this process's (given back, or left to expire).
      for (const item of held) slots.deliveries.delete(item.delivery.id);
      // The next claim must see this outcome: a failure may have paused the endpoint or given up
      // its backlog. A store that runs units in the order queued (SQLite) lets the slot go as
      // soon as the outcome is on its way: the claim queued next commits together with this
      // record, running after it. Where units run side by side (PostgreSQL) a claim started now
      // may read before this record commits: there the slot is freed once the record is in.
      if (!next && !store.unitsRunInQueueOrder) await recorded?.catch(() => null);
      slots.add(delivery.id, mode, accountKey, delivery.endpoint_id, -1);
      if (next) start(next, ahead);
      else {
        if (!slots.byEndpoint.has(delivery.endpoint_id)) slots.endpointCap.delete(delivery.endpoint_id);
        if (!stopped) fill().catch((err) => failures.failed(err));
      }
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
          for (const item of await claim()) start(item);
        } while (again && !stopped);
      } finally {
        filling = undefined;
      }
    })();
    return filling;
  };

  let timer: NodeJS.Timeout | undefined;
  /**
   * A poll. An idle sender first reads whether anything is due, and claims only then: a claim
   * is a write transaction (it takes the write lock, and on SQLite a trip to the writer thread),
   * and most polls of a quiet server find nothing. While deliveries are in flight it claims at
   * once, as each slot that ends does.
   */
  const tick = async () => {
    try {
      if (slots.total > 0 || (await store.read((tx) => tx.events.anyDue(clock.now())))) await fill();
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
      // A slot handed over just before the stop starts one more delivery: it is waited for too.
      while (running.size > 0) await Promise.all([...running]);
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
