/**
 * The `bare` section: bare Express, started with `app.listen` (the targets' baseline) and served
 * like ours, each by `processesPerServer` processes taking the rounds in turn (docs/benchmarks.md).
 */
import type { Operation, Scenario } from '../api.js';
import { type Bench, processesPerServer } from '../context.js';
import { startBare } from '../servers.js';
import { type ThroughputPart, throughputSection } from './throughput.js';

export async function bareSection(bench: Bench): Promise<ThroughputPart> {
  const scenarios: Record<Operation, Scenario[]> = { post: [], get: [], list: [] };
  for (const served of ['listen', 'like-ours'] as const) {
    const processes = [];
    for (let i = 0; i < processesPerServer; i++) processes.push(await startBare(bench, served));
    const [first, ...others] = processes as [(typeof processes)[number], ...typeof processes];
    for (const op of ['post', 'get', 'list'] as const) {
      scenarios[op].push({
        ...first[op],
        key: `${served === 'listen' ? 'bare' : 'bare-like-ours'}.${op}`,
        section: throughputSection,
        alsoServedBy: others.map((other) => ({
          server: other[op].server,
          origin: other[op].options.origin,
        })),
      });
    }
  }
  return { scenarios };
}
