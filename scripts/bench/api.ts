/**
 * Our server as the benchmark drives it: the running instance (`Api`), calls to set it up, and
 * the request mix of the `api` section (POST /payments, GET /payments/{id},
 * GET /payments?limit=20), shared by every section that measures it (sections/api.ts, sections/postgres.ts).
 */
import type { LoadOptions, LoadRequest } from './load.js';
import type { ServerProcess } from './processes.js';

export interface Credentials {
  api_user: string;
  test_key: string;
}

export interface Api {
  proc: ServerProcess;
  origin: string;
  apiUrl: string;
  headers: Record<string, string>;
}

/** Where a server keeps its data: `{ DATABASE_PATH }` (SQLite) or `{ DATABASE_URL }` (PostgreSQL). */
export type Database = { DATABASE_PATH: string } | { DATABASE_URL: string };

/** One scenario of an interleaved measurement (see `Recorder.interleave` in recorder.ts). */
export interface Scenario {
  key: string;
  section: string;
  label: string;
  server: ServerProcess;
  options: Omit<LoadOptions, 'durationS' | 'warmupS'>;
  /**
   * Other processes of the same server that serve the scenario's rounds in turn with `server`
   * (round r: the (r mod n)-th of `server` and these): one process's pace is partly its own
   * luck (docs/benchmarks.md, "The pages a POST writes...").
   */
  alsoServedBy?: Array<{ server: ServerProcess; origin: string }>;
}

export const operations = {
  post: 'POST /payments',
  get: 'GET /payments/{id}',
  list: 'GET /payments?limit=20',
} as const;
export type Operation = keyof typeof operations;

/** A list cursor at `seq` (base64url, as server/storage/pagination.ts encodes it): the page below it. */
export const cursorAt = (seq: number) => Buffer.from(String(seq)).toString('base64url');

export async function call<T>(api: Api, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${api.apiUrl}${path}`, {
    method,
    headers: { ...api.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json.data;
}

/** A successful sandbox payment: a number not ending in 1 or 4. */
export function paymentBody(serviceId: string): string {
  return JSON.stringify({
    amount: 2500,
    currency: 'XAF',
    customer_msisdn: '237670000000',
    payment_method: 'mtn_momo',
    service_id: serviceId,
    reference: 'bench',
  });
}

/**
 * The `api` section's three requests against one account: creates a service and one payment
 * (the one GET /payments/{id} reads), through `api`. Another instance on the same database can
 * be sent the same requests.
 */
export async function requestMix(api: Api): Promise<Record<Operation, LoadRequest>> {
  const service = await call<{ service_id: string }>(api, 'POST', '/services', {
    name: 'Bench shop',
    type: 'website',
  });
  const body = paymentBody(service.service_id);
  const payment = await call<{ transaction_id: string }>(api, 'POST', '/payments', JSON.parse(body));
  return {
    post: { method: 'POST', path: '/v1/payments', headers: api.headers, body, uniqueIdempotencyKey: true },
    get: { method: 'GET', path: `/v1/payments/${payment.transaction_id}`, headers: api.headers },
    list: { method: 'GET', path: '/v1/payments?limit=20', headers: api.headers },
  };
}

/** Resolves once no payment of the account is still `initiated` (all settled), polling every 50 ms. */
export async function waitUntilSettled(api: Api, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await call<{ items: unknown[] }>(api, 'GET', '/payments?status=initiated&limit=1');
    if (page.items.length === 0) return;
    if (Date.now() > deadline) throw new Error(`payments still initiated after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
