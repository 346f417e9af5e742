/**
 * The `start` section: `npm start` to its first answered request, on a fresh database, alone on
 * the machine (startup.ts; docs/benchmarks.md, "What is measured").
 */
import type { Bench } from '../context.js';
import { progress } from '../report.js';

import { measureStartup, type StartupResult } from '../startup.js';

export async function startSection(bench: Bench): Promise<StartupResult> {
  progress('\nStart-up: `npm start` to the first answered GET /v1/healthz, fresh database, 3 runs');
  const startup = await measureStartup(bench.root, { HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  progress(
    `  ${startup.runsS.map((x) => `${x.toFixed(2)} s`).join(', ')} (median ${startup.medianS.toFixed(2)} s)`,
  );
  return startup;
}
