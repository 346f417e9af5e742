/**
 * The PHP client library (client/php) as its users get it: every PHP file parses, its generated
 * files match openapi.yaml, its PHPUnit unit suite passes, and its integration suite runs the
 * scenarios of test/clients/scenarios.json against the real API, started as `npm start` runs it
 * (the compiled server with its settlement and webhook workers on their timers). Needs Debian's
 * php-cli, php-curl and phpunit (`bash .ci/run` installs them).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPhp, staleFiles } from '../../scripts/clients/generate-php.js';
import { readSpec } from '../../scripts/lib/openapi.js';
import {
  type ChildServer,
  createAccountWithCli,
  repoRoot,
  startChildServer,
} from '../support/child-server.js';

const phpRoot = join(repoRoot, 'client', 'php');

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command to its end; its exit code and everything it printed, stdout then stderr as they came. */
function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? phpRoot,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', (error) =>
      reject(
        new Error(`${command} could not run (apt-get install -y php-cli php-curl phpunit): ${error.message}`),
      ),
    );
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Every .php file of the library, its tests included, and not a Composer vendor folder. */
function phpFiles(dir = phpRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'vendor' ? [] : phpFiles(path);
    return entry.name.endsWith('.php') ? [path] : [];
  });
}

/** How many tests PHPUnit says passed: `OK (12 tests, 40 assertions)`. */
function passedTests(output: string): number | undefined {
  const match = /^OK \((\d+) tests?, \d+ assertions?\)$/m.exec(output);
  return match ? Number(match[1]) : undefined;
}

const readme = readFileSync(join(phpRoot, 'README.md'), 'utf8');

/** The code blocks of client/php/README.md in `language`. */
function readmeBlocks(language: string): string[] {
  return [...readme.matchAll(new RegExp(`^\`\`\`${language}\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (match) => match[1] as string,
  );
}

/** The block the README marks with `<!-- example: <name> -->`. */
function readmeExample(name: string): string {
  const match = new RegExp(`<!-- example: ${name} -->\n\`\`\`\\w+\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(readme);
  if (!match) throw new Error(`client/php/README.md has no example marked ${name}`);
  return match[1] as string;
}

const scenarioIds = (
  JSON.parse(readFileSync(join(repoRoot, 'test/clients/scenarios.json'), 'utf8')) as {
    scenarios: Array<{ id: string }>;
  }
).scenarios.map((s) => s.id);

describe('the PHP client library', () => {
  it('every PHP file parses (php -l)', async () => {
    const files = phpFiles();
    expect(files.length).toBeGreaterThan(40);
    const failures: string[] = [];
    // php -l takes one file per process: four at a time.
    const queue = [...files];
    const lintNext = async (): Promise<void> => {
      for (let file = queue.shift(); file; file = queue.shift()) {
        const { code, output } = await run('php', ['-l', file]);
        if (code !== 0) failures.push(output);
      }
    };
    await Promise.all([lintNext(), lintNext(), lintNext(), lintNext()]);
    expect(failures).toEqual([]);
  });

  it('every PHP sample of its README parses (php -l)', async () => {
    const blocks = readmeBlocks('php');
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const dir = mkdtempSync(join(tmpdir(), 'php-readme-'));
    try {
      for (const [index, block] of blocks.entries()) {
        const file = join(dir, `sample-${index}.php`);
        writeFileSync(file, block);
        const { code, output } = await run('php', ['-l', file]);
        expect(code, `${output}\n${block}`).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('its generated models, enums and operations are those openapi.yaml gives (npm run generate:php)', () => {
    expect(staleFiles(renderPhp(readSpec(join(repoRoot, 'openapi.yaml'))))).toEqual([]);
  });

  it('passes its unit suite (phpunit --testsuite unit)', async () => {
    const { code, output } = await run('phpunit', ['--testsuite', 'unit']);
    expect(code, output).toBe(0);
    expect(passedTests(output), output).toBeGreaterThan(40);
  }, 60_000);

  describe('against the real server', () => {
    let dir: string;
    let server: ChildServer;
    let limited: ChildServer;
    const rateLimit = 3;

    /** The credentials the first start printed as `export` lines, as `npm start` prints them. */
    async function printedCredentials(child: ChildServer): Promise<Record<string, string>> {
      await expect.poll(() => child.output(), { timeout: 15_000 }).toContain('export PAYMENTS_API_KEY=');
      const variables: Record<string, string> = {};
      for (const match of child.output().matchAll(/export (PAYMENTS_[A-Z_]+)=(\S+)/g)) {
        variables[match[1] as string] = match[2] as string;
      }
      return variables;
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'php-library-'));
      // The webhook receiver of the PHP suite is on 127.0.0.1: the sandbox may call it with the opt-in.
      server = await startChildServer({
        name: 'api',
        dbPath: join(dir, 'api.db'),
        env: { WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' },
      });
      limited = await startChildServer({
        name: 'rate-limited api',
        dbPath: join(dir, 'limited.db'),
        env: { RATE_LIMIT_PER_WINDOW: String(rateLimit), RATE_LIMIT_WINDOW_MS: '60000' },
      });
    });

    afterAll(async () => {
      await Promise.all([server?.stop(), limited?.stop()]);
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs every scenario of scenarios.json and passes (phpunit --testsuite integration)', async () => {
      const main = await printedCredentials(server);
      const second = await createAccountWithCli(server.dbPath, 'PHP paging account');
      const limitedAccount = await printedCredentials(limited);
      const { code, output } = await run('phpunit', ['--testsuite', 'integration'], {
        env: {
          ...main,
          PAYMENTS_SECOND_API_USER: second.apiUser,
          PAYMENTS_SECOND_API_KEY: second.testKey,
          PAYMENTS_RATE_LIMITED_BASE_URL: limited.url,
          PAYMENTS_RATE_LIMITED_API_USER: limitedAccount.PAYMENTS_API_USER ?? '',
          PAYMENTS_RATE_LIMITED_API_KEY: limitedAccount.PAYMENTS_API_KEY ?? '',
          PAYMENTS_RATE_LIMIT: String(rateLimit),
        },
      });
      expect(main.PAYMENTS_BASE_URL).toBe(server.url);
      expect(code, output).toBe(0);
      expect(passedTests(output), output).toBe(scenarioIds.length);
      expect(server.errorLines()).toEqual([]);
    }, 120_000);

    it("installs with Composer from the repository's path, and the README's payment example runs against the server", async () => {
      const project = join(dir, 'project');
      const composerJson = readmeExample('composer.json').replace(
        '/path/to/payments-api/client/php',
        phpRoot,
      );
      mkdirSync(project);
      writeFileSync(join(project, 'composer.json'), composerJson);
      writeFileSync(join(project, 'payment.php'), readmeExample('payment'));
      const install = await run('composer', ['install', '--no-interaction', '--no-progress'], {
        cwd: project,
        env: { COMPOSER_HOME: join(dir, 'composer-home') },
      });
      expect(install.code, install.output).toBe(0);
      expect(install.output).toContain('Installing momo-payments/client (0.1.0)');

      const credentials = await printedCredentials(server);
      const payment = await run('php', ['payment.php'], { cwd: project, env: credentials });
      expect(payment.code, payment.output).toBe(0);
      expect(payment.output).toMatch(/^pay_[0-9A-Za-z]{24} initiated\n(initiated|success)\n$/);
    }, 60_000);
  });
});
