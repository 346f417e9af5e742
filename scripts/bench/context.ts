/**
 * What every section of `npm run bench` shares: the plan (how long, how many rounds), the
 * settings of the API servers under test, where files go, and the recorder the measured rows
 * land in (run.ts builds it once; docs/benchmarks.md describes the run).
 */
import { randomBytes } from 'node:crypto';
import type { Recorder } from './recorder.js';

/** The run's durations and sizes: `--quick` is a smoke run, short slices and 100k rows. */
export function planFor(quick: boolean) {
  return quick
    ? {
        mode: 'quick' as const,
        connections: 10,
        warmupS: 1,
        rounds: 2,
        sliceS: 1,
        halfLoadS: 3,
        growthRows: [10_000, 100_000],
        growthRounds: 2,
        growthSliceS: 1,
        webhookEvents: 300,
        operatorPending: 100,
        steadyRate: 100,
        steadyDurationS: 2,
        soakS: 60,
        soakSegmentS: 10,
      }
    : {
        mode: 'full' as const,
        connections: 10,
        warmupS: 2,
        rounds: 6,
        sliceS: 2,
        halfLoadS: 10,
        growthRows: [10_000, 1_000_000],
        growthRounds: 4,
        growthSliceS: 2,
        webhookEvents: 3_000,
        operatorPending: 1_000,
        steadyRate: 100,
        steadyDurationS: 10,
        soakS: 300,
        soakSegmentS: 30,
      };
}
export type Plan = ReturnType<typeof planFor>;

/**
 * Processes serving each of the throughput section's servers (ours, bare Express), their rounds
 * taken in turn (`Scenario.alsoServedBy`).
 */
export const processesPerServer = 2;

/** Settings every API server under test shares (a fresh secret of each kind per run). */
export function apiEnvironment() {
  return {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // Production requires a key-encryption key for stored webhook secrets; a fresh one per run.
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    // The highest the configuration accepts (1,000,000 calls per key per second): never reached.
    RATE_LIMIT_PER_WINDOW: '1000000',
    // Keeps the sandbox settlement out of the request-path measurements (the payments stay
    // pending, and the worker's first pass is a minute away); the webhook section measures it.
    SANDBOX_SETTLE_MS: '3600000',
    SETTLEMENT_POLL_MS: '60000',
    // Turns GET /metrics on: the soak reads the heap there (heap.ts). Only the route is added.
    METRICS_TOKEN: randomBytes(24).toString('hex'),
  };
}

/** The shared context handed to every section. */
export interface Bench {
  /** The repository's root: servers and the admin CLI run from there. */
  root: string;
  plan: Plan;
  /** A temporary folder for the run's SQLite files, deleted at the end. */
  work: string;
  /** Where V8 CPU profiles of our servers go (`--profile`), else undefined. */
  profileDir: string | undefined;
  apiEnv: ReturnType<typeof apiEnvironment>;
  recorder: Recorder;
}

/** Progress on stderr (stdout carries the tables only). */
