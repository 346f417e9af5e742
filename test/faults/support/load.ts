/**
 * The requests fault tests send: payments, payouts and top-ups, each with its own
 * Idempotency-Key, also used as its `reference` so that the SQLite file tells which logical
 * request created which row.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallResult } from '../../support/child-server.js';
import type { Kind } from './money.js';

/** Sandbox numbers: the last digit decides (1 fails, 4 never settles, others succeed). */
export const numbers = {
  success: '237670000000',
  success2: '237670000007',
  fails: '237670000001',
  neverSettles: '237670000004',
} as const;

export type Outcome = 'success' | 'failed' | 'pending';

export function expectedOutcome(msisdn: string): Outcome {
  if (msisdn.endsWith('1')) return 'failed';
  if (msisdn.endsWith('4')) return 'pending';
  return 'success';
}

export interface LogicalRequest {
  key: string;
  kind: Kind;
  path: '/payments' | '/payouts' | '/topups';
  amount: number;
  msisdn: string;
  body: Record<string, unknown>;
}

export function logicalRequest(
  kind: Kind,
  key: string,
  amount: number,
  msisdn: string,
  serviceId: string,
): LogicalRequest {
  if (kind === 'payment') {
    return {
      key,
      kind,
      path: '/payments',
      amount,
      msisdn,
      body: {
        amount,
        currency: 'XAF',
        customer_msisdn: msisdn,
        payment_method: 'mtn_momo',
        service_id: serviceId,
        reference: key,
      },
    };
  }
  if (kind === 'topup') {
    return {
      key,
      kind,
      path: '/topups',
      amount,
      msisdn,
      body: { amount, currency: 'XAF', payer_msisdn: msisdn, payment_method: 'mtn_momo', reference: key },
    };
  }
  return {
    key,
    kind,
    path: '/payouts',
    amount,
    msisdn,
    body: { amount, currency: 'XAF', recipient_msisdn: msisdn, payout_type: 'withdrawal', reference: key },
  };
}

/** A small deterministic generator, so a failing run can be replayed with its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true; throws with `describe()` when `timeoutMs` passes. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  describe: () => string,
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(intervalMs);
  }
  if (await check()) return;
  throw new Error(`Timed out after ${timeoutMs} ms: ${describe()}`);
}

/**
 * Reads `read()` until `done` holds for what it read or `timeoutMs` passes, and returns the last
 * value read either way: for a set-up that waits on a condition, whose absence the tests that
 * need it then report (a set-up that threw would fail them all with one message).
 *
 * @example
 * const settled = await pollUntil(() => readMoney(database), (s) => unsettled(s).length === 0, 30_000);
 */
export async function pollUntil<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await sleep(intervalMs);
  }
}

/** A temporary folder, removed by the returned function. */
export function tempFolder(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A network failure (the server died mid-request), as opposed to an HTTP answer. */
export function networkError(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  return `${e.name ?? 'Error'}: ${e.message ?? String(err)}${e.cause ? ` (${e.cause.code ?? e.cause.message})` : ''}`;
}

/**
 * Requests a server answered with a 5xx other than the documented 503, from its request log
 * (the error handler logs 503s as `request failed` too, so that message alone proves nothing).
 */
export function internalErrors(servers: Array<{ name: string; logLines(): Array<Record<string, unknown>> }>) {
  return servers.flatMap((s) =>
    s
      .logLines()
      .filter(
        (l) => l.msg === 'request' && typeof l.status === 'number' && l.status >= 500 && l.status !== 503,
      )
      .map((l) => ({ server: s.name, ...l })),
  );
}

/**
 * A 503 as the contract documents it: the error envelope with `service_unavailable` and the
 * request id, and a Retry-After; the call changed nothing and may be retried with its key.
 */
export function documented503(response: CallResult): boolean {
  return (
    response.status === 503 &&
    response.body?.status === 'error' &&
    response.body?.error?.code === 'service_unavailable' &&
    typeof response.body?.error?.request_id === 'string' &&
    response.headers.get('retry-after') !== null
  );
}

/**
 * `count` clients side by side, each `client(c, on)` sending while `on()`; `stop()` turns `on`
 * false and waits until every client has ended.
 */
export function runClients(
  count: number,
  client: (c: number, on: () => boolean) => Promise<void>,
): { stop(): Promise<void> } {
  let on = true;
  const running = Array.from({ length: count }, (_, c) => client(c, () => on));
  return {
    stop: async () => {
      on = false;
      await Promise.all(running);
    },
  };
}
