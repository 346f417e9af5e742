/**
 * `npm test` (= `npm run validate`): every check CI runs, stopping at the first that fails, and a
 * table of how long each stage took, so a slow stage is seen at once.
 *
 * The quick checks run first, two at a time (the type check, the longest, beside all the others
 * in turn), so a lint error fails in seconds and dist/ is compiled before a suite starts. The
 * test suites then run two at a time, longest first, each of the two runners taking the next
 * suite when its own ends, the first as soon as the other checks have ended (the type check may
 * still run beside it: the runner would otherwise wait about 8 s for it with a core idle). On
 * this 2-core machine the suites together keep both cores busy (the fault tests mostly wait on
 * killed and restarted servers, which lets a CPU-bound suite beside them run). Each stage's
 * output is kept in build/ci/<stage>.log and printed whole when the stage ends, so two stages
 * never interleave. A failure stops everything still running.
 *
 * @example
 * npm run validate                       # all stages
 * npm run validate -- lint typecheck     # only these, one after the other, in this order
 * npm run validate -- --serial           # all stages, one after the other (output streamed)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readMachineTicks, ticksBetween } from './lib/machine-ticks.js';

// build:if-stale compiles dist/ once, when a source is newer, before suites that run the
// compiled server start side by side (each suite's global setup would otherwise compile it).
// Longest first: the type check (20-40 s) on one runner, the other five (6-11 s) on the other.
const checks = [
  'typecheck',
  'check:generated',
  'check:clients',
  'lint:spec',
  'lint',
  'docs',
  'build:if-stale',
] as const;
/** About the longest first, as they took side by side: test:unit 190-270 s, then 110-155, 95-125, 55-90 and 50-85 s. */
const suites = [
  'test:unit',
  'test:faults',
  'test:postgres',
  'test:faults:postgres',
  'test:contract',
] as const;
const stages: readonly string[] = [...checks, ...suites];

const args = process.argv.slice(2);
const serial = args.includes('--serial');
const chosen = args.filter((a) => a !== '--serial');
const unknown = chosen.filter((name) => !stages.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown stage(s): ${unknown.join(', ')}. Stages: ${stages.join(', ')}`);
  process.exit(2);
}

interface Timing {
  stage: string;
  seconds: number;
  result: 'ok' | 'FAIL' | 'stopped';
  /** Its output is in its log file (it ran beside another stage). */
  buffered: boolean;
}
const timings: Timing[] = [];
const running = new Set<ChildProcess>();
let failed: string | undefined;
const logDir = join(process.cwd(), 'build', 'ci');
const logPath = (stage: string) => join(logDir, `${stage.replace(/:/g, '-')}.log`);

/**
 * Runs `npm run <stage>`. Streamed, its output goes straight to the terminal; `buffered`, it is
 * written to build/ci/<stage>.log and printed whole when the stage ends.
 */
function runStage(stage: string, buffered: boolean): Promise<void> {
  const started = performance.now();
  if (!buffered) console.log(`\n▶ npm run ${stage}`);
  const child = spawn('npm', ['run', '--silent', stage], {
    stdio: ['ignore', buffered ? 'pipe' : 'inherit', buffered ? 'pipe' : 'inherit'],
    // Its own process group: a failure elsewhere stops the stage with everything it started.
    detached: buffered,
  });
  running.add(child);
  const chunks: Buffer[] = [];
  if (buffered) {
    mkdirSync(logDir, { recursive: true });
    const log = createWriteStream(logPath(stage));
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        log.write(chunk);
      });
    }
    child.on('close', () => log.end());
  }
  return new Promise((resolve) => {
    child.on('close', (code) => {
      running.delete(child);
      const result = code === 0 ? 'ok' : failed ? 'stopped' : 'FAIL';
      const seconds = (performance.now() - started) / 1000;
      if (buffered) {
        console.log(`\n▶ npm run ${stage} (${result}, ${seconds.toFixed(1)} s)`);
        process.stdout.write(Buffer.concat(chunks));
      }
      timings.push({ stage, seconds, result, buffered });
      if (result === 'FAIL' && !failed) {
        failed = stage;
        stopOthers();
      }
      resolve();
    });
  });
}

/** How long a stopped stage's processes get to end on SIGTERM before the rest are killed. */
const stopGraceMs = 5_000;
/** Settles once the stopped stages' groups got their SIGKILL (npm test waits for it). */
let stopping: Promise<void> | undefined;

/**
 * Stops every other running stage with everything it started: SIGTERM to its process group,
 * then SIGKILL to what is left of the group. The second signal is needed: a test worker that
 * handles SIGTERM (Playwright installs a handler that closes its browsers) can outlive its
 * parent, reparented to init and still running tests; two such runs had left four workers
 * taking the machine's CPU for the next run (its suites took 988 s instead of about 330).
 */
function stopOthers(): void {
  const groups = [...running].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
  const signal = (name: NodeJS.Signals) => {
    for (const pid of groups) {
      try {
        process.kill(-pid, name);
      } catch {
        // Already gone.
      }
    }
  };
  signal('SIGTERM');
  stopping = new Promise((done) => setTimeout(done, stopGraceMs)).then(() => signal('SIGKILL'));
}

async function runInOrder(names: readonly string[], buffered: boolean): Promise<void> {
  for (const stage of names) {
    if (failed) return;
    await runStage(stage, buffered);
  }
}

/**
 * The type check on one runner and the other checks, in order, on the other; then each runner
 * takes the next suite when it is free, once the other checks (dist/ compiled among them) have
 * ended.
 */
async function runChecksThenSuites(): Promise<void> {
  const [longest, ...others] = checks;
  const queue: string[] = [...suites];
  const othersDone = runInOrder(others, true);
  const takeSuites = async () => {
    await othersDone;
    for (let stage = queue.shift(); stage && !failed; stage = queue.shift()) await runStage(stage, true);
  };
  await Promise.all([runStage(longest, true).then(takeSuites), othersDone.then(takeSuites)]);
}

const started = performance.now();
const ticksAtStart = readMachineTicks();
if (serial || chosen.length > 0) {
  await runInOrder(chosen.length > 0 ? chosen : stages, false);
} else {
  console.log(
    `\n▶ ${checks.join(', ')}, then ${suites.join(', ')}: two at a time (each printed when it ends)`,
  );
  await runChecksThenSuites();
}

console.log('\nStage timings');
for (const t of timings) {
  console.log(`  ${t.result.padEnd(7)} ${t.stage.padEnd(21)} ${t.seconds.toFixed(1).padStart(7)} s`);
}
const sum = timings.reduce((total, t) => total + t.seconds, 0);
const wall = (performance.now() - started) / 1000;
console.log(
  `  ${'total'.padEnd(29)} ${wall.toFixed(1).padStart(7)} s (stages add up to ${sum.toFixed(1)} s)`,
);
// The same tests take longer on a machine whose host takes more of its vCPUs (steal): the
// share is printed so a slow run can be told from slower code (docs/benchmarks.md).
const machine = ticksBetween(ticksAtStart, readMachineTicks());
if (machine.total > 0) {
  const share = (ticks: number) => `${((ticks / machine.total) * 100).toFixed(0)}%`;
  console.log(
    `  the machine's vCPUs meanwhile: ${share(machine.total - machine.idle - machine.steal)} busy, ${share(machine.idle)} idle, ${share(machine.steal)} taken by the host (steal)`,
  );
}
if (failed) {
  await stopping;
  const where = timings.find((t) => t.stage === failed)?.buffered ? ` (its output: ${logPath(failed)})` : '';
  console.error(`\nnpm test failed at stage ${failed}${where}`);
  process.exit(1);
}
