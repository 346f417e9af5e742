import type { OperatorKind, OperatorStatus } from '../operators/operator.js';
import type { Mode, PaymentRow, PayoutRow, TopupRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import type { Deps } from './context.js';
import { recordEvent } from './events.js';
import { credit } from './ledger.js';

/**
 * Applies operator outcomes to pending payments, top-ups and payouts. Every transition is a
 * compare-and-set on the pending state inside one transaction with its ledger rows and its
 * event, so two workers (or two processes) can never apply the same outcome twice.
 */
export type Final = { status: 'success' } | { status: 'failed'; failureCode: string } | { status: 'expired' };

function walletOf(tx: Tx, accountId: string, mode: Mode): string {
  const wallet = tx.accounts.wallet(accountId, mode);
  if (!wallet) throw new Error(`account ${accountId} has no ${mode} wallet`);
  return wallet.id;
}

function outcome(
  row: { id: string; amount: number; currency: string; reference: string | null },
  final: Final,
) {
  return {
    transaction_id: row.id,
    amount: row.amount,
    currency: row.currency,
    status: final.status,
    reference: row.reference,
    failure_code: final.status === 'failed' ? final.failureCode : null,
  };
}

export function settlePayment(tx: Tx, payment: PaymentRow, final: Final, now: number): boolean {
  const failureCode = final.status === 'failed' ? final.failureCode : null;
  if (!tx.payments.finish(payment.id, final.status, failureCode, now)) return false;
  if (final.status === 'success') {
    credit(tx, {
      walletId: walletOf(tx, payment.account_id, payment.mode),
      currency: payment.currency,
      amount: payment.amount,
      type: 'payment',
      sourceId: payment.id,
      description: `Payment from ${payment.customer_msisdn}`,
      now,
    });
  }
  const name = final.status === 'success' ? 'payment.completed' : `payment.${final.status}`;
  recordEvent(
    tx,
    payment.account_id,
    payment.mode,
    name as 'payment.completed',
    outcome(payment, final),
    now,
  );
  return true;
}

export function settleTopup(tx: Tx, topup: TopupRow, final: Final, now: number): boolean {
  const failureCode = final.status === 'failed' ? final.failureCode : null;
  if (!tx.topups.finish(topup.id, final.status, failureCode, now)) return false;
  if (final.status === 'success') {
    credit(tx, {
      walletId: walletOf(tx, topup.account_id, topup.mode),
      currency: topup.currency,
      amount: topup.amount,
      type: 'topup',
      sourceId: topup.id,
      description: `Top-up from ${topup.payer_msisdn}`,
      now,
    });
  }
  const name = final.status === 'success' ? 'topup.completed' : `topup.${final.status}`;
  recordEvent(tx, topup.account_id, topup.mode, name as 'topup.completed', outcome(topup, final), now);
  return true;
}

/** A failed payout gives its amount back to the balance (and to its payment, for a refund). */
export function settlePayout(tx: Tx, payout: PayoutRow, final: Final, now: number): boolean {
  const status = final.status === 'success' ? 'success' : 'failed';
  const failureCode =
    final.status === 'failed' ? final.failureCode : final.status === 'expired' ? 'operator_timeout' : null;
  if (!tx.payouts.finish(payout.id, status, failureCode, now)) return false;
  if (status === 'failed') {
    credit(tx, {
      walletId: walletOf(tx, payout.account_id, payout.mode),
      currency: payout.currency,
      amount: payout.amount,
      type: 'payout_reversal',
      sourceId: payout.id,
      description: `Reversal of failed ${payout.payout_type} ${payout.id}`,
      now,
    });
    if (payout.payment_id) tx.payments.addRefunded(payout.payment_id, -payout.amount, now);
  }
  const event = status === 'success' ? 'payout.completed' : 'payout.failed';
  const data = outcome(
    payout,
    status === 'success' ? final : { status: 'failed', failureCode: failureCode as string },
  );
  recordEvent(tx, payout.account_id, payout.mode, event, data, now);
  return true;
}

function finalFrom(status: OperatorStatus): Final | null {
  if (status.state === 'success') return { status: 'success' };
  if (status.state === 'failed') return { status: 'failed', failureCode: status.failureCode };
  return null;
}

interface Pending {
  id: string;
  operator_ref: string | null;
  expires_at: number;
}

/**
 * One pass of the settlement worker: asks the operator about every due item, applies final
 * outcomes, expires what waited too long, and schedules the rest for another look.
 * Returns how many items reached a final state.
 */
export async function settleDue(deps: Deps, batchSize = 100): Promise<number> {
  const now = deps.clock.now();
  const { store, operators, config } = deps;
  const recheckAt = now + config.settlementPollMs;

  const { payments, topups, payouts } = await store.read((tx) => {
    const byId = <T extends { id: string }>(rows: T[]) => [...new Map(rows.map((r) => [r.id, r])).values()];
    return {
      payments: byId([...tx.payments.due(now, batchSize), ...tx.payments.expired(now, batchSize)]),
      topups: byId([...tx.topups.due(now, batchSize), ...tx.topups.expired(now, batchSize)]),
      payouts: tx.payouts.due(now, batchSize),
    };
  });

  // A hosted payment's charge starts when the customer pays (its updated_at while pending).
  const look = async (
    kind: OperatorKind,
    row: Pending & { mode: Mode },
    msisdn: string | null,
    initiatedAt: number,
  ): Promise<Final | null> => {
    if (row.operator_ref && msisdn) {
      const status = await operators[row.mode].status(kind, {
        operatorRef: row.operator_ref,
        msisdn,
        initiatedAt,
      });
      const final = finalFrom(status);
      if (final) return final;
    }
    return row.expires_at <= now ? { status: 'expired' } : null;
  };

  let settled = 0;
  for (const payment of payments) {
    const final = await look('collection', payment, payment.customer_msisdn, payment.updated_at);
    settled += Number(
      await store.transact((tx) => {
        if (final) return settlePayment(tx, payment, final, now);
        tx.payments.recheckLater(payment.id, recheckAt);
        return false;
      }),
    );
  }
  for (const topup of topups) {
    const final = await look('collection', topup, topup.payer_msisdn, topup.created_at);
    settled += Number(
      await store.transact((tx) => {
        if (final) return settleTopup(tx, topup, final, now);
        tx.topups.recheckLater(topup.id, recheckAt);
        return false;
      }),
    );
  }
  for (const payout of payouts) {
    const final = await look('disbursement', payout, payout.recipient_msisdn, payout.created_at);
    settled += Number(
      await store.transact((tx) => {
        if (final) return settlePayout(tx, payout, final, now);
        tx.payouts.recheckLater(payout.id, recheckAt);
        return false;
      }),
    );
  }
  return settled;
}
