/**
 * The admin CLI (`npm run admin -- <args>`) in a process of its own, as an operator runs it
 * beside a running server: `node scripts/admin.mjs` (the compiled CLI) with the given database
 * variables. The suites' global setup has compiled dist/ already.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../server/paths.js';
import { exitedWithOutput } from './process-exit.js';

/** What `npm run admin` runs. */
export const adminScript = join(projectRoot, 'scripts', 'admin.mjs');

/** Runs the CLI; resolves with its exit code and everything it printed (stdout, then stderr as it came). */
export async function runAdmin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [adminScript, ...args], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString('utf8');
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const { code } = await exitedWithOutput(child);
  return { code, out };
}

/** A command run with `--json`: the object it printed last, after checking it exited 0. */
export async function adminJson<T>(args: string[], env: Record<string, string>): Promise<T> {
  const { code, out } = await runAdmin([...args, '--json'], env);
  if (code !== 0) throw new Error(`${args[0]} exited ${code}: ${out}`);
  return JSON.parse(out.trim().split('\n').pop() as string) as T;
}

/** `reset-keys` for one API user's test keys: the new key. */
export async function resetTestKeys(apiUser: string, env: Record<string, string>): Promise<string> {
  return (await adminJson<{ key: string }>(['reset-keys', '--api-user', apiUser, '--mode', 'test'], env)).key;
}
