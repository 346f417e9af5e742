import type { OperatorKind } from '../operators/operator.js';
import type { Mode } from '../storage/rows.js';
import type { Deps } from './context.js';

export interface OperatorAsk {
  transactionId: string;
  mode: Mode;
  operatorRef: string;
  amount: number;
  currency: string;
  msisdn: string;
  paymentMethod?: string;
}

/**
 * Sends a committed payment, top-up or payout to its operator. The record is already
 * committed, so a failed call must not fail the API request (the caller would retry and
 * create a second one): it is logged, and the settlement worker's status checks resolve it.
 */
export async function askOperator(deps: Deps, kind: OperatorKind, ask: OperatorAsk): Promise<void> {
  const operator = deps.operators[ask.mode];
  const request = {
    operatorRef: ask.operatorRef,
    amount: ask.amount,
    currency: ask.currency,
    msisdn: ask.msisdn,
    ...(ask.paymentMethod ? { paymentMethod: ask.paymentMethod } : {}),
  };
  try {
    await (kind === 'collection' ? operator.requestToPay(request) : operator.transfer(request));
  } catch (err) {
    deps.logger.warn(
      { err, transaction_id: ask.transactionId, kind },
      'operator request failed; the status checks will settle it',
    );
  }
}
