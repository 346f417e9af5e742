import type { Condition, Page, PageRequest } from '../storage/pagination.js';
import type { Mode } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';

/** The lists of an account's own records in one mode, each read a page at a time. */
type AccountList = 'payments' | 'payouts' | 'topups' | 'services' | 'logs';

/**
 * A page of one of the caller's lists: a named read (server/storage/unit.ts), so on SQLite the
 * statement and its rows are the reader thread's work and the event loop only copies the page
 * (reading them was about a third of a list request's time, docs/benchmarks.md). The conditions
 * are the domain's SQL with their values, never text from the request.
 */
export const accountPage = defineUnit(
  'lists.account-page',
  (
    tx,
    a: { list: AccountList; accountId: string; mode: Mode; conditions: Condition[]; page: PageRequest },
  ): Promise<Page<unknown>> => {
    const repository: { list(...args: [string, Mode, Condition[], PageRequest]): Promise<Page<unknown>> } =
      tx[a.list];
    return repository.list(a.accountId, a.mode, a.conditions, a.page);
  },
);

export function pageOfList<L extends AccountList>(
  deps: Deps,
  caller: Caller,
  list: L,
  conditions: Condition[],
  page: PageRequest,
): ReturnType<Tx[L]['list']> {
  const args = { list, accountId: caller.accountId, mode: caller.mode, conditions, page };
  return deps.store.view(accountPage, args) as ReturnType<Tx[L]['list']>;
}
