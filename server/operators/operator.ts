import type { Debtor } from './bank/pain001.js';

/**
 * The one interface between the service and a Mobile Money operator (MTN MoMo, Orange Money),
 * shaped after the MTN MoMo Open API: we choose the reference of each request (its
 * X-Reference-Id), ask the operator to collect or disburse, then poll its status until final.
 * See docs/decisions/0004-operators.md and 0010-live-operators.md.
 */
export type OperatorKind = 'collection' | 'disbursement';

export type PaymentMethod = 'mtn_momo' | 'orange_money';

export type OperatorFailureCode =
  | 'payer_declined'
  | 'recipient_rejected'
  | 'operator_timeout'
  | 'operator_error';

export interface OperatorRequest {
  /** Our id of the payment, top-up or payout the request is for. */
  transactionId: string;
  /** Our reference for the request, chosen before the call so a retried call is the same request. */
  operatorRef: string;
  amount: number;
  currency: string;
  msisdn: string;
  /** The operator that serves the request (chosen by the caller, or by the number's network). */
  paymentMethod?: string;
  /** A token the operator gave for this request earlier (Orange Money's payToken), if any. */
  operatorToken?: string | null;
  /**
   * Commits a token the operator gave for this request before the request goes further, so a
   * crash after this point asks about the same request instead of starting another one.
   */
  rememberToken?: (token: string) => Promise<void>;
}

/**
 * What sending a request told us: `accepted` (the operator has it), `unknown` (a timeout, a
 * dropped connection or a 5xx: it may or may not have it; ask its status before sending again)
 * or `failed` (the operator refused it for good; nothing will happen).
 */
export type SendOutcome =
  | { state: 'accepted' }
  | { state: 'unknown' }
  | { state: 'failed'; failureCode: OperatorFailureCode };

export type OperatorStatus =
  /** `retryAfterMs`: the operator asked not to be asked again before then (a 429). */
  | { state: 'pending'; retryAfterMs?: number }
  /** The operator has no such request: it never got it, so sending the same reference again is safe. */
  | { state: 'not_received' }
  | { state: 'success' }
  /** The operator let the request lapse (the customer never approved it). */
  | { state: 'expired' }
  | { state: 'failed'; failureCode: OperatorFailureCode };

/**
 * Where an operator calls back about `request`: `base` (the configured callback URL) followed by
 * the request's transaction id and reference, which together find its row by the id's index
 * (server/routes/operator-callbacks.ts, docs/decisions/0012-routing-callbacks-sandbox.md).
 */
export function callbackUrlFor(base: string, request: OperatorRequest): string {
  return `${base.replace(/\/$/, '')}/${request.transactionId}/${request.operatorRef}`;
}

export interface StatusQuery {
  operatorRef: string;
  msisdn: string;
  /** When we sent it. */
  initiatedAt: number;
  paymentMethod?: string | null;
  operatorToken?: string | null;
}

export interface MobileMoneyOperator {
  /** Asks the customer (or the account owner) to approve a debit of their Mobile Money account. */
  requestToPay(request: OperatorRequest): Promise<SendOutcome>;
  /** Sends money to a Mobile Money number. */
  transfer(request: OperatorRequest): Promise<SendOutcome>;
  /** Where a request stands. Never throws for an unreachable operator: that is `pending`. */
  status(kind: OperatorKind, request: StatusQuery): Promise<OperatorStatus>;
  /**
   * Whether a request can be sent through this operator: by payment method, or else by the
   * number's network. Absent means everything is served (the sandbox, the unconnected
   * operator). Returns the payment method that will serve it, or null when none does.
   */
  route?(msisdn: string, paymentMethod?: string | null): PaymentMethod | null;
  /**
   * The currencies the operator environment behind `paymentMethod` takes (MTN's sandbox: EUR
   * only; production: the country's currency), and that environment's name; absent or null
   * means any (the sandbox operator). See docs/decisions/0035.
   */
  acceptance?(paymentMethod: PaymentMethod): CurrencyAcceptance | null;
}

export interface CurrencyAcceptance {
  currencies: readonly string[];
  /** The operator environment, for messages: `MTN MoMo (sandbox)`. */
  environment: string;
}

/** A bank transfer of a batch, as the bank sees it. */
export interface BankTransfer {
  /** The payout's id: the transfer's `EndToEndId`. */
  endToEndId: string;
  amount: number;
  currency: string;
  iban: string;
}

/**
 * The other rail: a bank that takes transfers in batches (an ISO 20022 pain.001 file each) and
 * reports their outcomes in statements (camt.054), matched back by end-to-end id
 * (docs/decisions/0039-bank-payouts-in-files.md). Like a Mobile Money operator it is chosen
 * per mode: the sandbox bank in test mode, and in live mode none until a bank is connected
 * (bank payouts are then refused with `unsupported_network`, nothing debited).
 */
export interface BankRail {
  /** The account every transfer is paid from: the debtor of each file. */
  readonly debtor: Debtor;
  /**
   * Hands a batch's file to the bank. A bank that takes files by hand (the merchant downloads
   * and uploads them) accepts at once; a bank with an API would send it here, and a failure
   * leaves the batch for the merchant to carry.
   */
  submit(batch: { id: string; file: string }): Promise<SendOutcome>;
  /** The sandbox bank only: the camt.054 it sends back for a batch of transfers. */
  statementFor?(batch: { id: string; createdAt: number; transfers: BankTransfer[] }): string;
}
