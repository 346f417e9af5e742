/**
 * A settlement backlog drains at the pace of the store and the operators: a pass that finds a
 * full batch due is followed by the next one at once, not after SETTLEMENT_POLL_MS (250 ms by
 * default, so a batch of 100 per poll would cap settlement at 400 items/s).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settleDue } from '../../server/domain/settlement.js';
import { createLogger } from '../../server/observability/logger.js';
import { type PassResult, startPollingWorker } from '../../server/workers/polling-worker.js';
import { balanceOf, successNumber } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';

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

describe('a settlement pass', () => {
  it('says more is due when it took a full batch, and settles each item once over the passes', async () => {
    const server = await startTestServer();
    try {
      for (let i = 0; i < 5; i++) {
        const response = await server.request('POST', '/topups', {
          body: {
            amount: 1000,
            currency: 'XAF',
            payer_msisdn: successNumber,
            payment_method: 'orange_money',
          },
        });
        expect(response.status).toBe(202);
      }
      server.clock.advance(1000);
      const deps = server.service.deps;
      expect(await settleDue(deps, 2)).toEqual({ settled: 2, more: true });
      expect(await settleDue(deps, 2)).toEqual({ settled: 2, more: true });
      expect(await settleDue(deps, 2)).toEqual({ settled: 1, more: false });
      expect(await settleDue(deps, 2)).toEqual({ settled: 0, more: false });
      expect(await balanceOf(server)).toBe(5000);
    } finally {
      await server.close();
    }
  });
});
