/**
 * The machine's CPU time from /proc/stat's first line (all vCPUs together, in ticks): read by the
 * benchmark beside each scenario and by `npm test` beside its stage table, so a slow run can be
 * told from a slow machine.
 */
import { readFileSync } from 'node:fs';

/**
 * The machine's CPU time so far, all its vCPUs together, in ticks of /proc/stat's first line:
 * the whole, and what the host took (steal: a vCPU ready to run while the hypervisor ran
 * something else). Undefined without /proc.
 */
export interface MachineTicks {
  total: number;
  /** Idle and waiting for the disk (idle + iowait). */
  idle: number;
  steal: number;
}

export function readMachineTicks(): MachineTicks | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal (guest time is already inside user).
    const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (fields.length < 8 || fields.some((f) => !Number.isFinite(f))) return undefined;
    return {
      total: fields.reduce((sum, f) => sum + f, 0),
      idle: (fields[3] ?? 0) + (fields[4] ?? 0),
      steal: fields[7] ?? 0,
    };
  } catch {
    return undefined;
  }
}

/** The ticks between two readings (NaN fields when either is unknown): `hostSteal` reads them. */
export function ticksBetween(
  before: MachineTicks | undefined,
  after: MachineTicks | undefined,
): MachineTicks {
  if (!before || !after) return { total: Number.NaN, idle: Number.NaN, steal: Number.NaN };
  return {
    total: after.total - before.total,
    idle: after.idle - before.idle,
    steal: after.steal - before.steal,
  };
}

/** The ticks of several stretches of time added up (NaN when any is unknown). */
export function sumTicks(stretches: readonly MachineTicks[]): MachineTicks {
  const sum = { total: 0, idle: 0, steal: 0 };
  for (const t of stretches) {
    sum.total += t.total;
    sum.idle += t.idle;
    sum.steal += t.steal;
  }
  return sum;
}

/**
 * Share of the vCPUs' time the host took (0-1; NaN when unknown). On a virtual machine this is
 * the part of a slow run that no code of ours can change: a server waiting for a CPU the host
 * is not giving (docs/benchmarks.md, issue 15's twenty-third session).
 */
export function hostSteal(ticks: MachineTicks): number {
  return ticks.total > 0 ? ticks.steal / ticks.total : Number.NaN;
}
