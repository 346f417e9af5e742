import { randomUUID } from 'node:crypto';
import type { BulkPayoutCreate, PayoutCreate, RefundCreate } from '../../generated/openapi.js';
import { networkOf } from '../operators/number-prefixes.js';
import type { Condition, PageRequest } from '../storage/pagination.js';
import type { ListedPayoutRow, PayoutRow, WalletRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound } from './errors.js';
import { recordEvent } from './events.js';
import { newId } from './ids.js';
import { credit, debit } from './ledger.js';
import { type AnyView, type ListAnswer, listPage } from './lists.js';
import { askOperator, routeRequest } from './operator-requests.js';
import { timeConditions } from './payments.js';
import { settlePayout } from './settlement.js';
import { commit } from './transaction.js';
import type { Answer } from './write.js';

/** A number carries the operator it is routed to (null only where nothing routes: the sandbox). */
type Recipient =
  | { msisdn: string; method: string | null; wallet: null }
  | { msisdn: null; method: null; wallet: WalletRow };

interface PayoutPlan {
  amount: number;
  currency: string;
  payoutType: PayoutRow['payout_type'];
  recipient: Recipient;
  reference: string | null;
  paymentId: string | null;
  bulkId: string | null;
}

/** Exactly one recipient; a withdrawal goes to a number; a wallet exists in this mode and is not ours. */
async function resolveRecipient(
  deps: Deps,
  tx: Tx,
  caller: Caller,
  item: Pick<PayoutCreate, 'recipient_msisdn' | 'recipient_wallet_id' | 'payout_type' | 'payment_method'>,
  prefix: string,
): Promise<Recipient> {
  const hasMsisdn = item.recipient_msisdn !== undefined;
  const hasWallet = item.recipient_wallet_id !== undefined;
  if (hasMsisdn === hasWallet) {
    throw new ApiError(
      400,
      'invalid_recipient',
      'A payout needs exactly one of recipient_msisdn or recipient_wallet_id.',
      { param: `${prefix}recipient_msisdn` },
    );
  }
  if (item.recipient_msisdn !== undefined) {
    const method = routeRequest(
      deps,
      caller.mode,
      item.recipient_msisdn,
      item.payment_method,
      `${prefix}${item.payment_method ? 'payment_method' : 'recipient_msisdn'}`,
    );
    return {
      msisdn: item.recipient_msisdn,
      method: method ?? networkOf(item.recipient_msisdn),
      wallet: null,
    };
  }
  const param = `${prefix}recipient_wallet_id`;
  if (item.payment_method !== undefined) {
    throw new ApiError(
      400,
      'invalid_recipient',
      'payment_method chooses the operator of a payout to a number; a wallet transfer has none.',
      { param: `${prefix}payment_method` },
    );
  }
  if (item.payout_type === 'withdrawal') {
    throw new ApiError(
      400,
      'invalid_recipient',
      'A withdrawal goes to a Mobile Money number (recipient_msisdn); use payout_type transfer for a wallet.',
      { param },
    );
  }
  const walletId = item.recipient_wallet_id as string;
  const wallet = await tx.accounts.walletById(walletId);
  if (!wallet || wallet.mode !== caller.mode) {
    throw new ApiError(422, 'wallet_not_found', `No wallet ${walletId} exists in this mode.`, { param });
  }
  if (wallet.account_id === caller.accountId) {
    throw new ApiError(422, 'self_transfer', 'A transfer cannot go to your own wallet.', { param });
  }
  return { msisdn: null, method: null, wallet };
}

function describe(plan: PayoutPlan): string {
  if (plan.payoutType === 'refund') return `Refund of ${plan.paymentId} to ${plan.recipient.msisdn}`;
  const to = plan.recipient.msisdn ?? plan.recipient.wallet?.id;
  return `${plan.payoutType === 'withdrawal' ? 'Withdrawal' : 'Transfer'} to ${to}`;
}

function insufficient(available: number, amount: number, currency: string): ApiError {
  return new ApiError(
    403,
    'insufficient_balance',
    `The Main Balance (${available} ${currency}) cannot fund this payout of ${amount} ${currency}.`,
  );
}

