/**
 * The sandbox's phone numbers, named for what each one does, and the objects most tests need,
 * created through the API (the SDK) as an integrator would.
 */
import type { Currency } from '../../client/src/index.js';
import { type Credentials, ok } from './api.js';
import type { TestServer } from './server.js';

/**
 * Phone numbers whose network is chosen by their prefix (server/operators/number-prefixes.ts:
 * 67x and 650-654 MTN, 69x and 655-659 Orange) and whose outcome by their last digit, the same
 * in the sandbox operator (server/operators/sandbox-operator.ts) and in the MTN and Orange
 * simulators of live mode (scripts/simulators/): 1 fails, 4 never settles (the movement expires
 * or times out), any other digit succeeds; the simulators alone also answer 5 as expired.
 */
function numbersOf(prefix: string): SandboxNumbers {
  return {
    succeeds: `${prefix}0`,
    alsoSucceeds: `${prefix}2`,
    fails: `${prefix}1`,
    neverSettles: `${prefix}4`,
    expiresAtOperator: `${prefix}5`,
  };
}

interface SandboxNumbers {
  succeeds: string;
  /** Also succeeds: a second customer or recipient, for tests that tell two apart. */
  alsoSucceeds: string;
  fails: string;
  neverSettles: string;
  /** The simulators' operator answers expired (the sandbox operator: succeeds). */
  expiresAtOperator: string;
}

export const sandbox = {
  /** MTN Cameroon's 67x range. */
  mtn: numbersOf('23767000000'),
  /** Orange Cameroun's 69x range. */
  orange: numbersOf('23769000000'),
  /** Numbers of the other ranges, routed by prefix like the main ones. */
  mtn650: '237650000000',
  orange655: '237655000000',
  /** Nexttel (66): a Cameroonian network no Mobile Money adapter serves. */
  nexttel: '237660000000',
  /** Nexttel, ending in 1: the sandbox fails it whatever its network. */
  nexttelFails: '237660000001',
} as const;

/**
 * The sandbox bank's accounts (server/operators/bank/sandbox-bank.ts), as CEMAC IBANs whose RIB
 * key and check digits are right: the account number's last digit decides the statement, 1
 * closed (AC04), 2 held by someone else (BE01), any other booked.
 */
export const sandboxBank = {
  succeeds: 'CM2110005000010123456789091',
  /** The same account as a RIB, to give with `country: 'CM'`. */
  succeedsRib: '10005000010123456789091',
  closed: 'CM2110005000010123456789188',
  nameMismatch: 'CM2110005000010123456789285',
} as const;

export async function createService(server: TestServer, as: Credentials = server.test, name = 'Shop') {
  return ok(await server.apiAs(as).POST('/services', { body: { name } })).data.service_id;
}

/** Tops up the Main Balance and settles it, so payouts can be tested. */
export async function fund(
  server: TestServer,
  amount: number,
  as: Credentials = server.test,
  currency: Currency = 'XAF',
) {
  const topup = ok(
    await server.apiAs(as).POST('/topups', {
      body: { amount, currency, payer_msisdn: sandbox.mtn.succeeds, payment_method: 'mtn_momo' },
    }),
  ).data;
  await server.settle();
  return topup.transaction_id;
}

/** A withdrawal of `amount` XAF to an MTN number that succeeds; returns the payout's id. */
export async function payOut(server: TestServer, amount = 1000, as: Credentials = server.test) {
  const body = {
    amount,
    currency: 'XAF',
    recipient_msisdn: sandbox.mtn.succeeds,
    payout_type: 'withdrawal',
  } as const;
  return ok(await server.apiAs(as).POST('/payouts', { body })).data.transaction_id;
}

/** A bank withdrawal of 1,000 XAF to an account that books it, batched; returns the batch's id. */
export async function batchOneBankPayout(server: TestServer, as: Credentials = server.test) {
  const recipient_bank_account = { iban: sandboxBank.succeeds, holder_name: 'Awa Njoya' };
  const body = { amount: 1000, currency: 'XAF', recipient_bank_account, payout_type: 'withdrawal' } as const;
  ok(await server.apiAs(as).POST('/payouts', { body }));
  return ok(await server.apiAs(as).POST('/bank-batches', {})).data.batch_id;
}

export async function balanceOf(server: TestServer, as: Credentials = server.test, currency = 'XAF') {
  const { balances } = ok(await server.apiAs(as).GET('/balance')).data;
  return balances.find((b) => b.currency === currency)?.available ?? 0;
}

/** The Mobile Money network a sandbox number is on, by its prefix (69x and 655-659 Orange). */
function networkOf(msisdn: string): 'mtn_momo' | 'orange_money' {
  return /^237(69|65[5-9])/.test(msisdn) ? 'orange_money' : 'mtn_momo';
}

/** Starts a payment of `amount` XAF from `msisdn`, paid on its network; returns its id. */
export async function collect(
  server: TestServer,
  serviceId: string,
  amount: number,
  msisdn: string = sandbox.mtn.succeeds,
  as: Credentials = server.test,
) {
  const payment = ok(
    await server.apiAs(as).POST('/payments', {
      body: {
        amount,
        currency: 'XAF',
        customer_msisdn: msisdn,
        payment_method: networkOf(msisdn),
        service_id: serviceId,
      },
    }),
  ).data;
  return payment.transaction_id;
}
