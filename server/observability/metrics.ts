/**
 * Prometheus metrics (served by the app at its metrics route): request counts and latencies by
 * contract operation, webhook outbox depth and delivery failures. Each call of `createMetrics`
 * has its own registry, never prom-client's global one, so that tests and several apps in one
 * process do not share or double-register metrics. The process metrics are the exception: they
 * describe the process, and are collected once for it (`processMetricsRegistry`).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { OperatorCallObserver } from '../operators/http-call.js';

export interface MetricsOptions {
  /**
   * Reads the number of webhook deliveries waiting in the outbox. Called on every scrape, so
   * it should be one cheap query; if it throws, the scrape fails and the failure is visible.
   */
  outboxDepth: () => number | Promise<number>;
  /** Also export Node.js process metrics (CPU, memory, event loop lag). Defaults to true. */
  processMetrics?: boolean;
}

interface RequestObservation {
  /**
   * The contract's operationId (`createPayout`), or a fixed placeholder such as `unmatched`
   * for requests that match no operation. Never a raw path: ids in paths would create a new
   * time series per object.
   */
  operation: string;
  method: string;
  status: number;
  durationSeconds: number;
}

export interface Metrics {
  /** `await registry.metrics()` is the text exposition; `registry.contentType` its media type. */
  readonly registry: Registry;
  /** Records one answered API request. */
  observeRequest(observation: RequestObservation): void;
  /** Records one webhook delivery attempt that did not succeed. */
  countDeliveryFailure(): void;
  /** Records each call to a Mobile Money operator: latency, and errors by operator and kind. */
  readonly operatorCalls: OperatorCallObserver;
}

let processRegistry: Registry | undefined;

/**
 * The Node.js process metrics (CPU, memory, event loop lag, collections), one set per process,
 * shared by every app in it. prom-client's collectors start an event-loop delay monitor (a timer
 * that wakes the process 100 times a second) and a collection observer that nothing can stop:
 * one set per app would add both again for every app a process ever started (a test process
 * starts about a hundred), all still running after the apps have stopped.
 */
function processMetricsRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Latency buckets in seconds, from a cached read to the longest a request should take. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Creates the metrics of one app, in a registry of their own.
 *
 * @example
 * const metrics = createMetrics({ outboxDepth: () => storage.countPendingDeliveries() });
 * metrics.observeRequest({ operation: 'createPayout', method: 'POST', status: 202, durationSeconds: 0.012 });
 * res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
 */
export function createMetrics(options: MetricsOptions): Metrics {
  const own = new Registry();
  const registers = [own];

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'API requests answered, by contract operation, method and status.',
    labelNames: ['operation', 'method', 'status'] as const,
    registers,
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving an API request to answering it, by contract operation and method.',
    labelNames: ['operation', 'method'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const { outboxDepth } = options;
  new Gauge({
    name: 'webhook_outbox_depth',
    help: 'Webhook deliveries waiting in the outbox (not yet delivered nor abandoned).',
    registers,
    async collect() {
      this.set(await outboxDepth());
    },
  });
  const deliveryFailures = new Counter({
    name: 'webhook_delivery_failures_total',
    help: 'Webhook delivery attempts that did not get a 2xx answer.',
    registers,
  });
  const operatorDurations = new Histogram({
    name: 'operator_request_duration_seconds',
    help: 'Time of each call to a Mobile Money operator (answered or not), by operator and call.',
    labelNames: ['operator', 'call'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const operatorErrors = new Counter({
    name: 'operator_request_errors_total',
    help: 'Operator calls that failed, by operator, call and kind (timeout, network, http_4xx, http_5xx, auth, bad_response).',
    labelNames: ['operator', 'call', 'kind'] as const,
    registers,
  });
  const registry = (options.processMetrics ?? true) ? Registry.merge([own, processMetricsRegistry()]) : own;

  return {
    registry,
    observeRequest({ operation, method, status, durationSeconds }) {
      const upperMethod = method.toUpperCase();
      requests.inc({ operation, method: upperMethod, status: String(status) });
      durations.observe({ operation, method: upperMethod }, Math.max(0, durationSeconds));
    },
    countDeliveryFailure() {
      deliveryFailures.inc();
    },
    operatorCalls: {
      observe({ operator, call, durationSeconds, error }) {
        operatorDurations.observe({ operator, call }, Math.max(0, durationSeconds));
        if (error) operatorErrors.inc({ operator, call, kind: error });
      },
    },
  };
}
