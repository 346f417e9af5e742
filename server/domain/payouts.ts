import { randomUUID } from 'node:crypto';
import type { BulkPayoutCreate, PayoutCreate, RefundCreate } from '../../generated/openapi.js';
import { networkOf } from '../operators/number-prefixes.js';
import type { PayoutQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';
import type { ListedPayoutRow, PayoutRow, WalletRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound } from './errors.js';
import { recordEvent } from './events.js';
import { newId } from './ids.js';
import { credit, debit } from './ledger.js';
import { type AnyView, type ListAnswer, listPage } from './lists.js';
import { normaliseMsisdn } from './msisdn.js';
import { askOperator, firstStatusCheckAt, routeRequest } from './operator-requests.js';
import { settleRefused } from './settlement.js';
import { type Answer, write } from './write.js';

/**
 * Where a payout goes, as decided before its transaction: a number with the operator it is
 * routed to (null only where nothing routes: the sandbox), or another account's wallet, looked
 * up in the transaction.
 */
type Destination = { msisdn: string; method: string | null } | { walletId: string; param: string };

/** A number's destination or a wallet's, as the transaction found it. */
type Recipient =
  | { msisdn: string; method: string | null; wallet: null }
  | { msisdn: null; method: null; wallet: WalletRow };

/** A payout as planned before its transaction: plain data, so its unit can run on any thread. */
interface PayoutPlan {
  amount: number;
  currency: string;
  payoutType: PayoutRow['payout_type'];
  destination: Destination;
  reference: string | null;
}

/** What every payout of one request shares. */
interface PayoutContext {
  caller: Caller;
  now: number;
  /** When a payout to a number that the operator never settles is given up. */
  expiresAt: number;
  /** When its status is first asked (operator-requests.ts, `firstStatusCheckAt`). */
  firstCheckAt: number;
}

/**
 * Exactly one recipient; a withdrawal goes to a number; a number goes to the operator that
 * serves it (refused before anything is recorded when none is connected).
 */
function destinationOf(
  deps: Deps,
  caller: Caller,
  item: Pick<PayoutCreate, 'recipient_msisdn' | 'recipient_wallet_id' | 'payout_type' | 'payment_method'>,
  prefix: string,
  currency: string,
): Destination {
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
    const msisdn = normaliseMsisdn(item.recipient_msisdn, `${prefix}recipient_msisdn`);
    const method = routeRequest(
      deps,
      caller.mode,
      { msisdn, paymentMethod: item.payment_method, currency },
      `${prefix}${item.payment_method ? 'payment_method' : 'recipient_msisdn'}`,
    );
    return { msisdn, method: method ?? networkOf(msisdn) };
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
  return { walletId: item.recipient_wallet_id as string, param };
}

/** A wallet exists in this mode and is not the caller's own. */
async function recipientOf(tx: Tx, caller: Caller, destination: Destination): Promise<Recipient> {
  if ('msisdn' in destination) return { ...destination, wallet: null };
  const { walletId, param } = destination;
  const wallet = await tx.accounts.walletById(walletId);
  if (!wallet || wallet.mode !== caller.mode) {
    throw new ApiError(422, 'wallet_not_found', `No wallet ${walletId} exists in this mode.`, { param });
  }
  if (wallet.account_id === caller.accountId) {
    throw new ApiError(422, 'self_transfer', 'A transfer cannot go to your own wallet.', { param });
  }
  return { msisdn: null, method: null, wallet };
}

interface Movement {
  amount: number;
  currency: string;
  payoutType: PayoutRow['payout_type'];
  recipient: Recipient;
  reference: string | null;
  paymentId: string | null;
  bulkId: string | null;
}

function describe(movement: Movement): string {
  if (movement.payoutType === 'refund')
    return `Refund of ${movement.paymentId} to ${movement.recipient.msisdn}`;
  const to = movement.recipient.msisdn ?? movement.recipient.wallet?.id;
  return `${movement.payoutType === 'withdrawal' ? 'Withdrawal' : 'Transfer'} to ${to}`;
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
async function executePayout(tx: Tx, context: PayoutContext, movement: Movement): Promise<PayoutRow> {
  const { caller, now } = context;
  const id = newId('po');
  const debited = await debit(tx, {
    walletId: caller.walletId,
    currency: movement.currency,
    amount: movement.amount,
    type: 'payout',
    sourceId: id,
    description: describe(movement),
    now,
  });
  if (!debited.ok) throw insufficient(debited.available, movement.amount, movement.currency);
  const internal = movement.recipient.wallet !== null;
  const payout = await tx.payouts.insert({
    id,
    account_id: caller.accountId,
    mode: caller.mode,
    amount: movement.amount,
    currency: movement.currency,
    status: internal ? 'success' : 'pending',
    payout_type: movement.payoutType,
    recipient_msisdn: movement.recipient.msisdn,
    recipient_wallet_id: movement.recipient.wallet?.id ?? null,
    payment_method: movement.recipient.method,
    payment_id: movement.paymentId,
    bulk_id: movement.bulkId,
    reference: movement.reference,
    failure_code: null,
    operator_ref: internal ? null : randomUUID(),
    next_check_at: internal ? null : context.firstCheckAt,
    expires_at: context.expiresAt,
    created_at: now,
    updated_at: now,
    completed_at: internal ? now : null,
  });
  if (movement.recipient.wallet) await transferIn(tx, context, movement, id);
  return payout;
}

/** The other account's side of an internal transfer: its credit and its event. */
async function transferIn(
  tx: Tx,
  context: PayoutContext,
  movement: Movement,
  payoutId: string,
): Promise<void> {
  const { caller, now } = context;
  await credit(tx, {
    walletId: (movement.recipient.wallet as WalletRow).id,
    currency: movement.currency,
    amount: movement.amount,
    type: 'transfer_in',
    sourceId: payoutId,
    description: `Transfer from ${caller.walletId}`,
    now,
  });
  await recordEvent(
    tx,
    caller.accountId,
    caller.mode,
    'payout.completed',
    {
      transaction_id: payoutId,
      amount: movement.amount,
      currency: movement.currency,
      status: 'success',
      reference: movement.reference,
      failure_code: null,
      service_id: null,
      payment_id: null,
    },
    now,
  );
}

/** A planned payout as it moves: its recipient found, in no batch. */
async function movementOf(
  tx: Tx,
  caller: Caller,
  plan: PayoutPlan,
  bulkId: string | null,
): Promise<Movement> {
  const recipient = await recipientOf(tx, caller, plan.destination);
  return { ...plan, recipient, paymentId: null, bulkId };
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
      (failureCode) => settleRefused(deps, 'payouts', payout, failureCode),
    );
  }
}

