/**
 * Child processes of the benchmark: every server under test runs in its own process on
 * 127.0.0.1, so its memory can be read from /proc and nothing it does shares our event loop.
 * Every child is registered here and killed when the benchmark ends, fails or is interrupted.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { summarize } from './load.js';

const live = new Set<ChildProcess>();

/** Kills every child still running (SIGKILL: used on the way out, when nothing can wait). */
export function killAllChildren(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  live.clear();
}

let cleanupInstalled = false;

/** Makes sure no child outlives the benchmark, whatever way it ends. */
export function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the servers under test\n`);
      killAllChildren();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (err) => {
    process.stderr.write(`\n${err.stack ?? String(err)}\n`);
    killAllChildren();
    process.exit(1);
  });
  process.on('unhandledRejection', (err) => {
    process.stderr.write(`\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    killAllChildren();
    process.exit(1);
  });
}

/** Memory of a process, in kibibytes: resident now (VmRSS) and its high-water mark (VmHWM). */
export interface Memory {
  rssKb: number;
  hwmKb: number;
}

/** Reads a process's memory from /proc (Linux); undefined if it has exited. */
export function readMemory(pid: number): Memory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
}

/** `ps` for systems without /proc (macOS): resident size only. */
async function readMemoryWithPs(pid: number): Promise<Memory | undefined> {
  try {
    const rssKb = Number((await runCommand('ps', ['-o', 'rss=', '-p', String(pid)], {})).trim());
    return Number.isFinite(rssKb) && rssKb > 0 ? { rssKb, hwmKb: rssKb } : undefined;
  } catch {
    return undefined;
  }
}

const hasProc = readMemory(process.pid) !== undefined;

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ): 100 on every Linux build in use. */
const ticksPerSecond = 100;

/**
 * CPU time a process has used so far (user + system, all threads), in ms; undefined without
 * /proc. Unlike throughput, CPU per request barely changes when other work competes for the
 * cores, so it is the steadier measure of cost on a busy machine.
 */
export function readCpuMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces), from field 3 (state) on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return Number.isFinite(user) && Number.isFinite(system)
    ? ((user + system) * 1000) / ticksPerSecond
    : undefined;
}

/**
 * How long a process's main thread has been runnable but waiting for a CPU (the scheduler's run
 * queue) since it started, ms; undefined without /proc/<pid>/schedstat (its second field). That
 * wait is what a busy machine adds to a latency beyond the process's own work.
 */
export function readMainThreadCpuWaitMs(pid: number): number | undefined {
  try {
    const wait = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(wait) ? wait / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU time of a process and of its children (user + system, ms): its own, its reaped children's
 * (cutime, cstime) and its live children's. For a server that forks a process per connection
 * (PostgreSQL's postmaster and its backends). NaN without /proc.
 */
export function readTreeCpuMs(pid: number): number {
  const fieldsOf = (p: number | string) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    } catch {
      return undefined;
    }
  };
  const own = fieldsOf(pid);
  if (!own) return Number.NaN;
  // From field 3 (state): [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return Number.NaN;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = fieldsOf(entry);
    if (fields && Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / ticksPerSecond;
}

export interface ServerProcess {
  name: string;
  pid: number;
  /** The last lines the process wrote (stdout and stderr), for error messages. */
  output(): string;
  /** Starts a new measurement window for `windowPeakKb`. */
  resetWindow(): void;
  /** Highest resident size sampled since `resetWindow` (every 100 ms), in KiB. */
  windowPeakKb(): number;
  /**
   * Median of the resident sizes sampled since `resetWindow`, in KiB: where the process sits
   * between its collections (it also moves with when the allocator hands pages back).
   */
  windowMedianKb(): number;
  /** Highest resident size of the process's whole life (VmHWM), in KiB. */
  lifetimePeakKb(): number;
  /** CPU time used so far, ms (NaN without /proc). */
  cpuMs(): number;
  /** How long the main thread has waited for a CPU so far, ms (`readMainThreadCpuWaitMs`). */
  cpuWaitMs(): number | undefined;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<string>;
  /** SIGTERM, then SIGKILL after `graceMs`: lets a server flush and write its CPU profile. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a child process with its own environment and samples its memory while it runs.
 *
 * @example
 * const server = startProcess('bare', process.execPath, ['--import', 'tsx', 'bare-server.ts'], { PORT: '4000' });
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string } = {},
): ServerProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${name}: ${command} ${args.join(' ')}`);
  const pid = child.pid;
  live.add(child);

  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (tail.length > 40) tail.splice(0, tail.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  /** The resident sizes sampled since `resetWindow`, KiB: its peak and median are read from them. */
  let windowSamples: number[] = [];
  let lifetimePeak = 0;
  let sampling = false;
  const sample = async () => {
    if (sampling) return;
    sampling = true;
    const memory = hasProc ? readMemory(pid) : await readMemoryWithPs(pid);
    sampling = false;
    if (!memory) return;
    windowSamples.push(memory.rssKb);
    lifetimePeak = Math.max(lifetimePeak, memory.hwmKb, memory.rssKb);
  };
  const sampler = setInterval(() => void sample(), 100);
  sampler.unref();
  /** The window so far, with one more sample taken now (with /proc: at once). */
  const windowSummary = () => {
    const memory = hasProc ? readMemory(pid) : undefined;
    if (memory) windowSamples.push(memory.rssKb);
    return summarize(windowSamples);
  };

  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      clearInterval(sampler);
      live.delete(child);
      resolve(signal ?? String(code));
    });
  });

  return {
    name,
    pid,
    output: () => tail.join('\n'),
    resetWindow() {
      windowSamples = [];
      void sample();
    },
    windowPeakKb: () => windowSummary().max || 0,
    windowMedianKb: () => windowSummary().p50,
    lifetimePeakKb() {
      const memory = hasProc ? readMemory(pid) : undefined;
      if (memory) lifetimePeak = Math.max(lifetimePeak, memory.hwmKb);
      return lifetimePeak;
    },
    cpuMs: () => readCpuMs(pid) ?? Number.NaN,
    cpuWaitMs: () => readMainThreadCpuWaitMs(pid),
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits until `url` answers (any HTTP status), failing early with the process's output if it
 * exits first.
 */
export async function waitForHttp(
  server: ServerProcess,
  url: string,
  init: RequestInit = {},
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedWith: string | undefined;
  void server.exited.then((code) => {
    exitedWith = code;
  });
  while (Date.now() < deadline) {
    if (exitedWith !== undefined) {
      throw new Error(`${server.name} exited (${exitedWith}) before answering:\n${server.output()}`);
    }
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${server.name} did not answer ${url} within ${timeoutMs} ms:\n${server.output()}`);
}

/** Runs a command to completion and returns its stdout; throws with its stderr if it fails. */
export async function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      {
        cwd,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        live.delete(child);
        if (err) reject(new Error(`${command} ${args.join(' ')} failed: ${stderr || err.message}`));
        else resolve(stdout);
      },
    );
    live.add(child);
  });
}
