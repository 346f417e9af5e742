import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { adminScript } from '../support/admin.js';
import { apiClient, raw } from '../support/api.js';
import { compiledServerEntry } from '../support/child-server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
/** `npm run admin -- <args>` (scripts/admin.mjs), stdout and stderr apart. */
const admin = (args: string[], options: { env: NodeJS.ProcessEnv }) =>
  run(process.execPath, [adminScript, ...args], options);
const dirs: string[] = [];
const children: ChildProcess[] = [];

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'payments-entry-'));
  dirs.push(dir);
  return join(dir, 'payments.db');
}

afterEach(() => {
  // A server may start processes: kill the whole group.
  for (const child of children.splice(0)) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function withoutDatabasePath(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_PATH: _ignored, ...rest } = env;
  return rest;
}

/** The `export NAME=value` lines of a printed message, as a shell prelude. */
function exportsOf(output: string): string {
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^export PAYMENTS_[A-Z_]+=\S+$/.test(line))
    .join('\n');
}

/** Runs printed shell lines (exports, then curl commands) as a user pasting them would. */
async function paste(lines: string): Promise<string> {
  return (await run('/bin/sh', ['-c', lines])).stdout;
}

/**
 * Starts the compiled server (what `npm start` runs once dist/ is current; vitest's global setup
 * compiled it), or `command` instead, and resolves with everything it
 * printed once it printed `until`.
 */