/**
 * Debits the Main Balance and records the payout in the caller's transaction. A transfer to
 * another user's wallet is internal and completes at once; a payout to a number waits for the
 * operator.
 */
async function executePayout(
  deps: Deps,
  tx: Tx,
  caller: Caller,
  plan: PayoutPlan,
  now: number,
): Promise<PayoutRow> {
  const id = newId('po');
  const debited = await debit(tx, {
    walletId: caller.walletId,
    currency: plan.currency,
    amount: plan.amount,
    type: 'payout',
    sourceId: id,
    description: describe(plan),
    now,
  });
  if (!debited.ok) throw insufficient(debited.available, plan.amount, plan.currency);
  const internal = plan.recipient.wallet !== null;
  const payout = await tx.payouts.insert({
    id,
    account_id: caller.accountId,
    mode: caller.mode,
    amount: plan.amount,
    currency: plan.currency,
    status: internal ? 'success' : 'pending',
    payout_type: plan.payoutType,
    recipient_msisdn: plan.recipient.msisdn,
    recipient_wallet_id: plan.recipient.wallet?.id ?? null,
    payment_method: plan.recipient.method,
    payment_id: plan.paymentId,
    bulk_id: plan.bulkId,
    reference: plan.reference,
    failure_code: null,
    operator_ref: internal ? null : randomUUID(),
    next_check_at: internal ? null : now,
    expires_at: now + deps.config.payoutTimeoutSeconds * 1000,
    created_at: now,
    updated_at: now,
    completed_at: internal ? now : null,
  });
  if (plan.recipient.wallet) {
    await credit(tx, {
      walletId: plan.recipient.wallet.id,
      currency: plan.currency,
      amount: plan.amount,
      type: 'transfer_in',
      sourceId: id,
      description: `Transfer from ${caller.walletId}`,
      now,
    });
    await recordEvent(
      tx,
      caller.accountId,
      caller.mode,
      'payout.completed',
      {
        transaction_id: id,
        amount: plan.amount,
        currency: plan.currency,
        status: 'success',
        reference: plan.reference,
        failure_code: null,
        service_id: null,
        payment_id: null,
      },
      now,
    );
  }
  return payout;
}

async function askOperatorToTransfer(deps: Deps, payouts: PayoutRow[]): Promise<void> {
  for (const payout of payouts) {
    if (!payout.operator_ref || !payout.recipient_msisdn) continue;
    await askOperator(
      deps,
      'disbursement',
      {
        transactionId: payout.id,
        table: 'payouts',
        mode: payout.mode,
        operatorRef: payout.operator_ref,
        amount: payout.amount,
        currency: payout.currency,
        msisdn: payout.recipient_msisdn,
        paymentMethod: payout.payment_method,
        operatorToken: payout.operator_token,
      },
      (tx, failureCode, now) => settlePayout(tx, payout, { status: 'failed', failureCode }, now),
    );
  }
}

export async function createPayout(
  deps: Deps,
  caller: Caller,
  input: PayoutCreate,
  answer?: Answer<PayoutRow>,
): Promise<PayoutRow> {
  const payout = await commit(deps, caller, answer, async (tx, now) =>
    executePayout(
      deps,
      tx,
      caller,
      {
        amount: input.amount,
        currency: input.currency ?? caller.defaultCurrency,
        payoutType: input.payout_type,
        recipient: await resolveRecipient(deps, tx, caller, input, ''),
        reference: input.reference ?? null,
        paymentId: null,
        bulkId: null,
      },
      now,
    ),
  );
  await askOperatorToTransfer(deps, [payout]);
  return payout;
}

export interface BulkPayout {
  bulkId: string;
  currency: string;
  totalAmount: number;
  payouts: PayoutRow[];
}

