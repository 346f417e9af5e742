import { randomUUID } from 'node:crypto';
import type { BulkPayoutCreate, PayoutCreate, RefundCreate } from '../../generated/openapi.js';
import { checkIban, ibanOf } from '../operators/bank/bank-account.js';
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
import { metadataOf, storedMetadata } from './metadata.js';
import { normaliseMsisdn } from './msisdn.js';
import { askOperator, firstStatusCheckAt, routeRequest } from './operator-requests.js';
import { settleRefused } from './settlement.js';
import { type Answer, write } from './write.js';

/**
 * Where a payout goes, as decided before its transaction: a number with the operator it is
 * routed to (null only where nothing routes: the sandbox), or another account's wallet, looked
 * up in the transaction.
 */
type Destination =
  | { msisdn: string; method: string | null }
  | { walletId: string; param: string }
  | { bank: BankRecipient };

/** A bank account checked before its transaction (server/operators/bank/bank-account.ts). */
interface BankRecipient {
  iban: string;
  holderName: string;
  bic: string | null;
}

/** A number's destination, a wallet's as the transaction found it, or a bank account. */
type Recipient =
  | { msisdn: string; method: string | null; wallet: null; bank: null }
  | { msisdn: null; method: null; wallet: WalletRow; bank: null }
  | { msisdn: null; method: null; wallet: null; bank: BankRecipient };

