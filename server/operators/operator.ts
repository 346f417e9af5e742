/**
 * The one interface between the service and a Mobile Money operator (MTN MoMo, Orange Money),
 * shaped after the MTN MoMo Open API: we choose the reference of each request (its
 * X-Reference-Id), ask the operator to collect or disburse, then poll its status until final.
 */
export type OperatorKind = 'collection' | 'disbursement';

export interface OperatorRequest {
  /** Our reference for the request, chosen before the call so a retried call is the same request. */
  operatorRef: string;
  amount: number;
  currency: string;
  msisdn: string;
  /** Collections name the operator; disbursements are routed by the number's network. */
  paymentMethod?: string;
}

export type OperatorStatus =
  | { state: 'pending' }
  | { state: 'success' }
  | { state: 'failed'; failureCode: 'payer_declined' | 'recipient_rejected' | 'operator_error' };

export interface MobileMoneyOperator {
  /** Asks the customer (or the account owner) to approve a debit of their Mobile Money account. */
  requestToPay(request: OperatorRequest): Promise<void>;
  /** Sends money to a Mobile Money number. */
  transfer(request: OperatorRequest): Promise<void>;
  /** Where a request stands; `initiatedAt` is when we sent it. */
  status(
    kind: OperatorKind,
    request: { operatorRef: string; msisdn: string; initiatedAt: number },
  ): Promise<OperatorStatus>;
}
