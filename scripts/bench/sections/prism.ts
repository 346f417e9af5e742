/**
 * The `prism` section: `prism mock openapi.yaml`, one process, answering the same three requests
 * (docs/benchmarks.md, "What is measured").
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { type Operation, operations, paymentBody, type Scenario } from '../api.js';
import type { Bench } from '../context.js';
import type { LoadRequest } from '../load.js';
import { freePort, startProcess, waitForHttp } from '../processes.js';
import { placeholderService } from '../servers.js';
import { type ThroughputPart, throughputSection } from './throughput.js';

export async function prismSection(bench: Bench): Promise<ThroughputPart> {
  const port = await freePort();
  const prismCli = realpathSync(join(bench.root, 'node_modules/.bin/prism'));
  const prism = startProcess(
    'prism mock',
    process.execPath,
    [
      prismCli,
      'mock',
      'openapi.yaml',
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '--multiprocess=false',
      '-v',
      'warn',
    ],
    { NODE_ENV: 'development' },
    { cwd: bench.root },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(prism, `${origin}/healthz`);
  // Prism 5 serves the paths at its root (no /v1) and only checks that the auth headers exist.
  const headers = {
    authorization: 'Bearer sk_test_00000000000000000000000000000000',
    'x-api-user': '72667275-cf12-4feb-a9cd-0038e60a078b',
  };
  const scenario = (op: Operation, request: LoadRequest): Scenario => ({
    key: `prism.${op}`,
    section: throughputSection,
    label: `Prism mock: ${operations[op]}`,
    server: prism,
    options: { title: `Prism ${operations[op]}`, origin, connections: bench.plan.connections, request },
  });
  return {
    scenarios: {
      post: [
        scenario('post', {
          method: 'POST',
          path: '/payments',
          headers,
          body: paymentBody(placeholderService),
          uniqueIdempotencyKey: true,
        }),
      ],
      get: [scenario('get', { method: 'GET', path: '/payments/pay_26ckKthu9SR4AlZ0MBzSvYzU', headers })],
      list: [scenario('list', { method: 'GET', path: '/payments?limit=20', headers })],
    },
  };
}