/** A payout as planned before its transaction: plain data, so its unit can run on any thread. */
interface PayoutPlan {
  amount: number;
  currency: string;
  payoutType: PayoutRow['payout_type'];
  destination: Destination;
  reference: string | null;
  /** As its row stores it (metadata.ts). */
  metadata: string | null;
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
  item: Pick<
    PayoutCreate,
    'recipient_msisdn' | 'recipient_wallet_id' | 'recipient_bank_account' | 'payout_type' | 'payment_method'
  >,
  prefix: string,
  currency: string,
): Destination {
  const kinds = [item.recipient_msisdn, item.recipient_wallet_id, item.recipient_bank_account];
  if (kinds.filter((kind) => kind !== undefined).length !== 1) {
    throw new ApiError(
      400,
      'invalid_recipient',
      'A payout needs exactly one of recipient_msisdn, recipient_wallet_id or recipient_bank_account.',
      { param: `${prefix}recipient_msisdn` },
    );
  }
  if (item.recipient_bank_account !== undefined) {
    return bankDestination(deps, caller, item.recipient_bank_account, item.payment_method, prefix, currency);
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

type BankAccountInput = NonNullable<PayoutCreate['recipient_bank_account']>;

/**
 * A bank account whose RIB key and IBAN check digits are right, in XAF (the CEMAC zone's
 * currency), in a mode that has a bank: refused before anything is recorded otherwise.
 */
function bankDestination(
  deps: Deps,
  caller: Caller,
  account: BankAccountInput,
  paymentMethod: string | undefined,
  prefix: string,
  currency: string,
): Destination {
  const param = `${prefix}recipient_bank_account`;
  if (paymentMethod !== undefined) {
    throw new ApiError(
      400,
      'invalid_recipient',
      'payment_method chooses the operator of a payout to a number; a bank payout has none.',
      { param: `${prefix}payment_method` },
    );
  }
  if (currency !== 'XAF') {
    throw new ApiError(400, 'invalid_recipient', 'A payout to a CEMAC bank account is in XAF.', {
      param: `${prefix}currency`,
    });
  }
  if (!deps.banks[caller.mode]) {
    throw new ApiError(422, 'unsupported_network', 'No bank is connected in this mode for bank payouts.', {
      param,
    });
  }
  const given = 'iban' in account && account.iban !== undefined;
  const iban = given ? (account.iban as string) : ibanOf(account.country as string, account.rib as string);
  const checked = checkIban(iban);
  const field = `${param}.${given ? 'iban' : 'rib'}`;
  if (checked === 'rib_key') {
    throw new ApiError(
      422,
      'invalid_rib_key',
      `The RIB key (${iban.slice(25)}) does not match the bank code, branch code and account number: one of them is mistyped.`,
      { param: field },
    );
  }
  if (checked === 'iban_check_digits') {
    throw new ApiError(
      422,
      'invalid_iban_check_digits',
      `The IBAN's check digits (${iban.slice(2, 4)}) do not match the rest of it (ISO 13616, mod 97).`,
      { param: field },
    );
  }
  return { bank: { iban: checked.iban, holderName: account.holder_name, bic: account.bic ?? null } };
}

/** A wallet exists in this mode and is not the caller's own. */
async function recipientOf(tx: Tx, caller: Caller, destination: Destination): Promise<Recipient> {
  if ('msisdn' in destination) return { ...destination, wallet: null, bank: null };
  if ('bank' in destination) return { msisdn: null, method: null, wallet: null, bank: destination.bank };
  const { walletId, param } = destination;
  const wallet = await tx.accounts.walletById(walletId);
  if (!wallet || wallet.mode !== caller.mode) {
    throw new ApiError(422, 'wallet_not_found', `No wallet ${walletId} exists in this mode.`, { param });
  }
  if (wallet.account_id === caller.accountId) {
    throw new ApiError(422, 'self_transfer', 'A transfer cannot go to your own wallet.', { param });
  }
  return { msisdn: null, method: null, wallet, bank: null };
}

interface Movement {
  amount: number;
  currency: string;
  payoutType: PayoutRow['payout_type'];
  recipient: Recipient;
  reference: string | null;
  metadata: string | null;
  paymentId: string | null;
  bulkId: string | null;
}

function describe(movement: Movement): string {
  if (movement.payoutType === 'refund')
    return `Refund of ${movement.paymentId} to ${movement.recipient.msisdn}`;
  const to = movement.recipient.msisdn ?? movement.recipient.wallet?.id ?? movement.recipient.bank?.iban;
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
  // A bank payout waits for its batch's statement, never for an operator's status.
  const operated = !internal && movement.recipient.bank === null;
  const bank = movement.recipient.bank;
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
    recipient_iban: bank?.iban ?? null,
    recipient_name: bank?.holderName ?? null,
    recipient_bic: bank?.bic ?? null,
    bank_batch_id: null,
    payment_method: movement.recipient.method,
    payment_id: movement.paymentId,
    bulk_id: movement.bulkId,
    reference: movement.reference,
    metadata: movement.metadata,
    failure_code: null,
    operator_ref: operated ? randomUUID() : null,
    next_check_at: operated ? context.firstCheckAt : null,
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
      metadata: metadataOf(movement.metadata),
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

/**
 * Locks every balance the movements take from or give to, before any moves: the caller's, and
 * each recipient wallet's (storage/repositories/ledger.ts, docs/decisions/0028).
 */
function lockBalances(tx: Tx, caller: Caller, currency: string, movements: Movement[]): Promise<void> {
  const wallets = [
    caller.walletId,
    ...movements.flatMap((m) => (m.recipient.wallet ? [m.recipient.wallet.id] : [])),
  ];
  return tx.ledger.lock(wallets.map((walletId) => ({ walletId, currency })));
}

const insertPayout = defineUnit(
  import.meta.url,
  'payouts.insert',
  async (tx, a: { context: PayoutContext; plan: PayoutPlan }): Promise<PayoutRow> => {
    const movement = await movementOf(tx, a.context.caller, a.plan, null);
    await lockBalances(tx, a.context.caller, movement.currency, [movement]);
    return executePayout(tx, a.context, movement);
  },
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
    metadata: storedMetadata(input.metadata),
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
    await lockBalances(tx, caller, a.currency, movements);
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
      metadata: storedMetadata(item.metadata),
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
      recipient: {
        msisdn: payment.customer_msisdn,
        method: payment.payment_method,
        wallet: null,
        bank: null,
      },
      reference: a.input.reference ?? null,
      metadata: storedMetadata(a.input.metadata),
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

/** What a payout would do, as `createPayout` would check it, before anything is written. */
export interface PayoutPreview {
  currency: string;
  /** The stored form of the number, or the wallet's id. */
  recipient: string;
  /** The network the number routes to (null for a wallet, or a number no listed range holds). */
  network: string | null;
  available: number;
  balanceAfter: number;
}

/**
 * Payouts checked as `createPayout` checks each (its recipient, its network, its wallet, and the
 * balance that funds it after the ones before it) without writing anything, in one read: the
 * dashboard's confirmation pages. Each item gets its preview or the error `createPayout` would
 * have answered; each payout is checked again, in its own transaction, when it is sent.
 */
export async function previewPayouts(
  deps: Deps,
  caller: Caller,
  inputs: PayoutCreate[],
): Promise<Array<PayoutPreview | ApiError>> {
  const planned = inputs.map((input) => {
    const currency = input.currency ?? caller.defaultCurrency;
    try {
      return { input, currency, destination: destinationOf(deps, caller, input, '', currency) };
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
  });
  return deps.store.read(async (tx) => {
    const balances = new Map<string, number>();
    const out: Array<PayoutPreview | ApiError> = [];
    for (const plan of planned) {
      if (plan instanceof ApiError) {
        out.push(plan);
        continue;
      }
      const { input, currency, destination } = plan;
      try {
        await recipientOf(tx, caller, destination);
      } catch (error) {
        if (error instanceof ApiError) {
          out.push(error);
          continue;
        }
        throw error;
      }
      const available = balances.get(currency) ?? (await tx.ledger.available(caller.walletId, currency));
      if (available < input.amount) {
        out.push(insufficient(available, input.amount, currency));
        balances.set(currency, available);
        continue;
      }
      balances.set(currency, available - input.amount);
      out.push({
        currency,
        recipient:
          'msisdn' in destination ? destination.msisdn : (destination as { walletId: string }).walletId,
        network: 'msisdn' in destination ? destination.method : null,
        available,
        balanceAfter: available - input.amount,
      });
    }
    return out;
  });
}

/** One payout's preview (`previewPayouts`), or the error `createPayout` would answer. */
export async function previewPayout(deps: Deps, caller: Caller, input: PayoutCreate): Promise<PayoutPreview> {
  const [preview] = await previewPayouts(deps, caller, [input]);
  if (preview instanceof ApiError || preview === undefined) throw preview;
  return preview;
}
