/** The human side of the results: Markdown tables, printed and pasted into docs/benchmarks.md. */

export interface Row {
  key: string;
  section: string;
  label: string;
  server: string;
  rps: number;
  p50: number;
  p99: number;
  peakRssMb: number;
  /** Server CPU time per successful request, ms. */
  cpuMsPerRequest: number;
  /** Non-2xx answers plus connection errors: a scenario with any is suspect. */
  failures: number;
  /** One-minute load average of the machine when the scenario ended. */
  loadAverage: number;
  /** Share of the vCPUs' time the host took while the scenario ran (0-1, NaN when unknown). */
  hostSteal: number;
}

export interface Ratio {
  key: string;
  label: string;
  /** Over the whole measured time of both scenarios. */
  value: number;
  /** The same ratio within each round (the two slices ran minutes apart at most), when interleaved. */
  rounds: number[];
}

export interface Target {
  key: string;
  label: string;
  goal: string;
  measured: string;
  pass: boolean;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

/** 10000 -> "10k", 1000000 -> "1M". */
export const sizeLabel = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

/** 0.173 -> "17%"; "n/a" when unknown. */
export function percent(share: number): string {
  return Number.isFinite(share) ? `${(share * 100).toFixed(0)}%` : 'n/a';
}

export function times(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a';
}

function table(header: string[], lines: string[][], rightAligned: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const cell = (text: string, i: number) =>
    rightAligned[i] ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0);
  const rule = widths.map((w, i) => (rightAligned[i] ? `${'-'.repeat(Math.max(1, w - 1))}:` : '-'.repeat(w)));
  return [header, rule, ...lines].map((l) => `| ${l.map(cell).join(' | ')} |`).join('\n');
}

export function formatRows(rows: Row[]): string {
  const sections = [...new Set(rows.map((r) => r.section))];
  return sections
    .map((section) => {
      const lines = rows
        .filter((r) => r.section === section)
        .map((r) => [
          r.label,
          integer.format(r.rps),
          ms(r.p50),
          ms(r.p99),
          Number.isFinite(r.cpuMsPerRequest) ? r.cpuMsPerRequest.toFixed(3) : 'n/a',
          integer.format(r.peakRssMb),
          r.failures ? integer.format(r.failures) : '0',
          percent(r.hostSteal),
        ]);
      return `### ${section}\n\n${table(
        ['Scenario', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'peak RSS MB', 'failed', 'host steal'],
        lines,
        [false, true, true, true, true, true, true, true],
      )}`;
    })
    .join('\n\n');
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function formatRatios(ratios: Ratio[]): string {
  return table(
    ['Ratio', 'All rounds', 'Round median', 'Round min-max'],
    ratios.map((r) => [
      r.label,
      times(r.value),
      r.rounds.length > 1 ? times(median(r.rounds)) : '',
      r.rounds.length > 1 ? `${times(Math.min(...r.rounds))}-${times(Math.max(...r.rounds))}` : '',
    ]),
    [false, true, true, true],
  );
}

export function formatTargets(targets: Target[]): string {
  return table(
    ['Target', 'Goal', 'Measured', 'Result'],
    targets.map((t) => [t.label, t.goal, t.measured, t.pass ? 'PASS' : 'MISS']),
    [false, false, false, false],
  );
}

export function formatPlain(header: string[], lines: string[][]): string {
  return table(
    header,
    lines,
    header.map((_, i) => i > 0),
  );
}

/** A line of progress on stderr (the tables go to stdout). */
export function progress(text: string): void {
  process.stderr.write(`${text}\n`);
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