function startMain(
  env: Record<string, string>,
  until: RegExp,
  cwd?: string,
  command: string[] = [process.execPath, compiledServerEntry],
): Promise<{ child: ChildProcess; output: string }> {
  const [program, ...args] = command as [string, ...string[]];
  const child = spawn(program, args, {
    cwd: cwd ?? root,
    env: { ...withoutDatabasePath(process.env), ...env },
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

describe('npm start runs the compiled server (scripts/start.mjs, dist/)', () => {
  it('compiles dist/ when a source is newer, then serves the API, the contract and the docs from it', async () => {
    const { output } = await startMain(
      { DATABASE_PATH: tempDb(), PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'development' },
      /More accounts/,
      root,
      [process.execPath, join(root, 'scripts/start.mjs'), '--docs'],
    );
    const apiUrl = /"url":"(http:\/\/127\.0\.0\.1:\d+\/v1)"/.exec(output)?.[1] as string;
    expect(apiUrl, output).toBeDefined();
    // Files found from the project's folder, not from dist/: the migrations ran, the contract
    // and the docs page are served.
    // The health check needs no key: raw, as a load balancer sends it.
    const health = await raw(apiUrl, 'GET', '/healthz');
    expect(health.status).toBe(200);
    const contract = await fetch(apiUrl.replace(/\/v1$/, '/openapi.yaml'));
    expect(contract.status).toBe(200);
    expect(await contract.text()).toMatch(/^openapi: 3/m);
    if (existsSync(join(root, 'build/docs/index.html'))) {
      expect((await fetch(apiUrl.replace(/\/v1$/, '/docs/'))).status).toBe(200);
    }
    // What ran is current: nothing is left to compile.
    const check = await run(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root });
    expect(check.stderr).toBe('');
    expect(existsSync(join(root, 'dist/server/main.js'))).toBe(true);
  });
});

describe('npm start (server/main.ts, compiled)', () => {
  it('on first run prints export lines and curl commands that work when pasted, a service first', async () => {
    const { output } = await startMain(
      { DATABASE_PATH: tempDb(), PORT: '0', LOG_LEVEL: 'warn', NODE_ENV: 'development' },
      /More accounts/,
    );
    const exports = exportsOf(output);
    expect(exports.split('\n').map((l) => l.split('=')[0])).toEqual([
      'export PAYMENTS_BASE_URL',
      'export PAYMENTS_API_USER',
      'export PAYMENTS_API_KEY',
    ]);
    expect(exports).toMatch(/PAYMENTS_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1\n/);
    expect(output, 'the live key is not printed').not.toMatch(/sk_live_/);
    const curls = output
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('curl '));
    expect(curls[0], 'the first call creates a service').toContain('/services');
    const answers = (await paste(`${exports}\n${curls.map((c) => `${c}; echo`).join('\n')}`))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers[0]).toMatchObject({ status: 'success', data: { status: 'active', mode: 'test' } });
    expect(answers[1]).toMatchObject({ status: 'success', data: { mode: 'test' } });
  });

  it('loads .env from the working folder, a variable already set winning over it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payments-dotenv-'));
    dirs.push(dir);
    const fromFile = join(dir, 'from-dotenv.db');
    writeFileSync(join(dir, '.env'), `DATABASE_PATH=${fromFile}\nPORT=1\nLOG_LEVEL=info\n`);
    const { output } = await startMain({ PORT: '0', NODE_ENV: 'development' }, /More accounts/, dir);
    expect(output).toContain(`"database":"${fromFile}"`);
    expect(existsSync(fromFile)).toBe(true);
    expect(output, 'PORT=0 from the environment wins over PORT=1 in the file').toMatch(
      /"url":"http:\/\/127\.0\.0\.1:(?!1\/)\d+\/v1"/,
    );
  });

  it('stops at start-up with the names of every bad variable', async () => {
    const result = await run(process.execPath, [compiledServerEntry], {
      env: {
        ...process.env,
        PORT: 'abc',
        SANDBOX_SETTLE_MS: '-1',
        TRUST_PROXY: 'X-Forwarded-For: yes',
        DATABASE_PATH: tempDb(),
      },
    }).catch((err: { code: number; stderr: string }) => err);
    expect((result as { code: number }).code).toBe(1);
    expect((result as { stderr: string }).stderr).toMatch(/PORT must be an integer/);
    expect((result as { stderr: string }).stderr).toMatch(/SANDBOX_SETTLE_MS must be an integer/);
    expect((result as { stderr: string }).stderr).toMatch(/TRUST_PROXY must be a header name/);
  });

  it('a database path it cannot use stops it with a clear message naming the path', async () => {
    const result = await run(process.execPath, [compiledServerEntry], {
      env: { ...process.env, PORT: '0', DATABASE_PATH: '/etc/hostname/payments.db' },
    }).catch((err: { code: number; stderr: string }) => err);
    expect((result as { code: number }).code).toBe(1);
    expect((result as { stderr: string }).stderr).toContain(
      'Cannot open the database at /etc/hostname/payments.db',
    );
    expect((result as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  });

  it('on SIGTERM finishes and exits 0, leaving the WAL checkpointed and the file closed', async () => {
    const path = tempDb();
    const { child } = await startMain(
      { DATABASE_PATH: path, PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'development' },
      /More accounts/,
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Closed by its last connection, the file keeps no WAL or WAL index beside it (its key file
    // stays: no SECRETS_ENCRYPTION_KEY was given).
    expect(readdirSync(dirname(path)).sort()).toEqual(['payments.db', 'payments.db.secrets-key']);
  });
});

describe('npm run admin', () => {
  it('create-account --json prints exactly api_user, test_key and live_key', async () => {
    const { stdout } = await admin(['create-account', '--name', 'Scripted', '--json'], {
      env: { ...process.env, DATABASE_PATH: tempDb() },
    });
    const printed = JSON.parse(stdout);
    expect(Object.keys(printed)).toEqual(['api_user', 'test_key', 'live_key']);
    expect(printed.test_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(printed.live_key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(printed.api_user).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reset-keys revokes every key of the mode and prints one that works', async () => {
    const env = { ...process.env, DATABASE_PATH: tempDb() };
    const created = JSON.parse(
      (
        await admin(['create-account', '--name', 'Leaky', '--json'], {
          env,
        })
      ).stdout,
    );
    const reset = JSON.parse(
      (
        await admin(['reset-keys', '--api-user', created.api_user, '--mode', 'test', '--json'], {
          env,
        })
      ).stdout,
    );
    expect(reset.key).toMatch(/^sk_test_/);
    const { output } = await startMain({ ...env, PORT: '0', LOG_LEVEL: 'info' }, /"listening"/);
    const url = /"url":"([^"]+)"/.exec(output)?.[1] as string;
    const call = async (key: string) =>
      (await apiClient(url, { apiUser: created.api_user, key }).GET('/balance')).response;
    expect((await call(created.test_key)).status).toBe(401);
    expect((await call(reset.key)).status).toBe(200);
    expect((await call(created.live_key)).status).toBe(200);
  });

  it('list-accounts lists every account with its API user, oldest first', async () => {
    const env = { ...process.env, DATABASE_PATH: tempDb() };
    const create = async (name: string) =>
      JSON.parse(
        (
          await admin(['create-account', '--name', name, '--json'], {
            env,
          })
        ).stdout,
      );
    const first = await create('First shop');
    const second = await create('Second shop');
    const listed = JSON.parse((await admin(['list-accounts', '--json'], { env })).stdout);
    expect(listed.map((a: { name: string; api_user: string }) => [a.name, a.api_user])).toEqual([
      ['First shop', first.api_user],
      ['Second shop', second.api_user],
    ]);
    const text = (await admin(['list-accounts'], { env })).stdout;
    expect(text).toContain(first.api_user);
    expect(text).not.toMatch(/sk_(test|live)_/);
  });

  it('sandbox-credentials shows the export lines again, and --rotate gives a new test key that works', async () => {
    const db = tempDb();
    const { output } = await startMain({ DATABASE_PATH: db, PORT: '0', LOG_LEVEL: 'info' }, /More accounts/);
    const firstExports = exportsOf(output);
    const url = /PAYMENTS_BASE_URL=(\S+)/.exec(firstExports)?.[1] as string;
    const apiUser = /PAYMENTS_API_USER=(\S+)/.exec(firstExports)?.[1] as string;
    const oldKey = /PAYMENTS_API_KEY=(\S+)/.exec(firstExports)?.[1] as string;
    const env = { ...process.env, DATABASE_PATH: db };

    const shown = (await admin(['sandbox-credentials'], { env })).stdout;
    expect(shown).toContain(`export PAYMENTS_API_USER=${apiUser}`);
    expect(shown).toContain('--rotate');
    expect(shown, 'a key stored hashed cannot be shown again').not.toMatch(/sk_(test|live)_/);

    const rotated = (await admin(['sandbox-credentials', '--rotate'], { env })).stdout;
    const newKey = /export PAYMENTS_API_KEY=(sk_test_\S+)/.exec(rotated)?.[1];
    expect(newKey).toBeDefined();
    expect(rotated).not.toMatch(/sk_live_/);
    const call = async (key: string) => (await apiClient(url, { apiUser, key }).GET('/balance')).response;
    expect((await call(oldKey)).status).toBe(401);
    expect((await call(newKey as string)).status).toBe(200);
  });

  it('an unknown command exits 2 with the usage', async () => {
    const result = await admin(['drop-everything'], {
      env: { ...process.env, DATABASE_PATH: tempDb() },
    }).catch((err: { code: number; stderr: string }) => err);
    expect((result as { code: number }).code).toBe(2);
    expect((result as { stderr: string }).stderr).toContain('Usage: npm run admin');
  });
});
