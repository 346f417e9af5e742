/**
 * The admin CLI (`npm run admin -- <args>`) in a process of its own, as an operator runs it
 * beside a running server: tsx server/admin/cli.ts with the given database variables.
 */
import { spawn } from 'node:child_process';

/** Runs the CLI; resolves with its exit code and everything it printed (stdout, then stderr as it came). */
export async function runAdmin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const child = spawn('node_modules/.bin/tsx', ['server/admin/cli.ts', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString('utf8');
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out };
}

/** `reset-keys --json` for one API user's test keys: the new key, after checking it exited 0. */
export async function resetTestKeys(apiUser: string, env: Record<string, string>): Promise<string> {
  const { code, out } = await runAdmin(
    ['reset-keys', '--api-user', apiUser, '--mode', 'test', '--json'],
    env,
  );
  if (code !== 0) throw new Error(`reset-keys exited ${code}: ${out}`);
  return (JSON.parse(out.trim().split('\n').pop() as string) as { key: string }).key;
}
