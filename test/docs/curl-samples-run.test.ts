/**
 * The docs' curl samples, pasted into a shell after the `export` lines the first start prints,
 * work against a real server: one after the other, and twice the same one, each is its own
 * request (a fresh Idempotency-Key per run), never a 409 replay conflict.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlSample } from '../../scripts/docs/code-samples.js';
import { listOperations } from '../../scripts/lib/openapi.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { spec } from '../support/spec.js';

const run = promisify(execFile);
let server: TestServer;
let bin: string;

beforeAll(async () => {
  server = await startTestServer();
  // Debian ships uuidgen in uuid-runtime, which this machine may lack: a stand-in that prints
  // a random UUID, as the real one does.
  bin = mkdtempSync(join(tmpdir(), 'uuidgen-'));
  writeFileSync(
    join(bin, 'uuidgen'),
    `#!/bin/sh\nexec ${process.execPath} -e "console.log(crypto.randomUUID())"\n`,
  );
  chmodSync(join(bin, 'uuidgen'), 0o755);
});
afterAll(async () => {
  await server.close();
  rmSync(bin, { recursive: true, force: true });
});

function sample(method: string, path: string): string {
  const entry = listOperations(spec).find((e) => e.method === method && e.path === path);
  if (!entry) throw new Error(`no ${method} ${path} in the contract`);
  return curlSample(spec, entry);
}

async function shell(script: string): Promise<string> {
  const exports = [
    `export PAYMENTS_BASE_URL=${server.url}`,
    `export PAYMENTS_API_KEY=${server.test.key}`,
    `export PAYMENTS_API_USER=${server.test.apiUser}`,
  ].join('\n');
  const { stdout } = await run('/bin/sh', ['-c', `${exports}\n${script}`], {
    env: { PATH: `${bin}:${process.env.PATH}` },
  });
  return stdout;
}

describe('curl samples pasted after the first start exports', () => {
  it('the same POST sample run twice creates two objects, neither a 409', async () => {
    const command = sample('post', '/services');
    const out = await shell(`${command} -s -w '\\n%{http_code}\\n'\n${command} -s -w '\\n%{http_code}\\n'`);
    const lines = out.trim().split('\n');
    const statuses = lines.filter((l) => /^\d{3}$/.test(l));
    expect(statuses, out).toEqual(['201', '201']);
    const ids = lines
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { data: { service_id: string } }).data.service_id);
    expect(new Set(ids).size).toBe(2);
  });

  it('a GET sample reaches the server at the exported address with the exported credentials', async () => {
    const out = await shell(`${sample('get', '/balance')} -s -w '\\n%{http_code}\\n'`);
    expect(out.trim().split('\n').at(-1), out).toBe('200');
  });
});
