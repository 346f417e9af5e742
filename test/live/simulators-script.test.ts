/**
 * Going live locally is two commands: `npm run simulators` writes the variables of its
 * simulators to a file, and `npm start -- --env-file <file>` reads it; the server then says
 * each operator is connected and settles live money through them. The credentials stay the
 * same from run to run, so a file written before still connects.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempFolder, waitUntil } from '../faults/support/load.js';
import { apiClient, ok } from '../support/api.js';
import { createAccountWithCli, repoRoot, startChildServer } from '../support/child-server.js';
import { sandbox } from '../support/fixtures.js';
import { freePort } from '../support/ports.js';
import { exitedWithOutput } from '../support/process-exit.js';
import { testDatabaseEnv } from '../support/server.js';

const folder = tempFolder('simulators-script-');
const tsx = join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const stopping: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const stop of stopping.splice(0)) await stop();
});
afterAll(() => folder.remove());

/** `npm run simulators -- --write-env <envFile>` with PORT and the data folder of this test; resolves once it wrote the file. */
async function simulators(port: number, envFile: string): Promise<{ stop(): Promise<unknown> }> {
  const child = spawn(process.execPath, [tsx, 'scripts/simulators/run.ts', '--write-env', envFile], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_PATH: join(folder.dir, 'payments.db'),
      SIMULATOR_SETTLE_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = exitedWithOutput(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  await waitUntil(
    () => output.includes(`npm start -- --env-file`) || child.exitCode !== null,
    30_000,
    () => `the simulators did not start:\n${output}`,
  );
  expect(child.exitCode, output).toBeNull();
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  stopping.push(stop);
  return { stop };
}

describe('npm run simulators, then npm start', () => {
  it('writes an env file that npm start reads: every operator connected, a live payment settles', async () => {
    const port = await freePort();
    const envFile = join(folder.dir, 'first.env');
    await simulators(port, envFile);
    const written = parseEnv(readFileSync(envFile, 'utf8'));
    expect(written.MTN_MOMO_CALLBACK_URL).toBe(`http://127.0.0.1:${port}/operator-callbacks/mtn-momo`);
    const target = { dbPath: join(folder.dir, 'payments.db'), databaseEnv: await testDatabaseEnv() };
    const account = await createAccountWithCli(target);
    const server = await startChildServer({
      ...target,
      env: { PORT: String(port) },
      args: ['--env-file', envFile],
    });
    stopping.unshift(() => server.stop());
    const connected = () =>
      server
        .logLines()
        .filter((line) => line.state === 'connected')
        .map((line) => `${line.operator}/${line.product}`);
    await waitUntil(
      () => connected().length === 4,
      15_000,
      () => server.output().slice(-3000),
    );
    expect(connected().sort()).toEqual([
      'mtn_momo/collection',
      'mtn_momo/disbursement',
      'orange_money/collection',
      'orange_money/disbursement',
    ]);
    const api = apiClient(server.url, { apiUser: account.apiUser, key: account.liveKey });
    const service = ok(await api.POST('/services', { body: { name: 'Shop' } })).data.service_id;
    const payment = ok(
      await api.POST('/payments', {
        body: {
          amount: 500,
          currency: 'XAF',
          customer_msisdn: sandbox.mtn.succeeds,
          payment_method: 'mtn_momo',
          service_id: service,
        },
      }),
    ).data;
    const status = async () =>
      ok(await api.GET('/payments/{id}', { params: { path: { id: payment.transaction_id } } })).data.status;
    await waitUntil(
      async () => (await status()) === 'success',
      15_000,
      () => 'the live payment never settled',
    );
  }, 120_000);

  it('keeps the same credentials, and the same ports when free, from one run to the next', async () => {
    const port = await freePort();
    const first = join(folder.dir, 'again-1.env');
    const second = join(folder.dir, 'again-2.env');
    const run = await simulators(port, first);
    await run.stop();
    await simulators(port, second);
    const [a, b] = [first, second].map((file) => parseEnv(readFileSync(file, 'utf8')));
    expect(b).toEqual(a);
    expect(a?.MTN_MOMO_COLLECTION_API_KEY).toMatch(/^[0-9a-f]{32}$/);
  }, 60_000);
});
