/**
 * Half of the measured peak, on our server alone: `POST /v1/payments` at half the `api` section's
 * POST rate, with autocannon's fixed rate (information: it sends in bursts) and evenly paced (the
 * target), then the same for the bare Express controls (docs/benchmarks.md, "Then, on the `api`
 * server alone").
 */
import type { Scenario } from '../api.js';
import type { Bench } from '../context.js';
import { runLoad } from '../load.js';
import { runPaced } from '../paced.js';
import { progress } from '../report.js';
import type { Ours } from './throughput.js';

const section = 'Half of peak load';

/**
 * The evenly paced controls of the half-of-peak section, each a bare Express throughput scenario
 * (its key without `.half.paced`) run again at the same rate as ours.
 */
export const pacedControls = [
  { key: 'bare.post.half.paced', name: 'bare Express' },
  { key: 'bare-like-ours.post.half.paced', name: 'bare Express served like ours' },
] as const;

/** Measures ours and the controls at half of ours' peak; answers that rate (POSTs per second). */
export async function halfLoadSection(bench: Bench, ours: Ours, scenarios: Scenario[]): Promise<number> {
  const { plan, recorder } = bench;
  const { api, post } = ours;
  const peak = recorder.row('api.post')?.rps ?? 0;
  const halfRate = Math.max(1, Math.round(peak / 2));
  progress(`\nHalf of peak load: ${halfRate} POST /payments per second (peak ${Math.round(peak)}/s)`);
  await recorder.measure(
    api.proc,
    section,
    'api.post.half.autocannon',
    `ours: POST /v1/payments at ${halfRate}/s (autocannon overallRate)`,
    () =>
      runLoad({
        title: `POST /payments at ${halfRate}/s`,
        origin: api.origin,
        request: post,
        connections: plan.connections,
        durationS: plan.halfLoadS,
        warmupS: plan.warmupS,
        overallRate: halfRate,
        server: api.proc,
      }),
  );
  await recorder.measure(
    api.proc,
    section,
    'api.post.half.paced',
    `ours: POST /v1/payments at ${halfRate}/s (evenly paced)`,
    () =>
      runPaced({
        title: `POST /payments paced at ${halfRate}/s`,
        origin: api.origin,
        request: post,
        rate: halfRate,
        durationS: plan.halfLoadS,
        warmupS: plan.warmupS,
        server: api.proc,
      }),
  );
  await measureControls(bench, scenarios, halfRate);
  return halfRate;
}

/**
 * The controls, bare Express at the same rate: served with `app.listen`, its own young
 * collections set its p99; served like ours, its p99 is how far the machine and the client let
 * the tail fall (docs/benchmarks.md, issue 15's seventeenth session).
 */
async function measureControls(bench: Bench, scenarios: Scenario[], halfRate: number): Promise<void> {
  const { plan, recorder } = bench;
  const bare = scenarios.find((s) => s.key === 'bare.post');
  if (bare) {
    await recorder.measure(
      bare.server,
      section,
      'bare.post.half.autocannon',
      `control: bare Express at ${halfRate}/s (autocannon overallRate)`,
      () =>
        runLoad({
          ...bare.options,
          title: `bare Express at ${halfRate}/s`,
          durationS: plan.halfLoadS,
          warmupS: 0,
          overallRate: halfRate,
          server: bare.server,
        }),
    );
  }
  for (const { key, name } of pacedControls) {
    const control = scenarios.find((s) => s.key === key.replace(/\.half\.paced$/, ''));
    if (!control) continue;
    await recorder.measure(
      control.server,
      section,
      key,
      `control: ${name} at ${halfRate}/s (evenly paced)`,
      () =>
        runPaced({
          title: `${name} paced at ${halfRate}/s`,
          origin: control.options.origin,
          request: control.options.request,
          rate: halfRate,
          durationS: plan.halfLoadS,
          warmupS: plan.warmupS,
          server: control.server,
        }),
    );
  }
}
