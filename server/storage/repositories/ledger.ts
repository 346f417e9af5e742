import { conditionsOf, type LedgerQuery, ledgerFilters } from '../list-filters.js';
import type { PageRequest, Pager } from '../pagination.js';
import type { BalanceRow, LedgerRow } from '../rows.js';
import type { SqlConnection } from '../sql.js';

/** One Main Balance: a wallet's money in one currency, the row a movement locks. */
export interface BalanceKey {
  walletId: string;
  currency: string;
}

const keyOf = (walletId: string, currency: string) => `${walletId}\u0000${currency}`;

/**
 * The Main Balance and its append-only ledger. The balance is never written directly: a
 * trigger moves it with each ledger row, another refuses a row that does not continue it, and
 * a CHECK keeps it from going below zero (see sqlite/migrations/001_initial.sql).
 *
 * On PostgreSQL, units of work run side by side and each ledger row locks its balance row: a unit
 * that moves several balances locks them all first, with `lock`, in one order every unit shares
 * (docs/decisions/0028-balances-locked-in-one-order.md). This repository is built for each
 * transaction there, so it knows what its unit locked, and refuses a movement of a balance taken
 * out of that order: a programming error that any test of the unit on PostgreSQL shows. SQLite
 * runs one unit at a time: the writer's lock is the only one, and `lock` has nothing to do.
 */
export function ledgerRepository(connection: SqlConnection, page: Pager) {
  const ordered = connection.dialect === 'postgres';
  // Creates the rows that do not exist yet and locks them all, in the database's order of
  // (wallet_id, currency): the same for every transaction. DO UPDATE ... WHERE FALSE locks each
  // existing row without writing it. Under SERIALIZABLE, a row another unit moved since this
  // one's snapshot fails it with 40001, and the store runs it again (postgres/store.ts).
  const lockRows = connection.prepare(
    `INSERT INTO balances (wallet_id, currency, available)
     SELECT wanted.wallet_id, wanted.currency, 0
       FROM UNNEST(CAST(? AS TEXT[]), CAST(? AS TEXT[])) AS wanted (wallet_id, currency)
      ORDER BY wanted.wallet_id, wanted.currency
     ON CONFLICT (wallet_id, currency) DO UPDATE SET available = balances.available WHERE FALSE`,
  );
  /** The balances this transaction locked (PostgreSQL only), by `keyOf`. */
  const held = new Set<string>();
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
    /**
     * Locks every balance the unit is about to move, in one global order, before it moves any
     * (a unit that moves a single balance may leave it to its ledger row, which locks it).
     */
    async lock(balances: BalanceKey[]): Promise<void> {
      if (!ordered) return;
      const wanted = [...new Map(balances.map((b) => [keyOf(b.walletId, b.currency), b])).entries()];
      const fresh = wanted.filter(([key]) => !held.has(key));
      if (fresh.length === 0) return;
      if (held.size > 0) {
        throw new Error('ledger.lock: this unit already locked a balance; lock them all at once, first');
      }
      await lockRows.run(
        fresh.map(([, b]) => b.walletId),
        fresh.map(([, b]) => b.currency),
      );
      for (const [key] of fresh) held.add(key);
    },
    async append(row: Omit<LedgerRow, 'seq'>): Promise<void> {
      if (ordered) {
        const key = keyOf(row.wallet_id, row.currency);
        if (!held.has(key)) {
          if (held.size > 0) {
            throw new Error(
              `ledger.append: balance ${row.wallet_id} ${row.currency} moved without its lock; ` +
                'a unit that moves several balances locks them all first (ledger.lock)',
            );
          }
          held.add(key); // its only balance: the row's trigger locks it
        }
      }
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
