/**
 * Child processes of the contract suite (Prism, dredd, respect), each started in its own
 * process group so that stopping it also stops what it spawned. Every child still running when
 * this process exits is killed, whatever the exit path: normal end, thrown error, Ctrl-C or
 * SIGTERM. (The API servers are test/support/child-server.ts's, which kills its own on exit.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { exitedWithOutput } from '../../support/process-exit.js';

export interface Child {
  name: string;
  process: ChildProcess;
  /** Everything the child printed so far, stdout and stderr interleaved (last 200 KB). */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects if the child exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the child has exited and its output has been read. */
  exited: Promise<number | null>;
  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<Child>();
const outputLimit = 200_000;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

let cleanupInstalled = false;

/** Kills every child on exit; Ctrl-C and SIGTERM exit (130), so exit handlers run. */
export function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', () => {
    for (const child of running) killGroup(child.process, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const child of running) killGroup(child.process, 'SIGKILL');
      process.exit(130);
    });
  }
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Called with each chunk of output, for live progress. */
  onOutput?: (chunk: string) => void;
}

/** Starts `command args` in its own process group and tracks it until it exits. */
export function spawnChild(name: string, command: string, args: string[], options: SpawnOptions = {}): Child {
  installCleanup();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let buffer = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    buffer = (buffer + text).slice(-outputLimit);
    options.onOutput?.(text);
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => {
    void exitedWithOutput(child).then(({ code }) => resolve(code));
    child.once('error', (err) => {
      buffer += `\n${name} could not start: ${err.message}\n`;
      resolve(null);
    });
  });

  const handle: Child = {
    name,
    process: child,
    output: () => buffer,
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = buffer.match(pattern);
          if (match) {
            done();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name}: no ${pattern} within ${timeoutMs} ms. Output:\n${buffer}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        exited.then((code) => {
          if (!listeners.has(check)) return;
          done();
          reject(new Error(`${name} exited (${code}) before printing ${pattern}. Output:\n${buffer}`));
        });
        check();
      });
    },
    async stop(graceMs = 5_000) {
      if (child.exitCode === null && child.signalCode === null) {
        killGroup(child, 'SIGTERM');
        const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // Grandchildren that outlived their parent.
      killGroup(child, 'SIGKILL');
      running.delete(handle);
    },
  };
  running.add(handle);
  return handle;
}

/** Runs a command to completion and returns its exit code and output. */
export async function runToEnd(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawnChild(name, command, args, options);
  const timeoutMs = options.timeoutMs ?? 300_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void child.stop();
  }, timeoutMs);
  const code = await child.exited;
  clearTimeout(timer);
  await child.stop();
  const output = child.output() + (timedOut ? `\n${name} was stopped after ${timeoutMs} ms\n` : '');
  return { code: timedOut ? null : code, output };
}

/** Stops every child still running (the suite's `finally`). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}
