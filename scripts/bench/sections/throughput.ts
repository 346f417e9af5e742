/**
 * The throughput section: the scenarios of `bare`, `api`, `validation` and `prism`, every server
 * side by side, measured in interleaved rounds (docs/benchmarks.md, "Interleaved rounds").
 */
import type { Api, Operation, Scenario } from '../api.js';
import type { Bench } from '../context.js';
import type { LoadRequest } from '../load.js';

/** Our server of the `api` section and its POST: the half-of-peak and soak sections load it. */
export interface Ours {
  api: Api;
  post: LoadRequest;
}

/** What one of the throughput sections adds to the rounds. */
export interface ThroughputPart {
  scenarios: Record<Operation, Scenario[]>;
  ours?: Ours;
}

export const throughputSection = 'Throughput';

/**
 * Measures every part's scenarios, POSTs first, then the GETs, then the lists, and stops the
 * processes that only served rounds; answers the scenarios in the order measured.
 */
export async function measureThroughput(bench: Bench, parts: ThroughputPart[]): Promise<Scenario[]> {
  const { plan, recorder } = bench;
  const scenarios = (['post', 'get', 'list'] as const).flatMap((op) =>
    parts.flatMap((part) => part.scenarios[op]),
  );
  await recorder.interleave('Throughput', scenarios, plan.rounds, plan.sliceS);
  // The second processes served the rounds only: idle, their timers would still wake them while
  // the sections below measure the first ones (the paced tail, the soak).
  const seconds = new Set(scenarios.flatMap((s) => (s.alsoServedBy ?? []).map((also) => also.server)));
  await Promise.all([...seconds].map((server) => server.stop()));
  return scenarios;
}

/** Stops every server of the throughput scenarios, once the sections that load them are done. */
export async function stopThroughput(scenarios: Scenario[]): Promise<void> {
  await Promise.all([...new Set(scenarios.map((s) => s.server))].map((server) => server.stop()));
}
