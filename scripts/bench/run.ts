/**
 * `npm run bench`: the API against its baselines on 127.0.0.1, printed as Markdown tables
 * (stdout) with progress on stderr, and written to build/bench/results.json (and results.md).
 * See docs/benchmarks.md.
 *
 * The machine may be busy with other work, so nothing is compared across time: the servers
 * being compared run side by side, and their scenarios are measured in interleaved rounds
 * (bare, ours, ours with response validation, Prism, then again), so a burst of outside load
 * hits them all alike. Each ratio is given over all rounds and per round (median and range).
 * Ours and bare Express are each served by two processes, which take the rounds in turn: one
 * process's pace is partly its own luck (docs/benchmarks.md).
 *
 *   npm run bench                  full run
 *   npm run bench -- --quick       smoke run: short slices, 10k vs 100k rows
 *   npm run bench -- --only api,growth
 *                                  sections: bare, api, validation, prism, growth, postgres, webhooks, start
 *                                  (postgres: a throwaway PostgreSQL cluster, see sections/postgres.ts;
 *                                  start: `npm start` to its first answer, see startup.ts)
 *   npm run bench -- --profile     also writes V8 CPU profiles of our servers to build/bench/profiles
 *   npm run bench -- --soak        also holds POST /payments at half of peak for 5 minutes (1 with
 *                                  --quick) and reports the API's memory minute by minute
 *
 * Each section is a module of sections/ (the order they run in: sections.ts); seed.ts creates
 * every account and seeded row; ratios.ts and targets.ts judge the rows; results.ts writes them.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readMachineTicks } from '../lib/machine-ticks.js';
import { apiEnvironment, type Bench, planFor } from './context.js';
import { describeMachine } from './machine.js';
import { installCleanup, killAllChildren, runCommand } from './processes.js';
import { computeRatios } from './ratios.js';
import { Recorder } from './recorder.js';
import { progress } from './report.js';
import { writeResults } from './results.js';
import { type Outcome, runSections, sectionNames } from './sections.js';
import { computeTargets } from './targets.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string', default: 'build/bench' },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help) {
  console.log(
    `Usage: npm run bench -- [--quick] [--only ${sectionNames.join(',')}] [--profile] [--soak] [--out build/bench]`,
  );
  process.exit(0);
}
const only = new Set((flags.only ?? sectionNames.join(',')).split(',').map((s) => s.trim()));
for (const name of only) {
  if (!(sectionNames as readonly string[]).includes(name)) {
    console.error(`--only: unknown section "${name}" (sections: ${sectionNames.join(', ')})`);
    process.exit(2);
  }
}

const plan = planFor(Boolean(flags.quick));
const outDir = resolve(root, flags.out ?? 'build/bench');
const profileDir = join(outDir, 'profiles');

async function main(): Promise<void> {
  installCleanup();
  // The servers under test run compiled, as `npm start` does: bring dist/ up to date first.
  await runCommand(process.execPath, ['scripts/build.mjs', '--if-stale'], {}, root);
  const machine = describeMachine();
  const startedAt = new Date();
  const ticksAtStart = readMachineTicks();
  const work = mkdtempSync(join(tmpdir(), 'payments-bench-'));
  // Also on Ctrl-C, which exits from the signal handler without reaching the `finally` below.
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  mkdirSync(outDir, { recursive: true });
  if (flags.profile) mkdirSync(profileDir, { recursive: true });
  progress(
    `Benchmark (${plan.mode}) on ${machine.nproc} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}; load average ${machine.loadAverageAtStart.join(' ')}`,
  );
  const bench: Bench = {
    root,
    plan,
    work,
    profileDir: flags.profile ? profileDir : undefined,
    apiEnv: apiEnvironment(),
    recorder: new Recorder(plan.warmupS),
  };
  let outcome: Outcome;
  try {
    outcome = await runSections(bench, only, Boolean(flags.soak));
  } finally {
    killAllChildren();
    rmSync(work, { recursive: true, force: true });
  }
  const ratios = computeRatios(bench.recorder, plan);
  const targets = computeTargets(bench.recorder, ratios, outcome, plan.growthRows);
  writeResults({
    root,
    outDir,
    plan,
    machine,
    startedAt,
    ticksAtStart,
    recorder: bench.recorder,
    ratios,
    targets,
    outcome,
  });
  if (flags.profile) progress(`CPU profiles in ${relative(root, profileDir)}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(
      `\nBenchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    killAllChildren();
    process.exit(1);
  },
);
