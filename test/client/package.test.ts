/**
 * The client as integrators get it: `npm pack` in client/ (which builds it), the tarball
 * installed into a new project outside the repository, a small program type-checked there with
 * `tsc` against the installed types and run with node against a Prism mock of the contract.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../support/fixtures.js';
import { type PrismMock, startPrism } from '../support/prism.js';

const run = promisify(execFile);
const clientDir = fileURLToPath(new URL('../../client', import.meta.url));

/**
 * The environment without the `npm_*` variables an enclosing `npm test` sets (its prefix among
 * them), so that the npm commands below act on the consumer project and never on this one.
 */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

/** The integrator's program: every call typed by the installed package, checked by `tsc`. */
const program = `
import { createHmac } from 'node:crypto';
import {
  createPaymentsClient,
  type Payment,
  PaymentsConfigError,
  paginate,
  requestIdOf,
  verifyWebhook,
} from '@momo-payments/client';

const client = createPaymentsClient({
  apiKey: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  apiUser: '3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f9a8b',
  baseUrl: process.env.BASE_URL ?? '',
  sandbox: true,
  retry: { maxRetries: 1, baseDelayMs: 10, maxDelayMs: 100 },
  timeoutMs: 5_000,
});

const created = await client.POST('/payments', {
  body: {
    amount: 2500,
    currency: 'XAF',
    customer_msisdn: '${sandbox.mtn.succeeds}',
    payment_method: 'mtn_momo',
    service_id: 'svc_D0ZWUJVoTsan5UIrjR1AgIMn',
    reference: 'order-1042',
  },
});
if (created.error) throw new Error(\`payment refused: \${created.error.error.code}\`);
const payment: Payment = created.data.data;

const read = await client.GET('/payments/{id}', { params: { path: { id: payment.transaction_id } } });
const missing = await client.GET('/payments/{id}', {
  params: { path: { id: payment.transaction_id } },
  headers: { Prefer: 'code=404' },
});

const listed: string[] = [];
for await (const item of paginate(client, '/payments', { params: { query: { limit: 2 } } })) {
  listed.push(item.transaction_id);
  if (listed.length === 2) break;
}

const body = JSON.stringify({
  id: 'evt_YvLIaWnufPjfE2zzW9C0854C',
  event: 'payout.completed',
  data: { transaction_id: 'po_ZjFUiayjpfwSwZUUHrz2tnyu', amount: 100, currency: 'XAF', status: 'success', reference: null, failure_code: null },
  timestamp: '2026-11-20T09:30:04.000Z',
  mode: 'test',
});
const t = Math.floor(Date.now() / 1000);
const v1 = createHmac('sha256', 'whsec_secret').update(\`\${t}.\${body}\`).digest('hex');
const event = verifyWebhook(body, \`t=\${t},v1=\${v1}\`, 'whsec_secret');

let refused = '';
try {
  createPaymentsClient({ apiKey: 'sk_live_x', apiUser: 'u', sandbox: true });
} catch (error) {
  if (error instanceof PaymentsConfigError) refused = error.code;
}

/** Never called: the type checker alone proves the installed types come from the contract. */
export function typesGuideEveryCall() {
  // @ts-expect-error the contract spells it customer_msisdn
  client.POST('/payments', { body: { amount: 1, currency: 'XAF', customerMsisdn: '1', payment_method: 'mtn_momo', service_id: 's' } });
  // @ts-expect-error amounts are integers, not strings
  client.POST('/payouts', { body: { amount: '100', payout_type: 'withdrawal', recipient_msisdn: '${sandbox.mtn.succeeds}' } });
  // @ts-expect-error no such path
  client.GET('/paiements', {});
  // @ts-expect-error an event name of the contract, not an invented one
  if (event.event === 'payment.succeeded') return;
}

console.log(
  JSON.stringify({
    created: { status: created.response.status, payment_status: payment.status, request_id: requestIdOf(created.response) },
    read: read.data?.data.transaction_id === payment.transaction_id,
    missing: { status: missing.response.status, code: missing.error?.error.code },
    listed: listed.length,
    event: event.event,
    refused,
  }),
);
`;

let work: string;
let prism: PrismMock;
let tarball: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'momo-client-package-'));
  const packs = join(work, 'packs');
  mkdirSync(packs);
  // The package's prepack script builds client/dist first.
  await run('npm', ['pack', '--pack-destination', packs], {
    cwd: clientDir,
    env: cleanEnv,
    maxBuffer: 16 * 1024 * 1024,
  });
  const packed = readdirSync(packs).filter((name) => name.endsWith('.tgz'));
  if (packed.length !== 1) throw new Error(`npm pack made ${packed.join(', ') || 'no tarball'}`);
  tarball = join(packs, packed[0] ?? '');
  prism = await startPrism();
}, 180_000);

afterAll(async () => {
  await prism?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed client', () => {
  it('packs the built JavaScript, its .d.ts and its own copy of the contract types, and no sources', async () => {
    expect(tarball).toMatch(/momo-payments-client-\d+\.\d+\.\d+\.tgz$/);
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/dist/client/src/index.js',
        'package/dist/client/src/index.d.ts',
        'package/dist/client/src/webhooks.js',
        'package/dist/generated/openapi.d.ts',
      ]),
    );
    expect(files.filter((name) => /\.ts$/.test(name) && !name.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((name) => !name.startsWith('package/dist/'))).toEqual([
      'package/README.md',
      'package/package.json',
    ]);
  });

  it('installs into a new project, type-checks a program there and runs it against a mock of the API', async () => {
    const project = join(work, 'consumer');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2023'],
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noUncheckedIndexedAccess: true,
            verbatimModuleSyntax: true,
            skipLibCheck: false,
            types: ['node'],
            outDir: 'out',
          },
          include: ['main.ts'],
        },
        null,
        2,
      ),
    );
    writeFileSync(join(project, 'main.ts'), program);

    await run(
      'npm',
      [
        'install',
        tarball,
        'typescript@~5.9',
        '@types/node@^20',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      { cwd: project, env: cleanEnv, maxBuffer: 16 * 1024 * 1024 },
    );

    const tsc = await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
      cwd: project,
    }).catch((error: { stdout?: string; message: string }) => {
      throw new Error(`tsc failed in the consumer project:\n${error.stdout ?? error.message}`);
    });
    expect(tsc.stdout).toBe('');

    const { stdout } = await run(process.execPath, ['out/main.js'], {
      cwd: project,
      env: { ...cleanEnv, BASE_URL: prism.baseUrl },
    });
    expect(JSON.parse(stdout)).toEqual({
      created: { status: 202, payment_status: 'initiated', request_id: expect.stringMatching(/^req_/) },
      read: true,
      missing: { status: 404, code: 'resource_not_found' },
      listed: 2,
      event: 'payout.completed',
      refused: 'live_key_in_sandbox',
    });
  }, 240_000);
});
