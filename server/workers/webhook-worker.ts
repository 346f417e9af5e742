import type { Logger } from 'pino';
import type { Deps } from '../domain/context.js';
import { write } from '../domain/write.js';
import type { Metrics } from '../observability/metrics.js';
import type { Store } from '../storage/store.js';
import { type Attempted, attemptDelivery } from '../webhooks/attempt.js';
import {
  afterAttempt,
  aheadLeaseMs,
  claimLeaseMs,
  type DeliverySettings,
  deliverySettings,
  mayGoOn,
  probing,
  retryScheduleOf,
  type SlotCaps,
  Slots,
  slotCaps,
  toLease,
} from '../webhooks/delivery-policy.js';
import { type Claimed, claimDeliveries, recordAttempt } from '../webhooks/outbox.js';
import type { RetrySchedule } from '../webhooks/retry-schedule.js';
import type { ResolveHost } from '../webhooks/url-policy.js';
import { failureLog } from './failure-log.js';
import type { Worker } from './polling-worker.js';

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

/** How a slot's attempt ended: what it records, and the delivery it goes on to, if any. */
interface SlotEnd {
  recorded: Promise<Claimed[]> | undefined;
  /** Held ahead and no longer this process's (given back, or left to expire). */
  held: Claimed[];
  next: Claimed | undefined;
}

/**
 * The outbox sender: a continuous pool, not batches. Every delivery that can start now is
 * claimed with a lease covering its whole attempt and started at once; each one that finishes
 * frees its slot and the next due delivery starts immediately, so no delivery waits for a slow
 * neighbour. A slot whose delivery succeeded while no one else wants a slot goes on to its
 * endpoint's next delivery, keeping a few leased ahead so that it sends while its records
 * commit (`slot` below).
 *
 * What is decided (caps, fair turns, retry or give up and when, the circuit breaker) is the
 * policy's (server/webhooks/delivery-policy.ts); this loop claims, sends and records.
 *
 * A crash mid-send leaves the lease to expire (those held ahead too), and the delivery is
 * sent again: at least once, never silently lost. In one process a delivery is never sent twice
 * at the same time.
 */
class WebhookSender {
  private readonly store: Store;
  private readonly settings: DeliverySettings;
  private readonly schedule: RetrySchedule;
  private readonly caps: SlotCaps;
  private readonly slots = new Slots();
  private readonly running = new Set<Promise<void>>();
  private readonly failures: ReturnType<typeof failureLog>;
  private waiters: (() => void)[] = [];
  private filling: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  succeeded = 0;
  stopped = false;

  constructor(
    private readonly deps: Deps,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly resolveHost: ResolveHost | undefined,
  ) {
    this.store = deps.store;
    this.settings = deliverySettings(deps.config);
    this.schedule = retryScheduleOf(this.settings);
    this.caps = slotCaps(this.settings);
    this.failures = failureLog(logger, 'webhook delivery');
  }

  /** Leases what can start now, given the slots in flight (server/webhooks/outbox.ts). */
  private claim(): Promise<Claimed[]> {
    const { slots, caps } = this;
    const args = {
      now: this.deps.clock.now(),
      leaseMs: claimLeaseMs(this.settings),
      slots: slots.data(),
      caps,
    };
    return write(this.deps, claimDeliveries, args);
  }

  private send(claimed: Claimed): Promise<Attempted> {
    const { config, clock } = this.deps;
    return attemptDelivery(claimed, {
      timeoutMs: config.webhookTimeoutMs,
      allowPrivateUrlsInTest: config.webhookAllowPrivateUrlsInTest,
      resolveHost: this.resolveHost,
      now: () => clock.now(),
    });
  }

