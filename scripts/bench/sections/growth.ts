/**
 * The `growth` section: the same lists over a small and a large SQLite database, their servers
 * side by side in interleaved rounds (docs/benchmarks.md, "Cost growth").
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Api, cursorAt, type Scenario } from '../api.js';
import type { Bench } from '../context.js';
import { sizeLabel } from '../report.js';
import { countSeeded, type Seeded, seedAccount } from '../seed.js';
import { startApi } from '../servers.js';

export interface GrowthResult {
  rows: number;
  seeded: Seeded;
  after: { payments: number; callLogs: number };
}

/** The cases measured, each at both sizes: its key, its title and its path on a seeded database. */
export const growthCases = [
  ['payments.first', 'GET /v1/payments?limit=20', (_: Seeded) => '/v1/payments?limit=20'],
  [
    'payments.deep',
    'GET /v1/payments?limit=20&cursor=<middle>',
    (s: Seeded) => `/v1/payments?limit=20&cursor=${cursorAt(s.paymentsMidSeq)}`,
  ],
  ['logs.first', 'GET /v1/logs?limit=20', (_: Seeded) => '/v1/logs?limit=20'],
  [
    'logs.deep',
    'GET /v1/logs?limit=20&cursor=<middle>',
    (s: Seeded) => `/v1/logs?limit=20&cursor=${cursorAt(s.callLogsMidSeq)}`,
  ],
] as const;

export async function growthSection(bench: Bench): Promise<GrowthResult[]> {
  const { plan } = bench;
  const servers: Array<{ size: number; dbPath: string; seeded: Seeded; api: Api }> = [];
  for (const size of plan.growthRows) {
    const dbPath = join(bench.work, `growth-${sizeLabel(size)}.db`);
    const { credentials, seeded } = await seedAccount(bench, { DATABASE_PATH: dbPath }, size);
    const api = await startApi(
      bench,
      `api, ${sizeLabel(size)} rows`,
      { DATABASE_PATH: dbPath },
      credentials,
      {
        VALIDATE_RESPONSES: 'false',
      },
    );
    servers.push({ size, dbPath, seeded, api });
  }
  const scenarios: Scenario[] = [];
  for (const [key, title, path] of growthCases) {
    for (const { size, seeded, api } of servers) {
      scenarios.push({
        key: `growth.${key}.${size}`,
        section: 'Cost growth',
        label: `${title} (${sizeLabel(size)} rows)`,
        server: api.proc,
        options: {
          title: `${title} ${sizeLabel(size)}`,
          origin: api.origin,
          connections: plan.connections,
          request: { method: 'GET', path: path(seeded), headers: api.headers },
        },
      });
    }
  }
  await bench.recorder.interleave('Cost growth', scenarios, plan.growthRounds, plan.growthSliceS);
  const growth: GrowthResult[] = [];
  for (const { size, dbPath, seeded, api } of servers) {
    await api.proc.stop();
    growth.push({ rows: size, seeded, after: await countSeeded({ DATABASE_PATH: dbPath }) });
    rmSync(dbPath, { force: true });
  }
  return growth;
}
