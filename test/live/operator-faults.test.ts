import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultFaults } from '../../scripts/simulators/sim-http.js';
import { sandbox } from '../support/fixtures.js';
import {
  expectLedgerSound,
  fundLive,
  type LiveHarness,
  live,
  liveBalance,
  liveMetricsToken,
  operatorRefOf,
  settleUntil,
  startLive,
  statusOf,
} from './support.js';

let h: LiveHarness;
let serviceId: string;

beforeAll(async () => {
  h = await startLive();
  // Money for the payouts, whatever order the tests run in.
  await fundLive(h.server);
  serviceId = (await live(h.server, 'POST', '/services', { name: 'Live shop' })).body.data.service_id;
  const topup = await live(h.server, 'POST', '/topups', {
    amount: 1_000_000,
    currency: 'XAF',
    payer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo',
  });
  await settleUntil(
    h.server,
    async () => (await statusOf(h.server, `/topups/${topup.body.data.transaction_id}`)) === 'success',
  );
});
afterEach(() => {
  Object.assign(h.mtnSim.faults, defaultFaults());
  Object.assign(h.orangeSim.faults, defaultFaults());
});
afterAll(() => h.close());

const pay = (msisdn: string, method = 'mtn_momo', amount = 1000) =>
  live(h.server, 'POST', '/payments', {
    amount,
    currency: 'XAF',
    customer_msisdn: msisdn,
    payment_method: method,
    service_id: serviceId,
  });
const payout = (msisdn: string, amount = 1000) =>
  live(h.server, 'POST', '/payouts', { amount, recipient_msisdn: msisdn, payout_type: 'withdrawal' });

/**
 * Waits for `condition`. The test server's workers run on demand only (never on timers), so a
 * long wait changes no premise here (a callback's wake is still the only thing that can settle
 * a movement between two `settle` calls); it only lets a machine busy with other suites catch up.
 */
async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const final = async (path: string) => {
  await settleUntil(h.server, async () => !['initiated', 'pending'].includes(await statusOf(h.server, path)));
  return (await live(h.server, 'GET', path)).body.data;
};

async function metricsText(): Promise<string> {
  const response = await fetch(h.server.url.replace(/\/v1$/, '/metrics'), {
    headers: { authorization: `Bearer ${liveMetricsToken}` },
  });
  return response.text();
}

describe('MTN MoMo faults: an unknown outcome is asked about, never sent as a new request', () => {
  it('an answer slower than our deadline: the payment is asked about by its reference and credited once', async () => {
    h.mtnSim.faults.slowMs = 1500;
    const before = await liveBalance(h.server);
    const created = await pay(sandbox.mtn.succeeds);
    expect(created.status).toBe(202);
    const id = created.body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payments', id);
    await waitFor(() => h.mtnSim.requests.has(ref));
    h.mtnSim.faults.slowMs = 0;
    expect(await final(`/payments/${id}`)).toMatchObject({ status: 'success' });
    await h.server.settle(10_000);
    expect(h.mtnSim.requests.get(ref)?.posts).toBe(1);
    expect(await liveBalance(h.server)).toBe(before + 1000);
    expect(await metricsText()).toMatch(
      /operator_request_errors_total\{operator="mtn_momo",call="requesttopay",kind="timeout"\} [1-9]/,
    );
    await expectLedgerSound(h.server);
  });

  it('a 500 that recorded nothing: MTN says 404, the same reference is sent again, once', async () => {
    h.mtnSim.faults.fail500 = 1;
    const before = await liveBalance(h.server);
    const id = (await payout(sandbox.mtn.succeeds, 2500)).body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payouts', id);
    expect(h.mtnSim.requests.has(ref)).toBe(false);
    await h.server.settle(1000);
    // Within the first send's possible lifetime a 404 does not yet mean "never received".
    expect(h.mtnSim.requests.has(ref)).toBe(false);
    await h.server.settle(10_000);
    expect(h.mtnSim.requests.get(ref)).toMatchObject({ referenceId: ref, posts: 1 });
    expect(await final(`/payouts/${id}`)).toMatchObject({ status: 'success' });
    expect(await liveBalance(h.server)).toBe(before - 2500);
    expect(await metricsText()).toMatch(
      /operator_request_errors_total\{operator="mtn_momo",call="transfer",kind="http_5xx"\} [1-9]/,
    );
    await expectLedgerSound(h.server);
  });

  it('a connection dropped after MTN recorded the request: status says it has it, nothing is re-sent', async () => {
    h.mtnSim.faults.dropAfterRecord = 1;
    const before = await liveBalance(h.server);
    const id = (await payout(sandbox.mtn.succeeds, 1700)).body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payouts', id);
    expect(await final(`/payouts/${id}`)).toMatchObject({ status: 'success' });
    await h.server.settle(10_000);
    expect(h.mtnSim.requests.get(ref)?.posts).toBe(1);
    expect(await liveBalance(h.server)).toBe(before - 1700);
    await expectLedgerSound(h.server);
  });

  it('status checks answering 500 keep the request pending until MTN answers', async () => {
    const id = (await pay(sandbox.mtn.succeeds)).body.data.transaction_id;
    h.mtnSim.faults.statusFail500 = 2;
    await h.server.settle(100);
    await h.server.settle(100);
    expect(await statusOf(h.server, `/payments/${id}`)).toBe('initiated');
    expect(await final(`/payments/${id}`)).toMatchObject({ status: 'success' });
  });

  it('tokens expiring mid-run: one 401, one new token, the request goes through once', async () => {
    const issued = h.mtnSim.tokensIssued.collection;
    const rejected = h.mtnSim.rejectedTokens;
    h.mtnSim.expireAllTokens();
    const id = (await pay(sandbox.mtn.succeeds)).body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payments', id);
    expect(h.mtnSim.requests.get(ref)?.posts).toBe(1);
    expect(h.mtnSim.tokensIssued.collection).toBe(issued + 1);
    expect(h.mtnSim.rejectedTokens).toBe(rejected + 1);
    expect(await final(`/payments/${id}`)).toMatchObject({ status: 'success' });
  });
});