function contextOf(deps: Deps, caller: Caller): PayoutContext {
  const now = deps.clock.now();
  return {
    caller,
    now,
    expiresAt: now + deps.config.payoutTimeoutSeconds * 1000,
    firstCheckAt: firstStatusCheckAt(deps, caller.mode, now),
  };
}

const insertPayout = defineUnit(
  import.meta.url,
  'payouts.insert',
  async (tx, a: { context: PayoutContext; plan: PayoutPlan }): Promise<PayoutRow> =>
    executePayout(tx, a.context, await movementOf(tx, a.context.caller, a.plan, null)),
);

export async function createPayout(
  deps: Deps,
  caller: Caller,
  input: PayoutCreate,
  answer?: Answer<PayoutRow>,
): Promise<PayoutRow> {
  const currency = input.currency ?? caller.defaultCurrency;
  const plan: PayoutPlan = {
    amount: input.amount,
    currency,
    payoutType: input.payout_type,
    destination: destinationOf(deps, caller, input, '', currency),
    reference: input.reference ?? null,
  };
  const payout = await write(deps, insertPayout, { context: contextOf(deps, caller), plan }, answer);
  await askOperatorToTransfer(deps, [payout]);
  return payout;
}

export interface BulkPayout {
  bulkId: string;
  currency: string;
  totalAmount: number;
  payouts: PayoutRow[];
}

