import { faultPoint } from '../operators/fault-points.js';
import { networkOf } from '../operators/number-prefixes.js';
import type { OperatorKind, OperatorRequest, PaymentMethod, SendOutcome } from '../operators/operator.js';
import type { Mode } from '../storage/rows.js';
import { defineUnit } from '../storage/unit.js';
import type { Deps } from './context.js';
import { ApiError } from './errors.js';
import { write } from './write.js';

export interface OperatorAsk {
  transactionId: string;
  table: 'payments' | 'topups' | 'payouts';
  mode: Mode;
  operatorRef: string;
  amount: number;
  currency: string;
  msisdn: string;
  paymentMethod?: string | null;
  operatorToken?: string | null;
}

/**
 * How long a first send may take at worst (token, request, one retry after a 401, each bounded
 * by the operator timeout): a status check before then could find a request still on its way.
 */
export function sendWindowMs(deps: Deps): number {
  return 6 * deps.config.operatorTimeoutMs;
}

/**
 * When a new request's status is first asked. Live: not before its request was sent, so the
 * first check waits the send window, and `askOperator` brings it forward once the send is
 * over (a crash before then leaves the window, after which it is asked, and sent again if the
 * operator never got it). The sandbox operator answers in the process: at once.
 */
export function firstStatusCheckAt(deps: Deps, mode: Mode, now: number): number {
  return mode === 'live' ? now + sendWindowMs(deps) : now;
}

/** The request was sent: its first status check is due one poll from now. */
const markSent = defineUnit(
  import.meta.url,
  'operators.mark-sent',
  (tx, a: { table: OperatorAsk['table']; id: string; at: number }) => tx[a.table].recheckLater(a.id, a.at),
);

/** Settles a request the operator refused outright (`settleRefused`, settlement.ts). */
export type SettleRefused = (failureCode: string) => Promise<unknown>;

/** Remembers the token an operator gave a request (Orange's pay token), for its status checks. */
const rememberToken = defineUnit(
  import.meta.url,
  'operators.remember-token',
  (tx, a: { table: OperatorAsk['table']; id: string; token: string }) =>
    tx[a.table].setOperatorToken(a.id, a.token),
);

/**
 * Sends a committed payment, top-up or payout to its operator (again, with the same reference,
 * when the operator said it never got it). The record is already committed, so a failed call
 * must not fail the API request (the caller would retry and create a second one): an unknown
 * outcome is left to the settlement worker's status checks, which ask about the same reference
 * before anything is sent again; only an outright refusal settles the record now.
 */
export async function askOperator(
  deps: Deps,
  kind: OperatorKind,
  ask: OperatorAsk,
  settleRefused: SettleRefused,
): Promise<SendOutcome> {
  const operator = deps.operators[ask.mode];
  const request: OperatorRequest = {
    transactionId: ask.transactionId,
    operatorRef: ask.operatorRef,
    amount: ask.amount,
    currency: ask.currency,
    msisdn: ask.msisdn,
    ...(ask.paymentMethod ? { paymentMethod: ask.paymentMethod } : {}),
    operatorToken: ask.operatorToken ?? null,
    rememberToken: (token) => write(deps, rememberToken, { table: ask.table, id: ask.transactionId, token }),
  };
  let outcome: SendOutcome;
  faultPoint('before_operator_call');
  try {
    outcome = await (kind === 'collection' ? operator.requestToPay(request) : operator.transfer(request));
  } catch (err) {
    deps.logger.warn(
      { err, transaction_id: ask.transactionId, kind },
      'operator request failed; the status checks will settle it',
    );
    return { state: 'unknown' };
  }
  faultPoint('after_operator_answer');
  if (outcome.state !== 'failed' && ask.mode === 'live') {
    const at = deps.clock.now() + deps.config.settlementPollMs;
    await write(deps, markSent, { table: ask.table, id: ask.transactionId, at }).catch((err: unknown) => {
      deps.logger.warn(
        { err, transaction_id: ask.transactionId },
        'could not bring the first status check forward',
      );
    });
  }
  if (outcome.state === 'failed') {
    const failureCode = outcome.failureCode;
    try {
      await settleRefused(failureCode);
    } catch (err) {
      deps.logger.warn(
        { err, transaction_id: ask.transactionId, kind },
        'could not record the operator refusal; the status checks will settle it',
      );
    }
  }
  return outcome;
}

const networkNames: Record<string, string> = { mtn_momo: 'MTN Mobile Money', orange_money: 'Orange Money' };

/**
 * `422 network_mismatch` when the number belongs to a listed network (number-prefixes.ts) other
 * than `paymentMethod`: an Orange Money request to an MTN number would fail at the operator, or
 * worse, reach someone else. The same in both modes, so the sandbox teaches what live refuses.
 * A number of no listed network is left to the operator.
 */
export function refuseOtherNetwork(
  msisdn: string,
  paymentMethod: string | null | undefined,
  param: string,
): void {
  const network = networkOf(msisdn);
  if (!paymentMethod || !network || network === paymentMethod) return;
  throw new ApiError(
    422,
    'network_mismatch',
    `The number ${msisdn} is on ${networkNames[network]} (${network}), which ${paymentMethod} does not reach: use payment_method ${network}.`,
    { param },
  );
}

/**
 * `422 currency_not_accepted` when the operator environment that will serve a request does not
 * take its currency (MTN's sandbox takes only EUR, its production environments XAF in
 * Cameroon), naming the currencies it takes: sent anyway, the operator would refuse it, or fail
 * it later. Only live operators say what they take; the sandbox takes every currency.
 */
export function refuseUnacceptedCurrency(
  deps: Deps,
  mode: Mode,
  paymentMethod: PaymentMethod,
  currency: string,
): void {
  const acceptance = deps.operators[mode].acceptance?.(paymentMethod);
  if (!acceptance || acceptance.currencies.includes(currency)) return;
  throw new ApiError(
    422,
    'currency_not_accepted',
    `${acceptance.environment} takes ${acceptance.currencies.join(', ')} only, not ${currency}: send the request in ${acceptance.currencies.join(' or ')}.`,
    {
      param: 'currency',
      details: [
        {
          param: 'currency',
          code: 'currency_not_accepted',
          message: `Accepted: ${acceptance.currencies.join(', ')}.`,
        },
      ],
    },
  );
}

/**
 * The operator that will serve a request to `msisdn`: the caller's choice or the number's
 * network. A `payment_method` that is not the number's network is refused in both modes
 * (`refuseOtherNetwork`). A live setup that serves neither refuses the request before anything
 * is recorded or debited. Without a router (sandbox, or no live operator configured) everything
 * else goes.
 */
export function routeRequest(
  deps: Deps,
  mode: Mode,
  request: { msisdn: string; paymentMethod: string | null | undefined; currency: string },
  param: string,
): string | null {
  const { msisdn, paymentMethod } = request;
  refuseOtherNetwork(msisdn, paymentMethod, param);
  const operator = deps.operators[mode];
  if (!operator.route) return paymentMethod ?? null;
  const routed = operator.route(msisdn, paymentMethod ?? null);
  if (routed) refuseUnacceptedCurrency(deps, mode, routed, request.currency);
  if (!routed) {
    throw new ApiError(
      422,
      'unsupported_network',
      paymentMethod
        ? `No ${paymentMethod} operator is connected in ${mode} mode.`
        : `No connected Mobile Money operator serves the number ${msisdn}; name its payment_method if you know it.`,
      { param },
    );
  }
  return routed;
}
