/**
 * An evenly paced, open-loop load: request i is due at `start + i / rate`, whatever happened to
 * the ones before it, and its latency is counted from that due time (so a server that stalls
 * is charged for the requests it kept waiting: no coordinated omission).
 *
 * autocannon's `overallRate` is a budget refilled once a second: each connection sends its
 * share back to back and then idles until the next second, so "half of peak" there means full
 * speed for half of every second. This pass is the smooth version of the same rate.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { hostSteal, readMachineTicks, ticksBetween } from '../lib/machine-ticks.js';
import { type LatencySummary, type LoadRequest, summarize } from './load.js';

export interface PacedResult {
  title: string;
  rate: number;
  durationS: number;
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  /** Successful responses per second. */
  rps: number;
  /** From each request's due time to its response, in ms. */
  latencyMs: LatencySummary;
  /** From the moment each request was written to its response, in ms. */
  serviceMs: LatencySummary;
  /** Server CPU time per successful request, ms. */
  cpuMsPerRequest: number;
  /**
   * Share of the run the server's main thread was runnable but waiting for a CPU (0-1; NaN
   * when unknown): the machine's part in the tail, beside the server's own.
   */
  mainThreadCpuWait: number;
  /** Share of the vCPUs' time the host took during the run (0-1, NaN when unknown). */
  hostSteal: number;
}

export async function runPaced(options: {
  title: string;
  origin: string;
  request: LoadRequest;
  rate: number;
  durationS: number;
  /**
   * A first pass at the same pace for this many seconds, not measured, as autocannon's runs have.
   * The client's side of `node:http` is cold the first time a process paces (autocannon has a
   * client of its own): without it, the first paced scenario of a run (ours) shared the two
   * vCPUs with the client's JIT compiling, and the controls after it did not (docs/benchmarks.md,
   * issue 15's twenty-third session).
   */
  warmupS?: number;
  maxSockets?: number;
  server?: { cpuMs(): number; cpuWaitMs?(): number | undefined };
}): Promise<PacedResult> {
  if (options.warmupS)
    await runPaced({ ...options, durationS: options.warmupS, warmupS: 0, server: undefined });
  const { origin, request, rate, durationS } = options;
  const url = new URL(request.path, origin);
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
  const total = Math.max(1, Math.round(rate * durationS));
  const prefix = `bench-paced-${randomUUID()}`;
  const body = request.body ? Buffer.from(request.body) : undefined;
  const cpuBefore = options.server?.cpuMs() ?? Number.NaN;
  const waitBefore = options.server?.cpuWaitMs?.() ?? Number.NaN;
  const ticksBefore = readMachineTicks();
  const start = performance.now();
  const intervalMs = 1000 / rate;
  const { sent, ok, non2xx, errors, latencies, service } = await pace({
    url,
    request,
    body,
    prefix,
    agent,
    total,
    start,
    intervalMs,
  });
  const elapsedS = (performance.now() - start) / 1000;
  const cpuMs = (options.server?.cpuMs() ?? Number.NaN) - cpuBefore;
  const waitMs = (options.server?.cpuWaitMs?.() ?? Number.NaN) - waitBefore;
  const machine = ticksBetween(ticksBefore, readMachineTicks());
  agent.destroy();
  return {
    title: options.title,
    rate,
    durationS: elapsedS,
    sent,
    ok,
    non2xx,
    errors,
    rps: ok / elapsedS,
    latencyMs: summarize(latencies),
    serviceMs: summarize(service),
    cpuMsPerRequest: ok > 0 ? cpuMs / ok : Number.NaN,
    mainThreadCpuWait: waitMs / (elapsedS * 1000),
    hostSteal: hostSteal(machine),
  };
}

/**
 * Sends `total` requests, request i due at `start + i * intervalMs`, and waits for every answer: the
 * counts, and each 2xx's latency from its due time and from when it was written.
 */
async function pace({
  url,
  request,
  body,
  prefix,
  agent,
  total,
  start,
  intervalMs,
}: {
  url: URL;
  request: LoadRequest;
  body: Buffer | undefined;
  /** Idempotency-Keys are `<prefix>-<i>`. */
  prefix: string;
  agent: Agent;
  total: number;
  start: number;
  intervalMs: number;
}) {
  const latencies: number[] = [];
  const service: number[] = [];
  let sent = 0;
  let done = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;

  await new Promise<void>((resolve) => {
    const finish = () => {
      done++;
      if (done === total) resolve();
    };
    const send = (dueAt: number) => {
      const headers: Record<string, string> = { ...request.headers };
      if (body) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(body.length);
      }
      if (request.uniqueIdempotencyKey) headers['idempotency-key'] = `${prefix}-${sent}`;
      const writtenAt = performance.now();
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: request.method,
          headers,
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const now = performance.now();
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) {
              ok++;
              latencies.push(now - dueAt);
              service.push(now - writtenAt);
            } else {
              non2xx++;
            }
            finish();
          });
        },
      );
      req.on('error', () => {
        errors++;
        finish();
      });
      req.end(body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * intervalMs <= now) {
        send(start + sent * intervalMs);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()));
    };
    tick();
  });
  return { sent, ok, non2xx, errors, latencies, service };
}
