/**
 * Two instances on one database (two services on one SQLite file, or on one PostgreSQL database
 * with TEST_DATABASE=postgres) pass over the same pending movements: each pass's status question
 * is asked by one of them, never both, and the movement settles once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningService } from '../../server/service.js';
import { sandbox } from '../support/fixtures.js';
import { startServiceOn } from '../support/server.js';
import {
  expectLedgerSound,
  fundLive,
  type LiveHarness,
  live,
  liveBalance,
  mtnEnv,
  operatorRefOf,
  startLive,
  statusOf,
} from './support.js';

let h: LiveHarness;
let other: RunningService;

beforeAll(async () => {
  h = await startLive();
  await fundLive(h.server);
  other = await startServiceOn(h.server, { OPERATOR_TIMEOUT_MS: '1000', ...mtnEnv(h.mtnSim) });
});
afterAll(async () => {
  await other.close();
  await h.close();
});

it('two instances settling side by side ask MTN about a pending payout once per pass, and settle it once', async () => {
  const before = await liveBalance(h.server);
  const created = await live(h.server, 'POST', '/payouts', {
    amount: 1200,
    recipient_msisdn: sandbox.mtn.neverSettles,
    payout_type: 'withdrawal',
  });
  expect(created.status).toBe(202);
  const id = created.body.data.transaction_id;
  const { ref } = await operatorRefOf(h.server, 'payouts', id);

  const passes = 4;
  for (let pass = 1; pass <= passes; pass++) {
    h.server.clock.advance(2_000);
    await Promise.all([h.server.service.settlement.runOnce(), other.settlement.runOnce()]);
    expect(h.mtnSim.statusChecks.get(ref) ?? 0).toBe(pass);
  }
  expect(await statusOf(h.server, `/payouts/${id}`)).toBe('pending');

  // MTN says it went through: whichever instance asks first settles it, the other finds it final.
  h.mtnSim.setOutcome(sandbox.mtn.neverSettles, { status: 'SUCCESSFUL' });
  h.server.clock.advance(2_000);
  const settled = await Promise.all([h.server.service.settlement.runOnce(), other.settlement.runOnce()]);
  expect(settled[0] + settled[1]).toBe(1);
  expect(await statusOf(h.server, `/payouts/${id}`)).toBe('success');
  expect(await liveBalance(h.server)).toBe(before - 1200);
  await expectLedgerSound(h.server);
});
