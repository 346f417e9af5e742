import type { Db } from '../database.js';
import type { Condition, PageRequest, Pager } from '../pagination.js';
import type { BalanceRow, LedgerRow } from '../rows.js';

/**
 * The Main Balance and its append-only ledger. The balance is never written directly: a
 * trigger moves it with each ledger row, another refuses a row that does not continue it, and
 * a CHECK keeps it from going below zero (see migrations/001_initial.sql).
 */
export function ledgerRepository(db: Db, page: Pager) {
  const available = db.prepare('SELECT available FROM balances WHERE wallet_id = ? AND currency = ?');
  const balances = db.prepare(
    'SELECT currency, available FROM balances WHERE wallet_id = ? ORDER BY currency',
  );
  const append = db.prepare(
    `INSERT INTO ledger_entries (id, wallet_id, currency, type, amount, balance_after, source_id, description, created_at)
     VALUES (@id, @wallet_id, @currency, @type, @amount, @balance_after, @source_id, @description, @created_at)`,
  );
  const rangeChunk = db.prepare(
    `SELECT * FROM ledger_entries WHERE wallet_id = ? AND created_at >= ? AND created_at < ?
       AND (? IS NULL OR currency = ?) AND seq > ? ORDER BY seq LIMIT ?`,
  );
  const sums = db.prepare(
    `SELECT b.wallet_id, b.currency, b.available, COALESCE(SUM(l.amount), 0) AS ledger_sum
       FROM balances b LEFT JOIN ledger_entries l ON l.wallet_id = b.wallet_id AND l.currency = b.currency
      GROUP BY b.wallet_id, b.currency`,
  );

  return {
    available(walletId: string, currency: string): number {
      const row = available.get(walletId, currency) as { available: number } | undefined;
      return row?.available ?? 0;
    },
    balances(walletId: string): BalanceRow[] {
      return balances.all(walletId) as BalanceRow[];
    },
    append(row: Omit<LedgerRow, 'seq'>): void {
      append.run(row);
    },
    list(walletId: string, filters: Condition[], request: PageRequest) {
      return page<LedgerRow>('ledger_entries', [['wallet_id = ?', walletId], ...filters], request);
    },
    /** The next `limit` entries of a period after `afterSeq`, oldest first. */
    rangeChunk(
      walletId: string,
      range: { from: number; to: number; currency: string | null },
      afterSeq: number,
      limit: number,
    ): LedgerRow[] {
      const { from, to, currency } = range;
      return rangeChunk.all(walletId, from, to, currency, currency, afterSeq, limit) as LedgerRow[];
    },
    /** Every balance beside the sum of its ledger: the invariant the tests check. */
    reconcile(): Array<{ wallet_id: string; currency: string; available: number; ledger_sum: number }> {
      return sums.all() as Array<{
        wallet_id: string;
        currency: string;
        available: number;
        ledger_sum: number;
      }>;
    },
  };
}
