/**
 * The `operators` section: a backlog of pending live payments settled through the MTN MoMo
 * simulator, which enforces MTN's published limit (10 calls a second per product, 429 past
 * it), by a server at its default pace (MTN_MOMO_REQUESTS_PER_SECOND=8). Measures the busiest
 * second the simulator saw and how many calls it refused (docs/decisions/0035).
 */
import { join } from 'node:path';
import { mtnEnv, startMtnMomoSimulator } from '../../simulators/mtn-momo-simulator.js';
import { type Credentials, call } from '../api.js';
import type { Bench } from '../context.js';
import { progress } from '../report.js';
import { createAccount } from '../seed.js';
import { startApi } from '../servers.js';

export interface OperatorPollingResult {
  payments: number;
  limitPerSecond: number;
  busiestSecond: number;
  rateLimited: number;
  settleSeconds: number;
  /** Status checks the simulator answered, in all. */
  statusChecks: number;
}

export async function operatorPollingSection(bench: Bench): Promise<OperatorPollingResult> {
  const payments = bench.plan.operatorPending;
  const limitPerSecond = 10;
  progress(
    `\nOperators: ${payments} pending live payments settled through MTN's limit of ${limitPerSecond}/s`,
  );
  // Each payment succeeds as soon as MTN has it: about two calls a payment (its request and
  // one status check). What is judged is the busiest second and the 429s.
  const sim = await startMtnMomoSimulator({ settleMs: 0, rateLimitPerSecond: limitPerSecond });
  try {
    const database = { DATABASE_PATH: join(bench.work, 'operator-polling.db') };
    const account = (await createAccount(bench, database)) as Credentials & { live_key: string };
    const api = await startApi(
      bench,
      'api, operator polling',
      database,
      { api_user: account.api_user, test_key: account.live_key },
      {
        ...mtnEnv(sim),
        OPERATOR_TIMEOUT_MS: '15000',
        // Production requires https operator URLs; the simulator is plain http on 127.0.0.1.
        NODE_ENV: 'development',
        // The default poll (the other sections keep the worker a minute away).
        SETTLEMENT_POLL_MS: '250',
      },
    );
    try {
      const service = await call<{ service_id: string }>(api, 'POST', '/services', { name: 'Bench shop' });
      const started = Date.now();
      // Sent as a shop would, a few at a time: each POST waits its turn at MTN too.
      for (let i = 0; i < payments; i += 16) {
        await Promise.all(
          Array.from({ length: Math.min(16, payments - i) }, () =>
            call(api, 'POST', '/payments', {
              amount: 2500,
              currency: 'XAF',
              customer_msisdn: '237670000000',
              payment_method: 'mtn_momo',
              service_id: service.service_id,
            }),
          ),
        );
      }
      for (;;) {
        const page = await call<{ items: unknown[] }>(api, 'GET', '/payments?status=initiated&limit=1');
        if (page.items.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const result = {
        payments,
        limitPerSecond,
        busiestSecond: sim.busiestSecond('collection'),
        rateLimited: sim.rateLimited,
        settleSeconds: (Date.now() - started) / 1000,
        statusChecks: [...sim.statusChecks.values()].reduce((sum, n) => sum + n, 0),
      };
      progress(
        `  settled in ${result.settleSeconds.toFixed(1)} s; busiest second ${result.busiestSecond} calls (limit ${limitPerSecond}); ${result.rateLimited} answered 429; ${result.statusChecks} status checks`,
      );
      return result;
    } finally {
      await api.proc.stop();
    }
  } finally {
    await sim.close();
  }
}
