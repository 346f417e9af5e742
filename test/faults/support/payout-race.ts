/**
 * Payouts racing over two servers (two processes on one SQLite file, or two instances on one
 * PostgreSQL database) against one balance that funds only some of them: sent all at once,
 * alternating between the servers, and the promises every such race keeps.
 */
import { expect, it } from 'vitest';
import { type CallResult, type ChildServer, type CliAccount, callApi } from '../../support/child-server.js';
import { random, seed } from './harness.js';
import { documented503, type LogicalRequest, logicalRequest, numbers } from './load.js';

export interface PayoutRace {
  payouts: LogicalRequest[];
  responses: CallResult[];
  /** The payouts answered `status`. */
  answered(status: number): LogicalRequest[];
  /** What the accepted payouts took from the balance. */
  paidOut(): number;
}

/** The server of the pair that the `i`th of a series of requests goes to: a, b, a, b, … */
export const alternate = <T>([a, b]: readonly [T, T], i: number): T => (i % 2 ? b : a);

/** POSTs `request` with its key to `server`; every HTTP answer resolves. */
export function send(
  server: ChildServer,
  account: Pick<CliAccount, 'apiUser' | 'testKey'>,
  request: Pick<LogicalRequest, 'path' | 'body' | 'key'>,
): Promise<CallResult> {
  return callApi(server.url, account, 'POST', request.path, {
    body: request.body,
    idempotencyKey: request.key,
  });
}

/**
 * `count` payouts to a success number at once, alternating over `servers`, of `minAmount` plus
 * 0 to 900 (keys `<prefix>-<seed>-po-<i>`).
 */
export async function racePayouts(
  servers: readonly [ChildServer, ChildServer],
  account: Pick<CliAccount, 'apiUser' | 'testKey'>,
  { prefix, count, minAmount }: { prefix: string; count: number; minAmount: number },
): Promise<PayoutRace> {
  const next = random();
  const payouts = Array.from({ length: count }, (_, i) =>
    logicalRequest(
      'payout',
      `${prefix}-${seed}-po-${i}`,
      minAmount + Math.floor(next() * 10) * 100,
      numbers.success,
      '',
    ),
  );
  const responses = await Promise.all(payouts.map((p, i) => send(alternate(servers, i), account, p)));
  const answered = (status: number) => payouts.filter((_, i) => responses[i]?.status === status);
  return {
    payouts,
    responses,
    answered,
    paidOut: () => answered(202).reduce((sum, p) => sum + p.amount, 0),
  };
}

/**
 * The tests every race passes: it asks for more than twice the balance (`funded()`), so some
 * payouts are refused (its premise), and each is answered 202, 403 `insufficient_balance`, or a
 * 503 in its documented form (at most `most503` of those).
 */
export function itAnswersTheRace(race: () => PayoutRace, funded: () => number, most503: number): void {
  it('ask for more than the balance holds, so some are refused (the premise)', () => {
    expect(race().payouts.reduce((sum, p) => sum + p.amount, 0)).toBeGreaterThan(2 * funded());
    expect(race().answered(403).length).toBeGreaterThan(0);
  });

  it(`answer each 202, 403 insufficient_balance, or (at most ${most503}) a documented 503`, () => {
    const { payouts, responses } = race();
    const wrong = responses
      .map((r, i) => ({ r, key: payouts[i]?.key }))
      .filter(
        ({ r }) =>
          r.status !== 202 &&
          !(r.status === 403 && r.body?.error?.code === 'insufficient_balance') &&
          !documented503(r),
      )
      .map(({ r, key }) => `${key}: ${r.status} ${r.text}`);
    expect(wrong).toEqual([]);
    expect(race().answered(503).length).toBeLessThanOrEqual(most503);
  });
}
