/** What the numbers were measured on: printed with the table and stored in the JSON. */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';

export interface Machine {
  nproc: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
  loadAverageAtStart: number[];
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1]) return match[1].trim();
  } catch {
    // Not Linux.
  }
  return cpus()[0]?.model ?? 'unknown';
}

export function describeMachine(): Machine {
  return {
    nproc: availableParallelism(),
    cpuModel: cpuModel(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${type()} ${release()}`,
    loadAverageAtStart: loadavg().map((v) => Math.round(v * 100) / 100),
  };
}
