import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const tsx = 'node_modules/.bin/tsx';
const dirs: string[] = [];
const children: ChildProcess[] = [];

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'payments-entry-'));
  dirs.push(dir);
  return join(dir, 'payments.db');
}

afterEach(() => {
  // tsx runs the server as its own child: kill the whole process group, not only tsx.
  for (const child of children.splice(0)) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts `server/main.ts` and resolves with everything it printed once it printed `until`. */
function startMain(
  env: Record<string, string>,
  until: RegExp,
): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(tsx, ['server/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) resolve({ child, output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing ${until}:\n${output}`)));
  });
}

describe('npm start (server/main.ts)', () => {
  it('creates a sandbox account on first run and prints a curl command that works', async () => {
    const { output } = await startMain(
      { DATABASE_PATH: tempDb(), PORT: '0', LOG_LEVEL: 'warn', NODE_ENV: 'development' },
      /More accounts/,
    );
    const curl = /curl -s (\S+) -H "Authorization: Bearer (\S+)" -H "X-API-User: (\S+)"/.exec(output);
    expect(curl, output).not.toBeNull();
    const [, url, key, apiUser] = curl as RegExpExecArray;
    const response = await fetch(url as string, {
      headers: { authorization: `Bearer ${key}`, 'x-api-user': apiUser as string },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { mode: string } }).data.mode).toBe('test');
  });

  it('stops at start-up with the names of every bad variable', async () => {
    const result = await run(tsx, ['server/main.ts'], {
      env: { ...process.env, PORT: 'abc', SANDBOX_SETTLE_MS: '-1', DATABASE_PATH: tempDb() },
    }).catch((err: { code: number; stderr: string }) => err);
    expect((result as { code: number }).code).toBe(1);
    expect((result as { stderr: string }).stderr).toMatch(/PORT must be an integer/);
    expect((result as { stderr: string }).stderr).toMatch(/SANDBOX_SETTLE_MS must be an integer/);
  });

  it('a database path it cannot use stops it with a clear message naming the path', async () => {
    const result = await run(tsx, ['server/main.ts'], {
      env: { ...process.env, PORT: '0', DATABASE_PATH: '/etc/hostname/payments.db' },
    }).catch((err: { code: number; stderr: string }) => err);
    expect((result as { code: number }).code).toBe(1);
    expect((result as { stderr: string }).stderr).toContain(
      'Cannot open the database at /etc/hostname/payments.db',
    );
    expect((result as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  });

  it('on SIGTERM finishes and exits 0, leaving the WAL checkpointed', async () => {
    const { child } = await startMain(
      { DATABASE_PATH: tempDb(), PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'development' },
      /More accounts/,
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('npm run admin', () => {
  it('create-account --json prints exactly api_user, test_key and live_key', async () => {
    const { stdout } = await run(
      tsx,
      ['server/admin/cli.ts', 'create-account', '--name', 'Scripted', '--json'],
      {
        env: { ...process.env, DATABASE_PATH: tempDb() },
      },
    );
    const printed = JSON.parse(stdout);
    expect(Object.keys(printed)).toEqual(['api_user', 'test_key', 'live_key']);
    expect(printed.test_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(printed.live_key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(printed.api_user).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reset-keys revokes every key of the mode and prints one that works', async () => {
    const env = { ...process.env, DATABASE_PATH: tempDb() };
    const created = JSON.parse(
      (await run(tsx, ['server/admin/cli.ts', 'create-account', '--name', 'Leaky', '--json'], { env }))
        .stdout,
    );
    const reset = JSON.parse(
      (
        await run(
          tsx,
          ['server/admin/cli.ts', 'reset-keys', '--api-user', created.api_user, '--mode', 'test', '--json'],
          {
            env,
          },
        )
      ).stdout,
    );
    expect(reset.key).toMatch(/^sk_test_/);
    const { output } = await startMain({ ...env, PORT: '0', LOG_LEVEL: 'info' }, /"listening"/);
    const url = /"url":"([^"]+)"/.exec(output)?.[1];
    const call = (key: string) =>
      fetch(`${url}/balance`, {
        headers: { authorization: `Bearer ${key}`, 'x-api-user': created.api_user },
      });
    expect((await call(created.test_key)).status).toBe(401);
    expect((await call(reset.key)).status).toBe(200);
    expect((await call(created.live_key)).status).toBe(200);
  });

  it('an unknown command exits 2 with the usage', async () => {
    const result = await run(tsx, ['server/admin/cli.ts', 'drop-everything'], {
      env: { ...process.env, DATABASE_PATH: tempDb() },
    }).catch((err: { code: number; stderr: string }) => err);
    expect((result as { code: number }).code).toBe(2);
    expect((result as { stderr: string }).stderr).toContain('Usage: npm run admin');
  });
});
