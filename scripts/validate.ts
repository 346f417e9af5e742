/**
 * `npm test` (= `npm run validate`): every check CI runs, one after the other, stopping at the
 * first that fails, and a table of how long each stage took, so a slow stage is seen at once.
 *
 * @example
 * npm run validate            # all stages
 * npm run validate -- lint typecheck   # only these, in this order
 */
import { spawnSync } from 'node:child_process';

const stages = [
  'check:generated',
  'lint:spec',
  'lint',
  'typecheck',
  'docs',
  'test:unit',
  'test:postgres',
  'test:faults',
  'test:faults:postgres',
  'test:contract',
] as const;

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(stages as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`Unknown stage(s): ${unknown.join(', ')}. Stages: ${stages.join(', ')}`);
  process.exit(2);
}

const timings: Array<{ stage: string; seconds: number; ok: boolean }> = [];
let failed: string | undefined;
for (const stage of chosen.length > 0 ? chosen : stages) {
  const started = performance.now();
  console.log(`\n▶ npm run ${stage}`);
  const run = spawnSync('npm', ['run', '--silent', stage], { stdio: 'inherit' });
  const ok = run.status === 0;
  timings.push({ stage, seconds: (performance.now() - started) / 1000, ok });
  if (!ok) {
    failed = stage;
    break;
  }
}

const total = timings.reduce((sum, t) => sum + t.seconds, 0);
console.log('\nStage timings');
for (const t of timings) {
  console.log(`  ${t.ok ? 'ok  ' : 'FAIL'} ${t.stage.padEnd(16)} ${t.seconds.toFixed(1).padStart(7)} s`);
}
console.log(`  ${'total'.padEnd(21)} ${total.toFixed(1).padStart(7)} s`);
if (failed) {
  console.error(`\nnpm test failed at stage ${failed}`);
  process.exit(1);
}
