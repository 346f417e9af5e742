/**
 * The `api` and `validation` sections: our server (request validation only, or with response
 * validation too) on a SQLite file, served by `processesPerServer` processes on that one file,
 * taking the rounds in turn (docs/benchmarks.md, "What is measured").
 */
import { join } from 'node:path';
import { type Api, type Operation, requestMix, type Scenario } from '../api.js';
import { type Bench, processesPerServer } from '../context.js';
import { createAccount } from '../seed.js';
import { startApi } from '../servers.js';
import { type ThroughputPart, throughputSection } from './throughput.js';

export async function apiSection(bench: Bench, variant: 'api' | 'validation'): Promise<ThroughputPart> {
  const responses = variant === 'validation';
  const name = responses ? 'api, request+response validation' : 'api, request validation';
  const database = { DATABASE_PATH: join(bench.work, `${variant}.db`) };
  const credentials = await createAccount(bench, database);
  const env = { VALIDATE_RESPONSES: String(responses) };
  const api = await startApi(bench, name, database, credentials, env);
  const mix = await requestMix(api);
  // More processes on the same file, serving the same requests in other rounds.
  const others: Api[] = [];
  for (let i = 2; i <= processesPerServer; i++)
    others.push(await startApi(bench, `${name} #${i}`, database, credentials, env));
  const suffix = responses ? ' (+ response validation)' : '';
  const scenarios: Record<Operation, Scenario[]> = { post: [], get: [], list: [] };
  for (const op of ['post', 'get', 'list'] as const) {
    const label = `${mix[op].method} ${mix[op].path.replace(/pay_\w+$/, '{id}')}`;
    scenarios[op].push({
      key: `${variant}.${op}`,
      section: throughputSection,
      label: `ours: ${label}${suffix}`,
      server: api.proc,
      options: {
        title: `${label}${suffix}`,
        origin: api.origin,
        connections: bench.plan.connections,
        request: mix[op],
      },
      alsoServedBy: others.map((other) => ({ server: other.proc, origin: other.origin })),
    });
  }
  return responses ? { scenarios } : { scenarios, ours: { api, post: mix.post } };
}
