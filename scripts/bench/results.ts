/**
 * The run's output: the Markdown tables on stdout (and in results.md), and every figure in
 * results.json (docs/benchmarks.md: "It prints progress on stderr ... and writes").
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { hostSteal, type MachineTicks, readMachineTicks, ticksBetween } from '../lib/machine-ticks.js';
import { type Plan, processesPerServer } from './context.js';
import type { Machine } from './machine.js';
import type { Recorder } from './recorder.js';
import {
  formatPlain,
  formatRatios,
  formatRows,
  formatTargets,
  ms,
  percent,
  progress,
  type Ratio,
  round,
  sizeLabel,
  type Target,
} from './report.js';
import type { PostgresSummary } from './sections/postgres.js';
import type { WebhookResult } from './sections/webhooks.js';
import type { Outcome } from './sections.js';
import type { DeliveryStats } from './webhooks.js';

export interface RunResults {
  root: string;
  outDir: string;
  plan: Plan;
  machine: Machine;
  startedAt: Date;
  ticksAtStart: MachineTicks | undefined;
  recorder: Recorder;
  ratios: Ratio[];
  targets: Target[];
  outcome: Outcome;
}

/** Prints the tables and writes results.json and results.md into `outDir`. */
export function writeResults(results: RunResults): void {
  const text = `${humanTables(results).join('\n\n')}\n`;
  process.stdout.write(`\n${text}`);
  const { root, outDir, plan, machine, startedAt, recorder, ratios, targets, outcome } = results;
  const jsonPath = join(outDir, 'results.json');
  writeFileSync(
    jsonPath,
    `${JSON.stringify(
      {
        mode: plan.mode,
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: { ...machine, loadAverageAtEnd: loadavg().map((v) => round(v, 2)) },
        plan,
        scenarios: recorder.rows.map((r) => ({ ...r, detail: recorder.details[r.key] })),
        ratios,
        targets,
        growth: outcome.growth,
        webhooks: outcome.webhooks ?? null,
        postgres: outcome.postgres ?? null,
        startup: outcome.startup ?? null,
        soak: outcome.soak ?? null,
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(join(outDir, 'results.md'), text);
  progress(`\nWrote ${relative(root, jsonPath)} and ${relative(root, join(outDir, 'results.md'))}`);
}

function humanTables({
  plan,
  machine,
  startedAt,
  ticksAtStart,
  recorder,
  ratios,
  targets,
  outcome,
}: RunResults): string[] {
  const machineLine = `${machine.nproc} x ${machine.cpuModel}, ${machine.memoryGiB} GiB RAM, ${machine.os}, Node ${machine.node}`;
  const parts = [
    `## Benchmark results (${plan.mode} run, ${startedAt.toISOString()})`,
    `Machine: ${machineLine}. The host's steal over the whole run: ${percent(hostSteal(ticksBetween(ticksAtStart, readMachineTicks())))} of the vCPUs' time. Load average at start ${machine.loadAverageAtStart.join(' ')}, at end ${loadavg()
      .map((v) => v.toFixed(2))
      .join(
        ' ',
      )}. ${plan.connections} connections; throughput: ${plan.rounds} interleaved rounds of ${plan.sliceS} s per scenario after ${plan.warmupS} s of warm-up, ours and bare Express each served by ${processesPerServer} processes in turn; cost growth: ${plan.growthRounds} rounds of ${plan.growthSliceS} s.`,
    formatRows(recorder.rows),
  ];
  if (outcome.webhooks) parts.push(webhookTable(outcome.webhooks));
  if (outcome.postgres) parts.push(postgresSeedingTable(outcome.postgres));
  if (ratios.length) parts.push(`### Ratios\n\n${formatRatios(ratios)}`);
  if (targets.length) parts.push(`### Targets\n\n${formatTargets(targets)}`);
  return parts;
}

function webhookTable(w: WebhookResult): string {
  const line = (phase: string, s: DeliveryStats) => [
    phase,
    String(s.events),
    Math.round(s.settlementsPerSecond).toString(),
    Math.round(s.deliveriesPerSecond).toString(),
    ms(s.delayMs.p50),
    ms(s.delayMs.p99),
    ms(s.delayMs.max),
  ];
  return `### Webhook delivery (local receiver)\n\n${formatPlain(
    ['Phase', 'events', 'settled/s', 'delivered/s', 'delay p50 ms', 'delay p99 ms', 'delay max ms'],
    [
      line(`backlog of ${w.burst.events} deliveries, receiver answering again`, w.burst),
      line(`steady ${w.steady.rate} payments/s`, w.steady),
      line(`after a restart, ${w.restart.events} settlements at once (information)`, w.restart),
    ],
  )}\n\nWhile the backlog of deliveries drained: ${w.burst.cpuMsPerDelivery} ms of server CPU per delivery, peak RSS ${Math.round(w.burst.peakRssMb)} MB. Its delays count from settlement, the receiver's stall included.`;
}

function postgresSeedingTable(postgres: PostgresSummary): string {
  return `### PostgreSQL seeding\n\n${formatPlain(
    ['Rows (payments + call logs)', 'INSERT ... SELECT s', 'VACUUM ANALYZE + CHECKPOINT s', 'total s'],
    postgres.growth.map((g) => [
      `${sizeLabel(g.rows)} + ${sizeLabel(g.rows)}`,
      g.seeded.insertSeconds.toFixed(1),
      g.seeded.vacuumSeconds.toFixed(1),
      g.seeded.seconds.toFixed(1),
    ]),
  )}\n\n${postgres.server.split(' on ')[0]}, ${Object.entries(postgres.settings)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}; the API's default pool of 10 connections per instance.`;
}
