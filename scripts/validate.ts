/**
 * `npm test` (= `npm run validate`): every check CI runs, stopping at the first that fails, and a
 * table of how long each stage took, so a slow stage is seen at once.
 *
 * The quick checks run first, one after the other, so a lint error fails in seconds. The test
 * suites then run two at a time, longest first, each of the two runners taking the next suite
 * when its own ends: on this 2-core machine the suites together keep both cores busy (the fault
 * tests mostly wait on killed and restarted servers, which lets a CPU-bound suite beside them
 * run). Each stage's output is kept in build/ci/<stage>.log and printed whole when the stage
 * ends, so two stages never interleave. A failure stops everything still running.
 *
 * @example
 * npm run validate                       # all stages
 * npm run validate -- lint typecheck     # only these, one after the other, in this order
 * npm run validate -- --serial           # all stages, one after the other (output streamed)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';

// build:if-stale compiles dist/ once, when a source is newer, before suites that run the
// compiled server start side by side (each suite's global setup would otherwise compile it).
const checks = ['check:generated', 'lint:spec', 'lint', 'typecheck', 'docs', 'build:if-stale'] as const;
/** Longest first (seconds side by side in the last measured run: 198, 117, 97, 71, 59). */
const suites = [
  'test:unit',
  'test:faults',
  'test:postgres',
  'test:faults:postgres',
  'test:contract',
] as const;
const runners = 2;
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
}
const timings: Timing[] = [];
const running = new Set<ChildProcess>();
let failed: string | undefined;
const logDir = join(process.cwd(), 'build', 'ci');

/** Runs `npm run <stage>`; `buffered` keeps its output for the end instead of streaming it. */
function runStage(stage: string, buffered: boolean): Promise<Timing> {
  const started = performance.now();
  if (!buffered) console.log(`\n▶ npm run ${stage}`);
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(join(logDir, `${stage.replace(/:/g, '-')}.log`));
  const chunks: Buffer[] = [];
  const child = spawn('npm', ['run', '--silent', stage], {
    stdio: ['ignore', buffered ? 'pipe' : 'inherit', buffered ? 'pipe' : 'inherit'],
    // Its own process group: a failure elsewhere stops the stage with everything it started.
    detached: buffered,
  });
  running.add(child);
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      log.write(chunk);
    });
  }
  return new Promise((resolve) => {
    child.on('close', (code) => {
      running.delete(child);
      log.end();
      const result = code === 0 ? 'ok' : failed ? 'stopped' : 'FAIL';
      const timing: Timing = { stage, seconds: (performance.now() - started) / 1000, result };
      if (buffered) {
        console.log(`\n▶ npm run ${stage} (${result}, ${timing.seconds.toFixed(1)} s)`);
        process.stdout.write(Buffer.concat(chunks));
      }
      timings.push(timing);
      if (result === 'FAIL' && !failed) {
        failed = stage;
        stopOthers();
      }
      resolve(timing);
    });
  });
}

function stopOthers(): void {
  for (const child of running) {
    if (child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

async function runInOrder(names: readonly string[], buffered: boolean): Promise<void> {
  for (const stage of names) {
    if (failed) return;
    await runStage(stage, buffered);
  }
}

const started = performance.now();
if (serial || chosen.length > 0) {
  await runInOrder(chosen.length > 0 ? chosen : stages, false);
} else {
  await runInOrder(checks, false);
  if (!failed) {
    console.log(`\n▶ ${suites.join(', ')}: ${runners} at a time (each printed when it ends)`);
    const queue: string[] = [...suites];
    const runner = async () => {
      for (let stage = queue.shift(); stage && !failed; stage = queue.shift()) await runStage(stage, true);
    };
    await Promise.all(Array.from({ length: runners }, runner));
  }
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
if (failed) {
  console.error(
    `\nnpm test failed at stage ${failed} (its output: build/ci/${failed.replace(/:/g, '-')}.log)`,
  );
  process.exit(1);
}
