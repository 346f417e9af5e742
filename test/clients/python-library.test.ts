/**
 * The Python library (client/python) against the real server: its unit tests, the shared
 * integration scenarios (test/clients/scenarios.json, in client/python/tests/test_integration.py)
 * and `mypy --strict`, each run as the Python developer would run them, their exit codes and
 * output checked here.
 *
 * The servers are the real application on free 127.0.0.1 ports (test/support/server.ts); its
 * workers run on demand, so the Python suite asks this file's control helper, on 127.0.0.1, to
 * run a settlement or webhook pass (or to create a fresh account). The helper belongs to this
 * test harness only, never to the product. A second server with a rate limit of 3 calls a minute
 * serves the 429 case.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/child-server.js';
import { startTestServer, type TestServer } from '../support/server.js';

const pythonRoot = join(repoRoot, 'client', 'python');

const { scenarios } = JSON.parse(readFileSync(join(repoRoot, 'test/clients/scenarios.json'), 'utf8')) as {
  scenarios: Array<{ id: string; what: string }>;
};

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command in client/python with `env` added, and keeps its exit code and output. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('PAYMENTS_')),
    );
    const child = spawn(command, args, {
      cwd: pythonRoot,
      env: { ...inherited, PYTHONDONTWRITEBYTECODE: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The harness's control helper: runs the server's passes now, or creates an account. */
async function startControl(server: TestServer): Promise<{ url: string; close(): Promise<void> }> {
  const actions: Record<string, () => Promise<unknown>> = {
    '/settle': async () => ({ settled: await server.settle() }),
    '/deliver-webhooks': async () => ({ delivered: await server.deliverWebhooks() }),
    '/accounts': async () => {
      const { test } = await server.newAccount('Python integration');
      return { api_user: test.apiUser, api_key: test.key };
    },
  };
  const control: Server = createServer((req, res) => {
    const action = req.method === 'POST' ? actions[req.url ?? ''] : undefined;
    if (!action) {
      res.writeHead(404).end();
      return;
    }
    action().then(
      (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const { port } = control.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => control.close(() => resolve())),
  };
}

/** mypy's cache, shared by this file's runs and kept out of the worktree. */
const mypyCache = mkdtempSync(join(tmpdir(), 'python-mypy-cache-'));
const cacheOutsideTheWorktree = [`--cache-dir=${mypyCache}`];

/** Writes each Python snippet to a file of its own and runs `mypy --strict` over them all. */
async function typeCheckSnippets(snippets: string[]): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'python-readme-'));
  try {
    const files = snippets.map((code, i) => {
      const file = join(dir, `readme_block_${i + 1}.py`);
      writeFileSync(file, code);
      return file;
    });
    return await run('mypy', ['--strict', ...cacheOutsideTheWorktree, ...files], { MYPYPATH: pythonRoot });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const readmeBlocks = [
  ...readFileSync(join(pythonRoot, 'README.md'), 'utf8').matchAll(/^```python\n([\s\S]*?)^```$/gm),
].map((match) => match[1] ?? '');

let server: TestServer;
let rateLimited: TestServer;
let control: Awaited<ReturnType<typeof startControl>>;
let suite: Run;

beforeAll(async () => {
  // The webhook receiver of the Python suite is on 127.0.0.1: allowed in the sandbox by opt-in.
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
  // Deliveries are signed at the server's clock and checked against the Python process's: one time.
  server.clock.advance(Date.now() - server.clock.now());
  rateLimited = await startTestServer({ RATE_LIMIT_PER_WINDOW: '3', RATE_LIMIT_WINDOW_MS: '60000' });
  control = await startControl(server);
  suite = await run('python3', ['-m', 'unittest', 'discover', '-v', '-s', 'tests', '-t', '.'], {
    PAYMENTS_BASE_URL: server.url,
    PAYMENTS_API_USER: server.test.apiUser,
    PAYMENTS_API_KEY: server.test.key,
    PAYMENTS_TEST_CONTROL_URL: control.url,
    PAYMENTS_RATE_LIMITED_BASE_URL: rateLimited.url,
    PAYMENTS_RATE_LIMITED_API_USER: rateLimited.test.apiUser,
    PAYMENTS_RATE_LIMITED_API_KEY: rateLimited.test.key,
  });
  if (suite.code !== 0) console.error(suite.output);
}, 180_000);

afterAll(async () => {
  await control?.close();
  await rateLimited?.close();
  await server?.close();
  rmSync(mypyCache, { recursive: true, force: true });
});

describe('the Python library', () => {
  it('passes its unit and integration tests (python3 -m unittest), none skipped', () => {
    expect(suite.code, suite.output).toBe(0);
    expect(suite.output).toMatch(/^OK$/m);
    expect(suite.output).not.toMatch(/skipped|expected failures/);
    const ran = Number(/^Ran (\d+) tests? in/m.exec(suite.output)?.[1]);
    expect(ran).toBeGreaterThan(scenarios.length);
  });

  for (const scenario of scenarios) {
    it(`runs the scenario ${scenario.id} against the real server and passes it`, () => {
      const line = new RegExp(
        `^test_${scenario.id} \\(tests\\.test_integration\\.[\\w.]+\\)(?:\\n.*)? \\.\\.\\. (\\w+)`,
        'm',
      );
      expect(line.exec(suite.output)?.[1], suite.output).toBe('ok');
    });
  }

  it('type-checks with mypy --strict (the library, its tests and its build backend)', async () => {
    const mypy = await run('mypy', ['--strict', ...cacheOutsideTheWorktree]);
    expect(mypy.code, mypy.output).toBe(0);
    expect(mypy.output).toMatch(/^Success: no issues found in \d+ source files/m);
  }, 120_000);

  it('has README examples that type-check with mypy --strict, and a wrong one would not', async () => {
    expect(readmeBlocks.length).toBeGreaterThanOrEqual(5);
    const checked = await typeCheckSnippets(readmeBlocks);
    expect(checked.code, checked.output).toBe(0);
    const wrong = await typeCheckSnippets([
      'from momo_payments import PaymentsClient\n' +
        'PaymentsClient(api_key="sk_test_x", api_user="u").create_payment({"amount": "2500", "currency": "XAF", ' +
        '"customer_msisdn": "237670000000", "payment_method": "mtn_momo", "service_id": "svc_1"})\n',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.output).toMatch(/readme_block_1\.py:2: error: .*"amount"/);
  }, 120_000);
});
