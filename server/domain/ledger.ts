import type { LedgerType } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { newId } from './ids.js';

export interface Movement {
  walletId: string;
  currency: string;
  amount: number;
  type: LedgerType;
  sourceId: string;
  description: string;
  now: number;
}

/** Adds money to a wallet: one ledger row; the balance follows it (database trigger). */
export async function credit(tx: Tx, m: Movement): Promise<void> {
  const before = await tx.ledger.available(m.walletId, m.currency);
  await tx.ledger.append({
    id: newId('btx'),
    wallet_id: m.walletId,
    currency: m.currency,
    type: m.type,
    amount: m.amount,
    balance_after: before + m.amount,
    source_id: m.sourceId,
    description: m.description,
    created_at: m.now,
  });
}

/**
 * Takes money from a wallet if it holds enough; returns what was available when it does not.
 * Inside a write transaction the read and the write cannot be separated by another writer.
 */
export async function debit(tx: Tx, m: Movement): Promise<{ ok: true } | { ok: false; available: number }> {
  const before = await tx.ledger.available(m.walletId, m.currency);
  if (before < m.amount) return { ok: false, available: before };
  await tx.ledger.append({
    id: newId('btx'),
    wallet_id: m.walletId,
    currency: m.currency,
    type: m.type,
    amount: -m.amount,
    balance_after: before - m.amount,
    source_id: m.sourceId,
    description: m.description,
    created_at: m.now,
  });
  return { ok: true };
}
