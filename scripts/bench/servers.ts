/**
 * The servers the sections start: ours (compiled, as `npm start` runs it) and bare Express, each a
 * child process of its own so the pid measured is the server (docs/benchmarks.md, "How").
 */
import { join } from 'node:path';
import {
  type Api,
  type Credentials,
  type Database,
  type Operation,
  operations,
  paymentBody,
  type Scenario,
} from './api.js';
import type { Bench } from './context.js';
import type { LoadRequest } from './load.js';
import { freePort, startProcess, waitForHttp } from './processes.js';

/** Bare Express and Prism get the same request bytes as our POST (only the ids differ). */
export const placeholderService = 'svc_D0ZWUJVoTsan5UIrjR1AgIMn';

/** A scenario of one server, before its section gives it a key. */
export type ServerScenario = Omit<Scenario, 'key' | 'section'>;

export async function startApi(
  bench: Bench,
  name: string,
  database: Database,
  credentials: Credentials,
  env: Record<string, string>,
): Promise<Api> {
  const port = await freePort();
  // One folder per server: V8 writes a profile per thread, named by pid.
  const profile = bench.profileDir
    ? ['--cpu-prof', '--cpu-prof-dir', join(bench.profileDir, name.replace(/\W+/g, '-'))]
    : [];
  // What `npm start` runs in production: the compiled server (dist/, built at the start of the
  // run when a source changed), in a process of its own, so the pid measured is the server.
  const proc = startProcess(
    name,
    process.execPath,
    [...profile, 'dist/server/main.js'],
    { ...bench.apiEnv, ...database, PORT: String(port), ...env },
    { cwd: bench.root },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(proc, `${origin}/v1/healthz`);
  return {
    proc,
    origin,
    apiUrl: `${origin}/v1`,
    headers: { authorization: `Bearer ${credentials.test_key}`, 'x-api-user': credentials.api_user },
  };
}

/**
 * Bare Express (scripts/bench/bare-server.ts) and its three scenarios: the same request bytes as
 * our POST (only the ids differ), and the same paths as our two GETs, answered with fixed JSON.
 * `listen`: started with `app.listen`, the baseline issue 15's targets were set against;
 * `like-ours`: served as the API is (requests born with Express's prototypes,
 * server/http/http-server.ts), the ceiling of the stack the API runs on.
 */
export async function startBare(
  bench: Bench,
  served: 'listen' | 'like-ours',
): Promise<Record<Operation, ServerScenario>> {
  const port = await freePort();
  const bare = startProcess(
    served === 'listen' ? 'bare express' : 'bare express, served like ours',
    process.execPath,
    ['--import', 'tsx', 'scripts/bench/bare-server.ts'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      ...(served === 'like-ours' ? { BARE_SERVER: 'like-ours' } : {}),
    },
    { cwd: bench.root },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(bare, `${origin}/v1/healthz`);
  const headers = {
    authorization: 'Bearer sk_test_00000000000000000000000000000000',
    'x-api-user': 'bench',
  };
  const name = served === 'listen' ? 'bare Express' : 'bare Express served like ours';
  const connections = bench.plan.connections;
  const scenario = (op: Operation, request: LoadRequest) => ({
    label: `${name}: ${request.method} ${request.path.replace(/pay_\w+$/, '{id}')}, fixed JSON answer`,
    server: bare,
    options: { title: `${name} ${operations[op]}`, origin, connections, request },
  });
  return {
    // The same request bytes as our POST (only the ids differ).
    post: scenario('post', {
      method: 'POST',
      path: '/v1/payments',
      headers,
      body: paymentBody(placeholderService),
      uniqueIdempotencyKey: true,
    }),
    get: scenario('get', { method: 'GET', path: '/v1/payments/pay_26ckKthu9SR4AlZ0MBzSvYzU', headers }),
    list: scenario('list', { method: 'GET', path: '/v1/payments?limit=20', headers }),
  };
}