/** Every item's recipient found and the total funded before any moves: the batch is all or nothing. */
const insertBulkPayout = defineUnit(
  import.meta.url,
  'payouts.insert-bulk',
  async (tx, a: { context: PayoutContext; currency: string; plans: PayoutPlan[] }): Promise<BulkPayout> => {
    const { caller } = a.context;
    const bulkId = newId('bulk');
    const movements: Movement[] = [];
    for (const plan of a.plans) movements.push(await movementOf(tx, caller, plan, bulkId));
    const totalAmount = movements.reduce((sum, movement) => sum + movement.amount, 0);
    const available = await tx.ledger.available(caller.walletId, a.currency);
    if (available < totalAmount) throw insufficient(available, totalAmount, a.currency);
    const payouts: PayoutRow[] = [];
    for (const movement of movements) payouts.push(await executePayout(tx, a.context, movement));
    return { bulkId, currency: a.currency, totalAmount, payouts };
  },
);

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
  const plans = input.items.map(
    (item, index): PayoutPlan => ({
      amount: item.amount,
      currency,
      payoutType: item.payout_type,
      destination: destinationOf(deps, caller, item, `items[${index}].`, currency),
      reference: item.reference ?? null,
    }),
  );
  const context = contextOf(deps, caller);
  const bulk = await write(deps, insertBulkPayout, { context, currency, plans }, answer);
  await askOperatorToTransfer(deps, bulk.payouts);
  return bulk;
}

/** A successful payment's refund, at most what remains of it, as a payout to its payer. */
const insertRefund = defineUnit(
  import.meta.url,
  'refunds.insert',
  async (tx, a: { context: PayoutContext; input: RefundCreate }): Promise<PayoutRow> => {
    const { caller, now } = a.context;
    const payment = await tx.payments.get(caller.accountId, caller.mode, a.input.payment_id);
    if (!payment) throw notFound('payment', a.input.payment_id);
    if (payment.status !== 'success' || !payment.customer_msisdn) {
      throw new ApiError(
        409,
        'payment_not_refundable',
        `Only successful payments can be refunded; this one is ${payment.status}.`,
        { param: 'payment_id' },
      );
    }
    const remaining = payment.amount - payment.refunded_amount;
    const amount = a.input.amount ?? remaining;
    if (amount > remaining || amount <= 0) {
      throw new ApiError(
        422,
        'refund_exceeds_payment',
        `At most ${remaining} ${payment.currency} of this payment remains to refund.`,
        { param: 'amount' },
      );
    }
    const payout = await executePayout(tx, a.context, {
      amount,
      currency: payment.currency,
      payoutType: 'refund',
      recipient: { msisdn: payment.customer_msisdn, method: payment.payment_method, wallet: null },
      reference: a.input.reference ?? null,
      paymentId: payment.id,
      bulkId: null,
    });
    await tx.payments.addRefunded(payment.id, amount, now);
    return payout;
  },
);

/** Refunds a successful payment, at most what remains of it, as a payout to its payer. */
export async function createRefund(
  deps: Deps,
  caller: Caller,
  input: RefundCreate,
  answer?: Answer<PayoutRow>,
): Promise<PayoutRow> {
  const refund = await write(deps, insertRefund, { context: contextOf(deps, caller), input }, answer);
  await askOperatorToTransfer(deps, [refund]);
  return refund;
}

export async function getPayout(deps: Deps, caller: Caller, id: string): Promise<PayoutRow> {
  const row = await deps.store.read(async (tx) => tx.payouts.get(caller.accountId, caller.mode, id));
  if (!row) throw notFound('payout', id);
  return row;
}

/** A page of the caller's payouts: its rows, or given a `view`, its response (lists.ts). */
export async function listPayouts<V extends AnyView<ListedPayoutRow> = undefined>(
  deps: Deps,
  caller: Caller,
  query: PayoutQuery,
  page: PageRequest,
  view?: V,
): ListAnswer<ListedPayoutRow, V> {
  return listPage(deps, caller, 'payouts', query, page, view);
}
