/**
 * A settlement backlog drains at the pace of the store and the operators: a pass that finds a
 * full batch due is followed by the next one at once, not after SETTLEMENT_POLL_MS (250 ms by
 * default, so a batch of 100 per poll would cap settlement at 400 items/s).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settleBacklog } from '../../server/domain/settlement.js';
import { createLogger } from '../../server/observability/logger.js';
import type { Unit } from '../../server/storage/unit.js';
import { type PassResult, startPollingWorker } from '../../server/workers/polling-worker.js';
import { balanceOf, sandbox } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the polling loop', () => {
  /** A worker whose passes answer `results` in turn, polling every minute; counts its passes. */
  function worker(results: (PassResult | Error)[]) {
    let passes = 0;
    const started = startPollingWorker({
      name: 'test',
      pollMs: 60_000,
      pass: async () => {
        const result = results[passes++] ?? { count: 0, more: false };
        if (result instanceof Error) throw result;
        return result;
      },
      logger: createLogger({ level: 'silent' }),
      autostart: true,
    });
    return { passes: () => passes, stop: () => started.stop() };
  }

  /** Moves the fake clock on by each step's milliseconds, then expects that many passes so far. */
  async function expectPasses(w: ReturnType<typeof worker>, steps: [ms: number, passes: number][]) {
    for (const [ms, passes] of steps) {
      await vi.advanceTimersByTimeAsync(ms);
      expect(w.passes(), `after ${ms} ms more`).toBe(passes);
    }
  }

  it('runs the next pass at once while a pass says more is due, then waits for the next poll', async () => {
    vi.useFakeTimers();
    const w = worker([
      { count: 100, more: true },
      { count: 100, more: true },
      { count: 7, more: false },
    ]);
    // "At once" is the next turn of the event loop (a timer of 0, which Node makes 1 ms).
    await expectPasses(w, [
      [60_000, 1],
      [10, 3],
      [59_980, 3],
      [20, 4],
    ]);
    await w.stop();
  });

  it('tells a pass in progress that the worker is stopping, and waits for it', async () => {
    let open: () => void = () => {};
    const seen: boolean[] = [];
    const w = startPollingWorker({
      name: 'test',
      pollMs: 60_000,
      pass: async (worker) => {
        seen.push(worker.stopping());
        await new Promise<void>((resolve) => {
          open = resolve;
        });
        seen.push(worker.stopping());
        return { count: 1, more: true };
      },
      logger: createLogger({ level: 'silent' }),
      autostart: false,
    });
    const pass = w.runOnce();
    let stopped = false;
    const stop = w.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    open();
    await Promise.all([pass, stop]);
    expect(seen).toEqual([false, true]);
  });

  it('waits for the next poll after a failed pass, instead of trying again at once', async () => {
    vi.useFakeTimers();
    const w = worker([{ count: 100, more: true }, new Error('the store is away')]);
    await expectPasses(w, [
      [60_010, 2],
      [59_980, 2],
      [20, 3],
    ]);
    await w.stop();
  });
});

/** Five top-ups of 1,000 XAF from `msisdn`, accepted and pending. */
async function fiveTopups(server: TestServer, msisdn: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const response = await server.raw('POST', '/topups', {
      body: { amount: 1000, currency: 'XAF', payer_msisdn: msisdn, payment_method: 'mtn_momo' },
    });
    expect(response.status).toBe(202);
    ids.push(response.body.data.transaction_id);
  }
  return ids;
}

describe('a settlement pass', () => {
  it('says more is due when it took a full batch, and settles each item once over the passes', async () => {
    const server = await startTestServer();
    try {
      await fiveTopups(server, sandbox.mtn.succeeds);
      server.clock.advance(1000);
      const deps = server.service.deps;
      expect(await settleBacklog(deps, { batchSize: 2, passes: 1 })).toEqual({ settled: 2, more: true });
      expect(await settleBacklog(deps, { batchSize: 2, passes: 1 })).toEqual({ settled: 2, more: true });
      expect(await settleBacklog(deps, { batchSize: 2, passes: 1 })).toEqual({ settled: 1, more: false });
      expect(await settleBacklog(deps, { batchSize: 2, passes: 1 })).toEqual({ settled: 0, more: false });
      expect(await balanceOf(server)).toBe(5000);
    } finally {
      await server.close();
    }
  });
});

