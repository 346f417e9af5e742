/**
 * The sections of `npm run bench`, the names `--only` selects, and the order they run in: the
 * throughput sections side by side (then half of peak and the soak on ours), then growth,
 * postgres, webhooks and start, each on its own (docs/benchmarks.md, "What is measured").
 */
import type { Bench } from './context.js';
import { apiSection } from './sections/api.js';
import { bareSection } from './sections/bare.js';
import { type GrowthResult, growthSection } from './sections/growth.js';
import { halfLoadSection } from './sections/half-load.js';
import { type OperatorPollingResult, operatorPollingSection } from './sections/operator-polling.js';
import { type PostgresSummary, postgresSection } from './sections/postgres.js';
import { prismSection } from './sections/prism.js';
import { type SoakResult, soakSection } from './sections/soak.js';
import { startSection } from './sections/start.js';
import { measureThroughput, stopThroughput, type ThroughputPart } from './sections/throughput.js';
import { type WebhookResult, webhooksSection } from './sections/webhooks.js';
import type { StartupResult } from './startup.js';

export const sectionNames = [
  'bare',
  'api',
  'validation',
  'prism',
  'growth',
  'postgres',
  'webhooks',
  'operators',
  'start',
] as const;
export type SectionName = (typeof sectionNames)[number];

/** What the sections found beside the rows the recorder holds (undefined: not run). */
export interface Outcome {
  /** POSTs per second of the half-of-peak runs and the soak (0 when ours did not run). */
  halfRate: number;
  growth: GrowthResult[];
  webhooks?: WebhookResult;
  postgres?: PostgresSummary;
  startup?: StartupResult;
  operators?: OperatorPollingResult;
  soak?: SoakResult;
}

/** The throughput sections, in the order their scenarios are listed in each round. */
const throughputSections: ReadonlyArray<[SectionName, (bench: Bench) => Promise<ThroughputPart>]> = [
  ['bare', bareSection],
  ['api', (bench) => apiSection(bench, 'api')],
  ['validation', (bench) => apiSection(bench, 'validation')],
  ['prism', prismSection],
];

/** Runs the selected sections in order; `soak` also holds ours at half of peak (`--soak`). */
export async function runSections(bench: Bench, selected: Set<string>, soak: boolean): Promise<Outcome> {
  const outcome: Outcome = { halfRate: 0, growth: [] };
  const parts: ThroughputPart[] = [];
  for (const [name, section] of throughputSections) {
    if (selected.has(name)) parts.push(await section(bench));
  }
  const scenarios = await measureThroughput(bench, parts);
  const ours = parts.find((part) => part.ours)?.ours;
  if (ours) outcome.halfRate = await halfLoadSection(bench, ours, scenarios);
  if (ours && soak) outcome.soak = await soakSection(bench, ours, outcome.halfRate);
  await stopThroughput(scenarios);
  if (selected.has('growth')) outcome.growth = await growthSection(bench);
  if (selected.has('postgres')) outcome.postgres = await postgresSection(bench);
  if (selected.has('webhooks')) outcome.webhooks = await webhooksSection(bench);
  if (selected.has('operators')) outcome.operators = await operatorPollingSection(bench);
  if (selected.has('start')) outcome.startup = await startSection(bench);
  return outcome;
}
