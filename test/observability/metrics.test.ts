import { register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../server/observability/metrics.js';

const quiet = { outboxDepth: () => 0, processMetrics: false };

describe('createMetrics', () => {
  describe('observeRequest', () => {
    it('shows a request in the text exposition, counted and timed', async () => {
      const metrics = createMetrics(quiet);
      metrics.observeRequest({
        operation: 'createPayout',
        method: 'post',
        status: 202,
        durationSeconds: 0.03,
      });
      const text = await metrics.registry.metrics();

      expect(text).toContain('# TYPE http_requests_total counter');
      expect(text).toContain('http_requests_total{operation="createPayout",method="POST",status="202"} 1');
      expect(text).toContain('# TYPE http_request_duration_seconds histogram');
      expect(text).toContain('http_request_duration_seconds_count{operation="createPayout",method="POST"} 1');
      expect(text).toContain(
        'http_request_duration_seconds_sum{operation="createPayout",method="POST"} 0.03',
      );
      // 0.03 s falls in the 0.05 bucket, not in the 0.025 one.
      expect(text).toContain(
        'http_request_duration_seconds_bucket{le="0.025",operation="createPayout",method="POST"} 0',
      );
      expect(text).toContain(
        'http_request_duration_seconds_bucket{le="0.05",operation="createPayout",method="POST"} 1',
      );
    });

    it('keeps one series per operation, method and status', async () => {
      const metrics = createMetrics(quiet);
      for (let i = 0; i < 3; i++) {
        metrics.observeRequest({
          operation: 'getBalance',
          method: 'GET',
          status: 200,
          durationSeconds: 0.001,
        });
      }
      metrics.observeRequest({ operation: 'getBalance', method: 'GET', status: 429, durationSeconds: 0.001 });
      const text = await metrics.registry.metrics();

      expect(text).toContain('http_requests_total{operation="getBalance",method="GET",status="200"} 3');
      expect(text).toContain('http_requests_total{operation="getBalance",method="GET",status="429"} 1');
      expect(text).toContain('http_request_duration_seconds_count{operation="getBalance",method="GET"} 4');
    });
  });

  describe('webhook_outbox_depth', () => {
    it('reads the depth from the caller at every scrape', async () => {
      let depth = 7;
      const metrics = createMetrics({ ...quiet, outboxDepth: () => depth });
      expect(await metrics.registry.metrics()).toMatch(/^webhook_outbox_depth 7$/m);
      depth = 2;
      expect(await metrics.registry.metrics()).toMatch(/^webhook_outbox_depth 2$/m);
    });

    it('accepts a depth read asynchronously', async () => {
      const metrics = createMetrics({ ...quiet, outboxDepth: async () => 41 });
      expect(await metrics.registry.metrics()).toMatch(/^webhook_outbox_depth 41$/m);
    });

    it('makes the scrape fail when the depth cannot be read, rather than report a stale value', async () => {
      const metrics = createMetrics({
        ...quiet,
        outboxDepth: () => {
          throw new Error('database is closed');
        },
      });
      await expect(metrics.registry.metrics()).rejects.toThrow('database is closed');
    });
  });

  describe('webhook_delivery_failures_total', () => {
    it('counts failed delivery attempts', async () => {
      const metrics = createMetrics(quiet);
      expect(await metrics.registry.metrics()).toMatch(/^webhook_delivery_failures_total 0$/m);
      metrics.countDeliveryFailure();
      metrics.countDeliveryFailure();
      expect(await metrics.registry.metrics()).toMatch(/^webhook_delivery_failures_total 2$/m);
    });
  });

  describe('registries', () => {
    it('gives each app its own registry, apart from the global one', async () => {
      const first = createMetrics(quiet);
      const second = createMetrics(quiet);
      first.observeRequest({ operation: 'listPayments', method: 'GET', status: 200, durationSeconds: 0.002 });

      expect(await first.registry.metrics()).toContain('operation="listPayments"');
      expect(await second.registry.metrics()).not.toContain('operation="listPayments"');
      expect(await globalRegistry.metrics()).not.toContain('http_requests_total');
    });

    it('exports process metrics unless told not to', async () => {
      expect(await createMetrics({ outboxDepth: () => 0 }).registry.metrics()).toContain(
        'process_cpu_user_seconds_total',
      );
      expect(await createMetrics(quiet).registry.metrics()).not.toContain('process_cpu_user_seconds_total');
    });

    it('collects the process metrics once per process, however many apps it starts', async () => {
      const first = createMetrics({ outboxDepth: () => 0 });
      const second = createMetrics({ outboxDepth: () => 0 });
      first.observeRequest({ operation: 'listPayments', method: 'GET', status: 200, durationSeconds: 0.002 });

      // The same event-loop monitor behind both (prom-client starts one per set of collectors,
      // and never stops it), while each app still counts only its own requests.
      const lag = 'nodejs_eventloop_lag_p99_seconds';
      expect(first.registry.getSingleMetric(lag)).toBeDefined();
      expect(second.registry.getSingleMetric(lag)).toBe(first.registry.getSingleMetric(lag));
      expect(await second.registry.metrics()).toContain(`${lag} `);
      expect(await second.registry.metrics()).not.toContain('operation="listPayments"');
    });

    it('serves the Prometheus text format', () => {
      expect(createMetrics(quiet).registry.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    });
  });
});
