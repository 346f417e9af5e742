import { conditionsOf, type LedgerQuery, ledgerFilters } from '../list-filters.js';
import type { PageRequest, Pager } from '../pagination.js';
import type { BalanceRow, LedgerRow } from '../rows.js';
import type { SqlConnection } from '../sql.js';

/**
 * The Main Balance and its append-only ledger. The balance is never written directly: a
 * trigger moves it with each ledger row, another refuses a row that does not continue it, and
 * a CHECK keeps it from going below zero (see sqlite/migrations/001_initial.sql).
 */
export function ledgerRepository(connection: SqlConnection, page: Pager) {
  const available = connection.prepare<{ available: number }>(
    'SELECT available FROM balances WHERE wallet_id = ? AND currency = ?',
  );
  const balances = connection.prepare<BalanceRow>(
    'SELECT currency, available FROM balances WHERE wallet_id = ? ORDER BY currency',
  );
  const append = connection.prepare(
    `INSERT INTO ledger_entries (id, wallet_id, currency, type, amount, balance_after, source_id, description, created_at)
     VALUES (@id, @wallet_id, @currency, @type, @amount, @balance_after, @source_id, @description, @created_at)`,
  );
  // The CAST gives PostgreSQL the type of a value it sees only compared with NULL.
  const rangeChunk = connection.prepare<LedgerRow>(
    `SELECT * FROM ledger_entries WHERE wallet_id = ? AND created_at >= ? AND created_at < ?
       AND (CAST(? AS TEXT) IS NULL OR currency = ?) AND seq > ? ORDER BY seq LIMIT ?`,
  );
  // PostgreSQL sums integers as numeric, which its driver hands back as text: cast to an integer.
  const sums = connection.prepare<{
    wallet_id: string;
    currency: string;
    available: number;
    ledger_sum: number;
  }>(
    `SELECT b.wallet_id, b.currency, b.available, CAST(COALESCE(SUM(l.amount), 0) AS BIGINT) AS ledger_sum
       FROM balances b LEFT JOIN ledger_entries l ON l.wallet_id = b.wallet_id AND l.currency = b.currency
      GROUP BY b.wallet_id, b.currency, b.available`,
  );

  return {
    async available(walletId: string, currency: string): Promise<number> {
      const row = await available.get(walletId, currency);
      return row?.available ?? 0;
    },
    async balances(walletId: string): Promise<BalanceRow[]> {
      return balances.all(walletId);
    },
    async append(row: Omit<LedgerRow, 'seq'>): Promise<void> {
      await append.run(row);
    },
    /** A page of a wallet's entries, filtered by the list's query (list-filters.ts). */
    async list(walletId: string, query: LedgerQuery, request: PageRequest) {
      return page<LedgerRow>(
        'ledger_entries',
        [['wallet_id = ?', walletId], ...conditionsOf(ledgerFilters, query)],
        request,
      );
    },
    /** The next `limit` entries of a period after `afterSeq`, oldest first. */
    async rangeChunk(
      walletId: string,
      range: { from: number; to: number; currency: string | null },
      afterSeq: number,
      limit: number,
    ): Promise<LedgerRow[]> {
      const { from, to, currency } = range;
      return rangeChunk.all(walletId, from, to, currency, currency, afterSeq, limit);
    },
    /** Every balance beside the sum of its ledger: the invariant the tests check. */
    async reconcile(): Promise<
      Array<{ wallet_id: string; currency: string; available: number; ledger_sum: number }>
    > {
      return sums.all();
    },
  };
}
