/**
 * The soak (`--soak`): our server held at half of peak, evenly paced, for minutes, in segments;
 * per segment its RSS (peak and median), its heap's floor and the p99 (docs/benchmarks.md,
 * "With `--soak`"). The target judging it is `soakTarget` in targets.ts.
 */
import type { Bench } from '../context.js';
import { sampleHeap } from '../heap.js';
import { runPaced } from '../paced.js';
import { ms, progress, round } from '../report.js';
import type { Ours } from './throughput.js';

export interface SoakSegment {
  endS: number;
  peakRssMb: number;
  medianRssMb: number;
  heapFloorMb: number;
  p99: number;
  failures: number;
}

export interface SoakResult {
  rate: number;
  segmentS: number;
  segments: SoakSegment[];
}

export async function soakSection(bench: Bench, { api, post }: Ours, rate: number): Promise<SoakResult> {
  const { plan } = bench;
  progress(`\nSoak: ${rate} POST /payments per second for ${plan.soakS} s`);
  const segments = Math.max(2, Math.round(plan.soakS / plan.soakSegmentS));
  const soak: SoakResult = { rate, segmentS: plan.soakSegmentS, segments: [] };
  const heap = sampleHeap(api.origin, bench.apiEnv.METRICS_TOKEN);
  for (let i = 0; i < segments; i++) {
    api.proc.resetWindow();
    heap.resetWindow();
    const result = await runPaced({
      title: `soak ${i + 1}/${segments}`,
      origin: api.origin,
      request: post,
      rate,
      durationS: plan.soakSegmentS,
      server: api.proc,
    });
    const segment = {
      endS: (i + 1) * plan.soakSegmentS,
      peakRssMb: round(api.proc.windowPeakKb() / 1024, 1),
      medianRssMb: round(api.proc.windowMedianKb() / 1024, 1),
      heapFloorMb: round(heap.windowFloorMb(), 1),
      p99: result.latencyMs.p99,
      failures: result.non2xx + result.errors,
    };
    soak.segments.push(segment);
    progress(
      `  ${String(segment.endS).padStart(4)} s: heap floor ${segment.heapFloorMb} MB, RSS median ${segment.medianRssMb} MB, peak ${segment.peakRssMb} MB, p99 ${ms(segment.p99)} ms${segment.failures ? `, ${segment.failures} failed` : ''}`,
    );
  }
  heap.stop();
  return soak;
}