/** All items are checked and the total funded before any moves: the batch is all or nothing. */
export async function createBulkPayout(
  deps: Deps,
  caller: Caller,
  input: BulkPayoutCreate,
  answer?: Answer<BulkPayout>,
): Promise<BulkPayout> {
  if (input.items.length > deps.config.bulkPayoutMaxItems) {
    throw new ApiError(
      400,
      'too_many_items',
      `A bulk payout may have at most ${deps.config.bulkPayoutMaxItems} items.`,
      { param: 'items' },
    );
  }
  const currency = input.currency ?? caller.defaultCurrency;
  const bulk = await commit(deps, caller, answer, async (tx, now) => {
    const bulkId = newId('bulk');
    const plans: PayoutPlan[] = [];
    for (const [index, item] of input.items.entries()) {
      plans.push({
        amount: item.amount,
        currency,
        payoutType: item.payout_type,
        recipient: await resolveRecipient(deps, tx, caller, item, `items[${index}].`),
        reference: item.reference ?? null,
        paymentId: null,
        bulkId,
      });
    }
    const totalAmount = plans.reduce((sum, plan) => sum + plan.amount, 0);
    const available = await tx.ledger.available(caller.walletId, currency);
    if (available < totalAmount) throw insufficient(available, totalAmount, currency);
    const payouts: PayoutRow[] = [];
    for (const plan of plans) payouts.push(await executePayout(deps, tx, caller, plan, now));
    return { bulkId, currency, totalAmount, payouts };
  });
  await askOperatorToTransfer(deps, bulk.payouts);
  return bulk;
}

/** Refunds a successful payment, at most what remains of it, as a payout to its payer. */
export async function createRefund(
  deps: Deps,
  caller: Caller,
  input: RefundCreate,
  answer?: Answer<PayoutRow>,
): Promise<PayoutRow> {
  const refund = await commit(deps, caller, answer, async (tx, now) => {
    const payment = await tx.payments.get(caller.accountId, caller.mode, input.payment_id);
    if (!payment) throw notFound('payment', input.payment_id);
    if (payment.status !== 'success' || !payment.customer_msisdn) {
      throw new ApiError(
        409,
        'payment_not_refundable',
        `Only successful payments can be refunded; this one is ${payment.status}.`,
        { param: 'payment_id' },
      );
    }
    const remaining = payment.amount - payment.refunded_amount;
    const amount = input.amount ?? remaining;
    if (amount > remaining || amount <= 0) {
      throw new ApiError(
        422,
        'refund_exceeds_payment',
        `At most ${remaining} ${payment.currency} of this payment remains to refund.`,
        { param: 'amount' },
      );
    }
    const payout = await executePayout(
      deps,
      tx,
      caller,
      {
        amount,
        currency: payment.currency,
        payoutType: 'refund',
        recipient: { msisdn: payment.customer_msisdn, method: payment.payment_method, wallet: null },
        reference: input.reference ?? null,
        paymentId: payment.id,
        bulkId: null,
      },
      now,
    );
    await tx.payments.addRefunded(payment.id, amount, now);
    return payout;
  });
  await askOperatorToTransfer(deps, [refund]);
  return refund;
}

export async function getPayout(deps: Deps, caller: Caller, id: string): Promise<PayoutRow> {
  const row = await deps.store.read(async (tx) => tx.payouts.get(caller.accountId, caller.mode, id));
  if (!row) throw notFound('payout', id);
  return row;
}

export interface PayoutFilters {
  status?: string | undefined;
  payout_type?: string | undefined;
  bulk_id?: string | undefined;
  payment_id?: string | undefined;
  created_gte?: number | undefined;
  created_lt?: number | undefined;
}

/** A page of the caller's payouts: its rows, or given a `view`, its response (lists.ts). */
export async function listPayouts<V extends AnyView<ListedPayoutRow> = undefined>(
  deps: Deps,
  caller: Caller,
  filters: PayoutFilters,
  page: PageRequest,
  view?: V,
): ListAnswer<ListedPayoutRow, V> {
  const conditions: Condition[] = timeConditions(filters);
  if (filters.status) conditions.push(['status = ?', filters.status]);
  if (filters.payout_type) conditions.push(['payout_type = ?', filters.payout_type]);
  if (filters.bulk_id) conditions.push(['bulk_id = ?', filters.bulk_id]);
  if (filters.payment_id) conditions.push(['payment_id = ?', filters.payment_id]);
  return listPage(deps, caller, 'payouts', conditions, page, view);
}
