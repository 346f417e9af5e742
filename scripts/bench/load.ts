/**
 * Load generation with autocannon, and precise latency percentiles.
 *
 * autocannon's own latency histogram keeps whole milliseconds, which hides everything under
 * 1 ms, so each response time (a float, in ms) is also recorded from its `response` event and
 * the percentiles below come from those. autocannon's figures are kept in the JSON beside them.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import {
  hostSteal,
  type MachineTicks,
  readMachineTicks,
  sumTicks,
  ticksBetween,
} from '../lib/machine-ticks.js';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Sends a different `Idempotency-Key` with every request (each one is a new payment). */
  uniqueIdempotencyKey?: boolean;
}

export interface LoadOptions {
  title: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /**
   * More servers answering the same requests (instances sharing one database): autocannon deals
   * the connections round-robin over `origin` and these, so each gets an equal share.
   */
  alsoOrigins?: string[];
  request: LoadRequest;
  connections: number;
  durationS: number;
  /** A first run of this many seconds, not measured: lets the JIT and caches settle. */
  warmupS: number;
  /** A fixed rate (requests per second, all connections together) instead of as fast as possible. */
  overallRate?: number;
  /** The process answering, to charge it the CPU time it used during the run. */
  server?: { cpuMs(): number };
}

export interface LatencySummary {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** One uninterrupted autocannon run. */
export interface Slice {
  durationS: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Response time of every 2xx answer, ms. */
  samples: number[];
  /** CPU time the server used during the slice, ms (NaN if unknown). */
  serverCpuMs: number;
  /** The machine's CPU ticks during the slice, and the host's part of them (steal). */
  machine: MachineTicks;
  autocannon: { rpsAverage: number; p50: number; p99: number; max: number };
}

export interface RoundStat {
  rps: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
}

export interface LoadResult {
  title: string;
  connections: number;
  overallRate: number | null;
  durationS: number;
  /** Successful (2xx) responses per second. */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** From every 2xx response time, in ms. */
  latencyMs: LatencySummary;
  /** Server CPU time (user + system) per successful request, ms. */
  cpuMsPerRequest: number;
  /** Share of the vCPUs' time the host took during the slices (0-1, NaN when unknown). */
  hostSteal: number;
  /** Each slice on its own (interleaved runs measure a scenario in several slices). */
  rounds: RoundStat[];
  /** autocannon's histograms of the slices (whole ms; corrected for coordinated omission at a fixed rate). */
  autocannon: Array<{ rpsAverage: number; p50: number; p99: number; max: number }>;
}

export function summarize(samples: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) =>
    sorted.length === 0
      ? Number.NaN
      : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0);
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: sorted.length ? (sorted[sorted.length - 1] ?? 0) : Number.NaN,
  };
}

function requestsOf(request: LoadRequest): autocannon.Request[] {
  const base: autocannon.Request = {
    method: request.method,
    path: request.path,
    headers: { ...request.headers, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    ...(request.body ? { body: request.body } : {}),
  };
  if (!request.uniqueIdempotencyKey) return [base];
  const prefix = `bench-${randomUUID()}`;
  let counter = 0;
  return [
    {
      ...base,
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, 'idempotency-key': `${prefix}-${++counter}` },
      }),
    },
  ];
}

/**
 * One autocannon run of `durationS` seconds, with a progress bar on a terminal.
 */
export async function runSlice(
  options: Omit<LoadOptions, 'durationS' | 'warmupS'>,
  durationS: number,
  showProgress = true,
): Promise<Slice> {
  const instance = autocannon({
    url: options.alsoOrigins?.length ? [options.origin, ...options.alsoOrigins] : options.origin,
    title: options.title,
    connections: options.connections,
    duration: durationS,
    timeout: 30,
    requests: requestsOf(options.request),
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  });
  const samples: number[] = [];
  const cpuBefore = options.server?.cpuMs() ?? Number.NaN;
  const ticksBefore = readMachineTicks();
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) samples.push(ms);
  });
  if (showProgress && process.stderr.isTTY) {
    autocannon.track(instance, {
      renderProgressBar: true,
      renderResultsTable: false,
      progressBarString: `  ${options.title.padEnd(50)} [:bar] :percent`,
    });
  }
  const result = await instance;
  const serverCpuMs = (options.server?.cpuMs() ?? Number.NaN) - cpuBefore;
  const machine = ticksBetween(ticksBefore, readMachineTicks());
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
  return {
    durationS: result.duration,
    ok: samples.length,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    samples,
    serverCpuMs,
    machine,
    autocannon: {
      rpsAverage: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
    },
  };
}

/** Adds up the slices of one scenario: totals over the whole measured time, and each slice alone. */
export function combine(
  options: Pick<LoadOptions, 'title' | 'connections' | 'overallRate'>,
  slices: Slice[],
): LoadResult {
  const statusCodes: Record<string, number> = {};
  let durationS = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let cpuMs = 0;
  const samples: number[] = [];
  for (const slice of slices) {
    durationS += slice.durationS;
    ok += slice.ok;
    non2xx += slice.non2xx;
    errors += slice.errors;
    timeouts += slice.timeouts;
    cpuMs += slice.serverCpuMs;
    for (const [code, n] of Object.entries(slice.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
    for (const sample of slice.samples) samples.push(sample);
  }
  return {
    title: options.title,
    connections: options.connections,
    overallRate: options.overallRate ?? null,
    durationS,
    rps: durationS > 0 ? ok / durationS : 0,
    ok,
    non2xx,
    errors,
    timeouts,
    statusCodes,
    latencyMs: summarize(samples),
    cpuMsPerRequest: ok > 0 ? cpuMs / ok : Number.NaN,
    hostSteal: hostSteal(sumTicks(slices.map((slice) => slice.machine))),
    rounds: slices.map((slice) => {
      const latency = summarize(slice.samples);
      return {
        rps: slice.durationS > 0 ? slice.ok / slice.durationS : 0,
        p50: latency.p50,
        p99: latency.p99,
        cpuMsPerRequest: slice.ok > 0 ? slice.serverCpuMs / slice.ok : Number.NaN,
      };
    }),
    autocannon: slices.map((slice) => slice.autocannon),
  };
}

/**
 * Warms up, then measures one scenario in one run.
 *
 * @example
 * const r = await runLoad({ title: 'GET /', origin, request: { method: 'GET', path: '/', headers: {} },
 *   connections: 10, durationS: 10, warmupS: 2 });
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupS > 0) await runSlice(options, options.warmupS, false);
  return combine(options, [await runSlice(options, options.durationS)]);
}
