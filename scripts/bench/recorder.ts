/**
 * The measured rows of a run, in the order they were measured, and the two ways a scenario is
 * measured: on its own (`measure`), or beside others in interleaved rounds (`interleave`), so a
 * burst of outside load hits every server compared alike (docs/benchmarks.md).
 */
import { loadavg } from 'node:os';
import type { Scenario } from './api.js';

import { combine, type LoadResult, runSlice, type Slice } from './load.js';
import type { PacedResult } from './paced.js';
import type { ServerProcess } from './processes.js';
import { ms, percent, progress, type Row, round } from './report.js';

/** A paced run's share of time its server's main thread waited for a CPU (`PacedResult`), if measured. */
export function mainThreadCpuWait(result: LoadResult | PacedResult | undefined): number | undefined {
  return result && 'mainThreadCpuWait' in result && Number.isFinite(result.mainThreadCpuWait)
    ? result.mainThreadCpuWait
    : undefined;
}

export class Recorder {
  readonly rows: Row[] = [];
  readonly details: Record<string, LoadResult | PacedResult> = {};

  /** `warmupS`: the unmeasured run before each interleaved scenario's rounds. */
  constructor(private readonly warmupS: number) {}

  row(key: string): Row | undefined {
    return this.rows.find((r) => r.key === key);
  }

  /** The per-round figures of an interleaved scenario (none for one measured on its own). */
  roundsOf(key: string) {
    const detail = this.details[key];
    return detail && 'rounds' in detail ? detail.rounds : [];
  }

  add(
    server: ServerProcess,
    section: string,
    key: string,
    label: string,
    result: LoadResult | PacedResult,
    peakKb: number,
  ): Row {
    const row: Row = {
      key,
      section,
      label,
      server: server.name,
      rps: result.rps,
      p50: result.latencyMs.p50,
      p99: result.latencyMs.p99,
      cpuMsPerRequest: result.cpuMsPerRequest,
      peakRssMb: peakKb / 1024,
      failures: result.non2xx + result.errors,
      loadAverage: round(loadavg()[0] ?? 0, 2),
      hostSteal: result.hostSteal,
    };
    this.rows.push(row);
    this.details[key] = result;
    const wait = mainThreadCpuWait(result);
    progress(
      `  ${label.padEnd(62)} ${Math.round(row.rps).toString().padStart(6)} req/s  p50 ${ms(row.p50).padStart(5)} ms  p99 ${ms(row.p99).padStart(5)} ms  CPU ${row.cpuMsPerRequest.toFixed(3)} ms/req  RSS ${Math.round(row.peakRssMb)} MB  host steal ${percent(row.hostSteal)}${wait !== undefined ? `  main thread waiting for a CPU ${percent(wait)}` : ''}${row.failures ? `  FAILED ${row.failures}` : ''}`,
    );
    if (row.failures) {
      const codes = 'statusCodes' in result ? JSON.stringify(result.statusCodes) : `non2xx ${result.non2xx}`;
      progress(
        `    ! ${row.failures} failed requests (${codes}; errors ${result.errors}): ${server.output()}`,
      );
    }
    return row;
  }

  /** One scenario measured on its own, in one run. */
  async measure(
    server: ServerProcess,
    section: string,
    key: string,
    label: string,
    run: () => Promise<LoadResult | PacedResult>,
  ): Promise<Row> {
    server.resetWindow();
    const result = await run();
    return this.add(server, section, key, label, result, server.windowPeakKb());
  }

  /**
   * Measures scenarios in rounds: every round runs each scenario for `sliceS` seconds, starting
   * one place further down the list each time. Peak memory is the highest sampled during the
   * scenario's own slices.
   */
  async interleave(title: string, scenarios: Scenario[], rounds: number, sliceS: number): Promise<void> {
    if (scenarios.length === 0) return;
    progress(
      `\n${title}: ${scenarios.length} scenarios, ${this.warmupS} s warm-up each, then ${rounds} interleaved rounds of ${sliceS} s`,
    );
    const servedBy = (s: Scenario) => [
      { server: s.server, origin: s.options.origin },
      ...(s.alsoServedBy ?? []),
    ];
    for (const s of scenarios) {
      for (const { origin } of servedBy(s)) await runSlice({ ...s.options, origin }, this.warmupS, false);
    }
    const slices = new Map<string, Slice[]>(scenarios.map((s) => [s.key, []]));
    const peaks = new Map<string, number>();
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < scenarios.length; i++) {
        const s = scenarios[(i + r) % scenarios.length] as Scenario;
        const processes = servedBy(s);
        const { server, origin } = processes[r % processes.length] as (typeof processes)[number];
        server.resetWindow();
        slices.get(s.key)?.push(await runSlice({ ...s.options, origin, server }, sliceS));
        peaks.set(s.key, Math.max(peaks.get(s.key) ?? 0, server.windowPeakKb()));
      }
      progress(`  round ${r + 1}/${rounds} done (load average ${(loadavg()[0] ?? 0).toFixed(2)})`);
    }
    for (const s of scenarios) {
      this.add(
        s.server,
        s.section,
        s.key,
        s.label,
        combine(s.options, slices.get(s.key) ?? []),
        peaks.get(s.key) ?? 0,
      );
    }
  }
}
