import type { LedgerQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';
import type { LedgerRow } from '../storage/rows.js';
import type { Caller, Deps } from './context.js';

export async function getBalance(deps: Deps, caller: Caller) {
  const balances = await deps.store.read(async (tx) => tx.ledger.balances(caller.walletId));
  if (!balances.some((b) => b.currency === caller.defaultCurrency)) {
    balances.unshift({ currency: caller.defaultCurrency, available: 0 });
  }
  return { walletId: caller.walletId, balances };
}

/** A page of the caller's balance transactions, filtered by the list's query. */
export async function listLedger(deps: Deps, caller: Caller, query: LedgerQuery, page: PageRequest) {
  return deps.store.read(async (tx) => tx.ledger.list(caller.walletId, query, page));
}

/**
 * The ledger entries of a period, oldest first, read in chunks of `chunkSize`: a large export
 * never sits in memory whole, and never holds the database between chunks.
 */
export async function* iterateLedger(
  deps: Deps,
  caller: Caller,
  range: { from: number; to: number; currency: string | null },
  chunkSize = 1000,
): AsyncGenerator<LedgerRow> {
  let afterSeq = 0;
  for (;;) {
    const chunk = await deps.store.read(async (tx) =>
      tx.ledger.rangeChunk(caller.walletId, range, afterSeq, chunkSize),
    );
    yield* chunk;
    const last = chunk[chunk.length - 1];
    if (!last || chunk.length < chunkSize) return;
    afterSeq = last.seq;
  }
}
