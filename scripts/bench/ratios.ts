/**
 * The run's ratios, each of two rows measured in the same run (docs/benchmarks.md, "Interleaved
 * rounds"): over all rounds, and per round when both were interleaved. A ratio one of whose rows
 * did not run (its section was not selected) is left out.
 */
import { operations } from './api.js';
import type { Plan } from './context.js';
import type { Recorder } from './recorder.js';
import type { Ratio } from './report.js';
import { sizeLabel } from './report.js';
import { growthCases } from './sections/growth.js';
import { postgresGrowthCases } from './sections/postgres.js';

type RatioSpec = [
  key: string,
  label: string,
  a: string,
  b: string,
  metric: 'rps' | 'p50' | 'cpuMsPerRequest',
];

const ops = ['post', 'get', 'list'] as const;

/** Every ratio the run can give, in the order printed: throughput, growth, then PostgreSQL. */
export function computeRatios(recorder: Recorder, plan: Plan): Ratio[] {
  const specs = [...throughputRatios(), ...growthRatios(plan.growthRows), ...postgresRatios(plan.growthRows)];
  return specs.flatMap((spec) => {
    const r = ratioOf(recorder, ...spec);
    return r ? [r] : [];
  });
}

function ratioOf(recorder: Recorder, ...[key, label, a, b, metric]: RatioSpec): Ratio | undefined {
  const ra = recorder.row(a);
  const rb = recorder.row(b);
  if (!ra || !rb || !(rb[metric] > 0)) return undefined;
  const perRound = recorder
    .roundsOf(a)
    .map((x, i) => {
      const y = recorder.roundsOf(b)[i];
      return y && y[metric] > 0 ? x[metric] / y[metric] : Number.NaN;
    })
    .filter(Number.isFinite);
  return { key, label, value: ra[metric] / rb[metric], rounds: perRound };
}

function throughputRatios(): RatioSpec[] {
  return [
    ...ops.map(
      (op): RatioSpec => [
        `${op}_vs_bare`,
        `${operations[op]}: ours / bare Express (req/s)`,
        `api.${op}`,
        `bare.${op}`,
        'rps',
      ],
    ),
    ...ops.map(
      (op): RatioSpec => [
        `${op}_vs_bare_like_ours`,
        `${operations[op]}: ours / bare Express served like ours (req/s)`,
        `api.${op}`,
        `bare-like-ours.${op}`,
        'rps',
      ],
    ),
    [
      'post_vs_bare_cpu',
      'ours POST /payments / bare Express (CPU per request)',
      'api.post',
      'bare.post',
      'cpuMsPerRequest',
    ],
    ...ops.map(
      (op): RatioSpec => [
        `${op}_response_validation_rps`,
        `${operations[op]}: with / without response validation (req/s)`,
        `validation.${op}`,
        `api.${op}`,
        'rps',
      ],
    ),
    ...ops.map(
      (op): RatioSpec => [
        `${op}_vs_prism`,
        `${operations[op]}: ours / Prism mock (req/s)`,
        `api.${op}`,
        `prism.${op}`,
        'rps',
      ],
    ),
  ];
}

function growthRatios(growthRows: readonly number[]): RatioSpec[] {
  const [small, large] = growthRows as [number, number];
  return growthCases.map(
    ([c]): RatioSpec => [
      `growth_${c}_p50`,
      `${c.replace('.', ' ')} page: ${sizeLabel(large)} / ${sizeLabel(small)} rows (p50 latency)`,
      `growth.${c}.${large}`,
      `growth.${c}.${small}`,
      'p50',
    ],
  );
}

/** The `postgres` section's ratios: PostgreSQL against SQLite and bare Express, and its growth. */
function postgresRatios(growthRows: readonly number[]): RatioSpec[] {
  const specs: RatioSpec[] = ops.flatMap((op): RatioSpec[] => {
    const name = operations[op];
    return [
      [
        `pg_one_${op}_vs_sqlite`,
        `${name}: PostgreSQL 1 instance / SQLite (req/s)`,
        `pg.one.${op}`,
        `pg.sqlite.${op}`,
        'rps',
      ],
      [
        `pg_two_${op}_vs_sqlite`,
        `${name}: PostgreSQL 2 instances / SQLite (req/s)`,
        `pg.two.${op}`,
        `pg.sqlite.${op}`,
        'rps',
      ],
      [
        `pg_two_${op}_vs_one`,
        `${name}: PostgreSQL 2 instances / 1 instance (req/s)`,
        `pg.two.${op}`,
        `pg.one.${op}`,
        'rps',
      ],
      [
        `pg_one_${op}_vs_sqlite_cpu`,
        `${name}: PostgreSQL 1 instance / SQLite (CPU per request, API + database)`,
        `pg.one.${op}`,
        `pg.sqlite.${op}`,
        'cpuMsPerRequest',
      ],
    ];
  });
  specs.push(
    [
      'pg_sqlite_post_vs_bare',
      'POST /payments: SQLite / bare Express (req/s)',
      'pg.sqlite.post',
      'pg.bare.post',
      'rps',
    ],
    [
      'pg_one_post_vs_bare',
      'POST /payments: PostgreSQL 1 instance / bare Express (req/s)',
      'pg.one.post',
      'pg.bare.post',
      'rps',
    ],
    [
      'pg_two_post_vs_bare',
      'POST /payments: PostgreSQL 2 instances / bare Express (req/s)',
      'pg.two.post',
      'pg.bare.post',
      'rps',
    ],
  );
  const small = growthRows[0];
  const large = growthRows[growthRows.length - 1];
  if (small !== undefined && large !== undefined && large !== small) {
    for (const c of postgresGrowthCases) {
      specs.push([
        `pg_growth_${c}_p50`,
        `PostgreSQL ${c.replace('.', ' ')}: ${sizeLabel(large)} / ${sizeLabel(small)} rows (p50 latency)`,
        `pg.growth.${c}.${large}`,
        `pg.growth.${c}.${small}`,
        'p50',
      ]);
    }
  }
  return specs;
}