  /**
   * Records an attempt as the policy decides it. `lease`: how many of the endpoint's next due
   * deliveries the same transaction leases for the slot, which goes on (0: it does not);
   * `release`: what the slot held ahead, given back because it does not go on. Answers what it
   * leased, marked in flight. The record is queued before anything is awaited (see `slot`).
   */
  private async record(claimed: Claimed, result: Attempted, lease: number, release: Claimed[] = []) {
    const { delivery, endpoint } = claimed;
    const attemptedAt = this.deps.clock.now();
    if (!result.ok) this.countFailure(claimed, result);
    const leased = await write(this.deps, recordAttempt, {
      outcome: {
        id: delivery.id,
        lease: claimed.lease,
        ...afterAttempt(result, delivery, attemptedAt, this.schedule),
        last_attempt_at: attemptedAt,
        last_response_status: result.status,
        last_error: result.error,
        duration_ms: result.durationMs,
      },
      endpointId: endpoint && !result.gone ? endpoint.id : null,
      settings: this.settings,
      ...(lease > 0 && {
        handOver: {
          now: attemptedAt,
          leaseMs: aheadLeaseMs(this.settings),
          deliveries: lease,
          busyDeliveries: [...this.slots.deliveries],
          accountKey: claimed.accountKey,
          mode: claimed.mode,
        },
      }),
      ...(release.length > 0 && {
        release: release.map((held) => ({ id: held.delivery.id, lease: held.lease })),
      }),
    });
    for (const item of leased) this.slots.deliveries.add(item.delivery.id);
    if (result.ok) this.succeeded++;
    return leased;
  }

  private countFailure({ delivery }: Claimed, result: Attempted): void {
    this.metrics.countDeliveryFailure();
    if (result.cause) {
      this.logger.debug(
        { delivery: delivery.id, endpoint: delivery.endpoint_id, cause: result.cause },
        'no answer',
      );
    }
  }

  /** Takes a slot for a leased delivery and sends it; `ahead`: what the slot holds next. */
  private start(item: Claimed, ahead: Ahead = []): void {
    this.slots.add(item.delivery.id, item.mode, item.accountKey, item.delivery.endpoint_id, 1);
    if (item.endpoint && probing(item.endpoint.consecutive_failures, this.settings)) {
      this.slots.endpointCap.set(item.delivery.endpoint_id, 1);
    }
    const task: Promise<void> = this.slot(item, ahead).finally(() => {
      this.running.delete(task);
      const woken = this.waiters;
      this.waiters = [];
      for (const wake of woken) wake();
    });
    this.running.add(task);
  }

  /**
   * Sends a delivery in its slot and records it, then frees the slot or goes on (`end`).
   * After a success, while no one else could want the slot, the slot goes on to its endpoint's
   * next delivery. It keeps `webhookLeaseAhead` of them leased ahead, oldest first: each record
   * that goes on leases what tops that up, and the slot sends the oldest held while the newer
   * records commit, so its sends do not wait for the disk. A slot that does not go on gives
   * back what it held ahead in its record.
   */
  private async slot(claimed: Claimed, ahead: Ahead): Promise<void> {
    const end: SlotEnd = { recorded: undefined, held: [], next: undefined };
    try {
      const result = await this.send(claimed);
      const goesOn =
        result.ok &&
        !this.stopped &&
        mayGoOn(this.slots, this.caps, {
          endpointId: claimed.delivery.endpoint_id,
          mode: claimed.mode,
          accountKey: claimed.accountKey,
        });
      if (goesOn) {
        end.recorded = this.record(claimed, result, toLease(this.settings, ahead.length));
        ahead.push(end.recorded.catch((): Claimed[] => []));
        end.next = await nextHeld(ahead);
      } else {
        end.held = await settled(ahead);
        end.recorded = this.record(claimed, result, 0, end.held);
      }
    } catch (err) {
      // The lease stays: the delivery is tried again once it expires (those held ahead too).
      this.failures.failed(err);
      end.held = await settled(ahead);
    }
    await this.end(claimed, ahead, end);
  }

