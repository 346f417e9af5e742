/**
 * `npm start` to its first answered request: the command an operator types, on a fresh
 * database each time, timed from the spawn to the first `GET /v1/healthz` answered 200 (polled
 * every 10 ms). The whole process group (npm, its shell, the server) is stopped after each run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.js';
import { median } from './report.js';

export interface StartupResult {
  runsS: number[];
  medianS: number;
}

async function answered(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function startOnce(root: string, env: Record<string, string>): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'payments-start-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...env,
      PORT: String(port),
      DATABASE_PATH: join(folder, 'payments.db'),
    },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  try {
    const deadline = started + 60_000;
    while (performance.now() < deadline) {
      if (gone) throw new Error('npm start exited before answering');
      if (await answered(`http://127.0.0.1:${port}/v1/healthz`)) return (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('npm start did not answer within 60 s');
  } finally {
    if (!gone && child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Runs `npm start` `runs` times, one after the other, each on a fresh database. */
export async function measureStartup(
  root: string,
  env: Record<string, string>,
  runs = 3,
): Promise<StartupResult> {
  const runsS: number[] = [];
  for (let i = 0; i < runs; i++) runsS.push(await startOnce(root, env));
  return { runsS, medianS: median(runsS) };
}