describe('a backlog', () => {
  /**
   * A server whose sandbox operator counts its status checks by operator reference (it still
   * answers each as before), with five top-ups that never settle, past their expiry: each pass
   * reads its rows as due and as expired.
   */
  async function expiredBacklog() {
    const server = await startTestServer();
    const { operators } = server.service.deps;
    const sandboxOperator = operators.test;
    const checks = new Map<string, number>();
    operators.test = {
      ...sandboxOperator,
      status: (kind, request) => {
        checks.set(request.operatorRef, (checks.get(request.operatorRef) ?? 0) + 1);
        return sandboxOperator.status(kind, request);
      },
    };
    const ids = await fiveTopups(server, sandbox.mtn.neverSettles);
    server.clock.advance(400_000);
    return {
      server,
      ids,
      checks,
      async close() {
        operators.test = sandboxOperator;
        await server.close();
      },
    };
  }

  it('drains in passes back to back, each row asked about once, and stops between passes when told', async () => {
    const backlog = await expiredBacklog();
    try {
      const { server, ids, checks } = backlog;
      const deps = server.service.deps;
      expect(await settleBacklog(deps, { batchSize: 2, keepGoing: () => false })).toEqual({
        settled: 2,
        more: true,
      });
      expect(await settleBacklog(deps, { batchSize: 1, passes: 1 })).toEqual({ settled: 1, more: true });
      // The last two rows in one call: two full passes back to back, then one that finds none.
      expect(await settleBacklog(deps, { batchSize: 1 })).toEqual({ settled: 2, more: false });
      expect([...checks.values()]).toEqual([1, 1, 1, 1, 1]);
      for (const id of ids) {
        expect((await server.raw('GET', `/topups/${id}`)).body.data.status).toBe('expired');
      }
      expect(await balanceOf(server)).toBe(0);
    } finally {
      await backlog.close();
    }
  });

  it('leaves out the rows whose outcomes are still on their way, where a claim can overtake them', async () => {
    // Where units run side by side (PostgreSQL), the next pass's claim may commit before the
    // outcomes queued ahead of it: the rows they expire still read as pending and expired, and
    // their claim would succeed again. Here each pass's outcomes are held until the next claim
    // has committed, which SQLite's queue order would otherwise never let happen.
    const backlog = await expiredBacklog();
    try {
      const { server, checks } = backlog;
      const store = server.service.deps.store;
      const held: Array<() => void> = [];
      const release = () => {
        for (const resolve of held.splice(0)) resolve();
      };
      // A pass's outcomes go once the next claim has committed; the last pass has no claim
      // after it (nothing left to claim), so its outcomes go after a while anyway: 2 s, longer
      // than the next pass's read and claim take on a saturated machine (with 300 ms, a CI run
      // on PostgreSQL let two outcomes go before the claim that should have overtaken them).
      let lastRelease: NodeJS.Timeout | undefined;
      /** Outcomes a later pass's claim overtook: the next pass started before they committed. */
      let overtaken = 0;
      const run = async <A, R>(unit: Unit<A, R>, args: A): Promise<R> => {
        if (unit.name === 'settlement.apply') {
          clearTimeout(lastRelease);
          lastRelease = setTimeout(release, 2_000);
          await new Promise<void>((resolve) => held.push(resolve));
        }
        const result = await store.run(unit, args);
        if (unit.name === 'settlement.claim') {
          overtaken += held.length;
          release();
        }
        return result;
      };
      // The store itself for everything else (its methods bound to it: it has private fields).
      const slowOutcomes = new Proxy(store, {
        get(target, property) {
          if (property === 'run') return run;
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      try {
        const deps = { ...server.service.deps, store: slowOutcomes };
        expect(await settleBacklog(deps, { batchSize: 2 })).toEqual({ settled: 5, more: false });
      } finally {
        clearTimeout(lastRelease);
      }
      // Passes 2 and 3 each claimed before the 2 outcomes of the pass behind them committed.
      expect(overtaken).toBe(4);
      expect([...checks.values()]).toEqual([1, 1, 1, 1, 1]);
    } finally {
      await backlog.close();
    }
  });
});