  /** Frees the slot, or starts the delivery it goes on to; then waits for its record. */
  private async end({ delivery, mode, accountKey }: Claimed, ahead: Ahead, end: SlotEnd): Promise<void> {
    const { slots } = this;
    for (const item of end.held) slots.deliveries.delete(item.delivery.id);
    // The next claim must see this outcome: a failure may have paused the endpoint or given up
    // its backlog. A store that runs units in the order queued (SQLite) lets the slot go as
    // soon as the outcome is on its way: the claim queued next commits together with this
    // record, running after it. Where units run side by side (PostgreSQL) a claim started now
    // may read before this record commits: there the slot is freed once the record is in.
    if (!end.next && !this.store.unitsRunInQueueOrder) await end.recorded?.catch(() => null);
    slots.add(delivery.id, mode, accountKey, delivery.endpoint_id, -1);
    if (end.next) this.start(end.next, ahead);
    else {
      if (!slots.byEndpoint.has(delivery.endpoint_id)) slots.endpointCap.delete(delivery.endpoint_id);
      if (!this.stopped) this.fill().catch((err) => this.failures.failed(err));
    }
    try {
      await end.recorded;
    } catch (err) {
      this.failures.failed(err);
    }
  }

  /** Claims and starts what can start now; calls made meanwhile are folded into one more round. */
  fill(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.filling) {
      this.again = true;
      return this.filling;
    }
    this.filling = (async () => {
      try {
        do {
          this.again = false;
          for (const item of await this.claim()) this.start(item);
        } while (this.again && !this.stopped);
      } finally {
        this.filling = undefined;
      }
    })();
    return this.filling;
  }

  /**
   * A poll. An idle sender first reads whether anything is due, and claims only then: a claim
   * is a write transaction (it takes the write lock, and on SQLite a trip to the writer thread),
   * and most polls of a quiet server find nothing. While deliveries are in flight it claims at
   * once, as each slot that ends does.
   */
  private readonly tick = async (): Promise<void> => {
    try {
      const { clock } = this.deps;
      if (this.slots.total > 0 || (await this.store.read((tx) => tx.deliveries.anyDue(clock.now()))))
        await this.fill();
      this.failures.succeeded();
    } catch (err) {
      this.failures.failed(err);
    }
    if (!this.stopped) this.schedulePoll();
  };

  schedulePoll(): void {
    this.timer = setTimeout(this.tick, this.deps.config.webhookPollMs);
  }

  /** Until no delivery is in flight, those that become startable as slots free up included. */
  async drain(): Promise<void> {
    await this.fill();
    while (this.running.size > 0) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
      await this.filling;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.filling?.catch(() => {});
    // A slot handed over just before the stop starts one more delivery: it is waited for too.
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}

/**
 * Starts the outbox sender (`WebhookSender`), polling every `webhookPollMs` when `autostart`.
 * Fairness: slots are capped in all, per account and mode, and per endpoint; selection goes
 * round-robin across accounts, oldest due first within each; live deliveries are chosen before
 * sandbox ones and a quarter of the slots is kept for them. An endpoint that fails
 * `webhookCircuitFailures` times in a row is paused (circuit open) for a cooldown that doubles
 * while it keeps failing; once the pause ends one delivery probes it, and a success closes the
 * circuit. That state is in the database, so it survives restarts.
 */
export function startWebhookWorker(
  deps: Deps,
  logger: Logger,
  metrics: Metrics,
  options: { autostart: boolean; resolveHost?: ResolveHost },
): Worker {
  const sender = new WebhookSender(deps, logger, metrics, options.resolveHost);
  if (options.autostart) sender.schedulePoll();
  return {
    /**
     * Starts every delivery that can start, and those that become startable as slots free
     * up, until none is in flight; returns how many succeeded meanwhile (tests call it).
     */
    async runOnce() {
      const before = sender.succeeded;
      await sender.drain();
      return sender.succeeded - before;
    },
    stop: () => sender.stop(),
  };
}