describe('MTN MoMo token service down', () => {
  it('a payment whose token request fails is not failed: it is sent, once, when MTN is back', async () => {
    h.mtnSim.expireAllTokens();
    h.mtnSim.faults.tokenFail500 = 1;
    const before = await liveBalance(h.server);
    const created = await pay(sandbox.mtn.succeeds, 'mtn_momo', 1900);
    expect(created.status).toBe(202);
    const id = created.body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payments', id);
    expect(h.mtnSim.requests.has(ref)).toBe(false);
    await h.server.settle(1000);
    expect(await statusOf(h.server, `/payments/${id}`)).toBe('initiated');
    expect(await final(`/payments/${id}`)).toMatchObject({ status: 'success' });
    expect(h.mtnSim.requests.get(ref)?.posts).toBe(1);
    expect(await liveBalance(h.server)).toBe(before + 1900);
  });

  it('credentials MTN refuses fail the payment at once with operator_error: nothing was sent', async () => {
    const other = await startLive({ env: { MTN_MOMO_COLLECTION_API_KEY: 'not-the-key' } });
    try {
      const service = (await live(other.server, 'POST', '/services', { name: 'Shop' })).body.data.service_id;
      const created = await live(other.server, 'POST', '/payments', {
        amount: 100,
        currency: 'XAF',
        customer_msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
        service_id: service,
      });
      expect(created.status).toBe(202);
      expect(
        (await live(other.server, 'GET', `/payments/${created.body.data.transaction_id}`)).body.data,
      ).toMatchObject({
        status: 'failed',
        failure_code: 'operator_error',
      });
      expect(other.mtnSim.requests.size).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('operator callbacks are hints to ask now, never trusted', () => {
  it('Orange notifying settles a payment at once; a forged notification for a pending one changes nothing', async () => {
    const id = (await pay(sandbox.orange.succeeds, 'orange_money', 700)).body.data.transaction_id;
    await waitFor(async () => (await statusOf(h.server, `/payments/${id}`)) === 'success');
    const stuck = (await pay(sandbox.orange.neverSettles, 'orange_money', 700)).body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payments', stuck);
    const base = h.server.url.replace(/\/v1$/, '');
    expect(
      await h.orangeSim.sendCallback(`${base}/operator-callbacks/orange-money/${stuck}/${ref}`, {
        status: 'SUCCESSFULL',
      }),
    ).toBe(204);
    await h.server.settle(0);
    expect(await statusOf(h.server, `/payments/${stuck}`)).toBe('initiated');
  });

  it('MTN calling back settles a payment at once, with no polling pass of ours', async () => {
    const id = (await pay(sandbox.mtn.succeeds)).body.data.transaction_id;
    await waitFor(async () => (await statusOf(h.server, `/payments/${id}`)) === 'success');
  });

  it('duplicated callbacks settle once', async () => {
    h.mtnSim.faults.callbacks = 'duplicated';
    const before = await liveBalance(h.server);
    const id = (await pay(sandbox.mtn.succeeds, 'mtn_momo', 1300)).body.data.transaction_id;
    await waitFor(async () => (await statusOf(h.server, `/payments/${id}`)) === 'success');
    const events = await h.server.raw('GET', '/events', {
      as: h.server.live,
      query: { transaction_id: id },
    });
    expect(events.body.data.items.map((e: { event: string }) => e.event)).toEqual(['payment.completed']);
    expect(await liveBalance(h.server)).toBe(before + 1300);
    await expectLedgerSound(h.server);
  });

  it('a lost callback leaves the payment to our status polling', async () => {
    h.mtnSim.faults.callbacks = 'lost';
    const id = (await pay(sandbox.mtn.succeeds)).body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payments', id);
    await waitFor(() => h.mtnSim.requests.has(ref));
    expect(await statusOf(h.server, `/payments/${id}`)).toBe('initiated');
    expect(await final(`/payments/${id}`)).toMatchObject({ status: 'success' });
  });

  it('a forged callback claiming success changes nothing: MTN is asked, and says pending', async () => {
    const before = await liveBalance(h.server);
    const id = (await pay(sandbox.mtn.neverSettles)).body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payments', id);
    const checks = h.mtnSim.statusChecks.get(ref) ?? 0;
    const base = h.server.url.replace(/\/v1$/, '');
    const forged = await h.mtnSim.sendCallback(`${base}/operator-callbacks/mtn-momo/${id}/${ref}`, {
      externalId: ref,
      amount: '1000000',
      currency: 'XAF',
      status: 'SUCCESSFUL',
      financialTransactionId: '1',
    });
    expect(forged).toBe(204);
    await waitFor(() => (h.mtnSim.statusChecks.get(ref) ?? 0) > checks);
    await h.server.settle(0);
    expect(await statusOf(h.server, `/payments/${id}`)).toBe('initiated');
    expect(await liveBalance(h.server)).toBe(before);
    const unknown = await h.mtnSim.sendCallback(`${base}/operator-callbacks/mtn-momo/not-a-reference`, {
      status: 'SUCCESSFUL',
    });
    expect(unknown).toBe(204);
  });

  it('a callback is a hint only when it names the movement and its reference, in the current form', async () => {
    const id = (await pay(sandbox.mtn.neverSettles)).body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payments', id);
    await waitFor(() => h.mtnSim.requests.has(ref));
    await h.server.settle(0);
    const checks = h.mtnSim.statusChecks.get(ref) ?? 0;
    const base = `${h.server.url.replace(/\/v1$/, '')}/operator-callbacks/mtn-momo`;
    const other = (await pay(sandbox.mtn.neverSettles)).body.data.transaction_id;
    const misnamed = [
      `${base}/${ref}`, // the form without the id, which versions before 010 gave operators
      `${base}/${other}/${ref}`, // another movement's id
      `${base}/${id}/${crypto.randomUUID()}`, // another reference
      `${base}/${id.replace('pay_', 'po_')}/${ref}`, // the id of another kind of movement
      `${base}/${id.replace('pay_', 'evt_')}/${ref}`, // an id of a kind operators are never told
      `${base}/${id.replace('pay_', 'constructor_')}/${ref}`, // a prefix an object's prototype has
    ];
    for (const url of misnamed) expect(await h.mtnSim.sendCallback(url, { status: 'SUCCESSFUL' })).toBe(204);
    // Nothing was made due: a pass at the same moment asks MTN nothing about it.
    await h.server.settle(0);
    expect(h.mtnSim.statusChecks.get(ref) ?? 0).toBe(checks);
    // Once its next look is due, the right callback has it asked at once: no pass of ours runs
    // here but the one the callback asks for (docs/decisions/0033-operator-callbacks-bounded.md).
    h.server.clock.advance(1000);
    expect(await h.mtnSim.sendCallback(`${base}/${id}/${ref}`, { status: 'SUCCESSFUL' })).toBe(204);
    await waitFor(() => (h.mtnSim.statusChecks.get(ref) ?? 0) > checks);
    expect(await statusOf(h.server, `/payments/${id}`)).toBe('initiated');
  });
});

describe('Orange Money faults', () => {
  it('a pay whose connection drops after Orange recorded it: asked by payToken, never paid twice', async () => {
    h.orangeSim.faults.dropAfterRecord = 1;
    const before = await liveBalance(h.server);
    const id = (await payout(sandbox.orange.succeeds, 1100)).body.data.transaction_id;
    const { ref } = await operatorRefOf(h.server, 'payouts', id);
    expect(await final(`/payouts/${id}`)).toMatchObject({ status: 'success' });
    await h.server.settle(10_000);
    expect(h.orangeSim.paidByOrder().get(ref)?.pays).toBe(1);
    expect(await liveBalance(h.server)).toBe(before - 1100);
    await expectLedgerSound(h.server);
  });

  it('a 500 on init: a new payToken is asked for once the first send is surely over, and paid once', async () => {
    h.orangeSim.faults.fail500 = 0;
    const id = (await pay(sandbox.orange.succeeds, 'orange_money', 900)).body.data.transaction_id;
    expect(await final(`/payments/${id}`)).toMatchObject({ status: 'success' });
    h.orangeSim.faults.fail500 = 1;
    const tokensBefore = h.orangeSim.tokens.size;
    // The 500 hits `init`: no payToken was given, so nothing can have been paid.
    const second = (await pay(sandbox.orange.succeeds, 'orange_money', 900)).body.data.transaction_id;
    const { ref, token } = await operatorRefOf(h.server, 'payments', second);
    expect(token).toBeNull();
    await h.server.settle(10_000);
    expect(await final(`/payments/${second}`)).toMatchObject({ status: 'success' });
    expect(h.orangeSim.paidByOrder().get(ref)?.pays).toBe(1);
    expect(h.orangeSim.tokens.size).toBe(tokensBefore + 1);
  });

  it('a 500 on pay after the payToken was committed: Orange says INITIATED, the same payToken is paid, once', async () => {
    h.orangeSim.failNextPays(1);
    const before = await liveBalance(h.server);
    const id = (await payout(sandbox.orange.succeeds, 1200)).body.data.transaction_id;
    const { ref, token } = await operatorRefOf(h.server, 'payouts', id);
    expect(token).not.toBeNull();
    expect(h.orangeSim.tokens.get(token as string)?.paidAt).toBeNull();
    await h.server.settle(10_000);
    expect(await final(`/payouts/${id}`)).toMatchObject({ status: 'success' });
    const paid = h.orangeSim.paidByOrder().get(ref);
    expect(paid).toMatchObject({ payToken: token, pays: 1 });
    expect(await liveBalance(h.server)).toBe(before - 1200);
    await expectLedgerSound(h.server);
  });

  it('Orange tokens expiring mid-run: one new token, one pay', async () => {
    const issued = h.orangeSim.tokensIssued;
    h.orangeSim.expireAllTokens();
    const id = (await payout(sandbox.orange.succeeds, 400)).body.data.transaction_id;
    expect(h.orangeSim.tokensIssued).toBe(issued + 1);
    expect(await final(`/payouts/${id}`)).toMatchObject({ status: 'success' });
  });
});

describe('operator calls in /metrics', () => {
  it('has the latency of each operator call and errors by operator, call and kind', async () => {
    // Calls of its own, whatever ran before: an MTN payment across a token-service outage, and
    // an Orange payout whose first pay answers 500.
    h.mtnSim.expireAllTokens();
    h.mtnSim.faults.tokenFail500 = 1;
    const paid = (await pay(sandbox.mtn.succeeds, 'mtn_momo', 800)).body.data.transaction_id;
    expect(await final(`/payments/${paid}`)).toMatchObject({ status: 'success' });
    h.orangeSim.failNextPays(1);
    const sent = (await payout(sandbox.orange.succeeds, 800)).body.data.transaction_id;
    await h.server.settle(10_000);
    expect(await final(`/payouts/${sent}`)).toMatchObject({ status: 'success' });
    const text = await metricsText();
    expect(text).toMatch(
      /operator_request_duration_seconds_count\{operator="mtn_momo",call="requesttopay"\} [1-9]/,
    );
    expect(text).toMatch(
      /operator_request_duration_seconds_count\{operator="mtn_momo",call="collection_token"\} [1-9]/,
    );
    expect(text).toMatch(
      /operator_request_duration_seconds_count\{operator="orange_money",call="cashin_pay"\} [1-9]/,
    );
    expect(text).toMatch(
      /operator_request_errors_total\{operator="mtn_momo",call="collection_token",kind="http_5xx"\} [1-9]/,
    );
    expect(text).toMatch(
      /operator_request_errors_total\{operator="orange_money",call="cashin_pay",kind="http_5xx"\} [1-9]/,
    );
  });
});
