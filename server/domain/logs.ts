import type { LogQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';
import type { CallLogRow } from '../storage/rows.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';
import { type AnyView, type ListAnswer, listPage } from './lists.js';

/** A page of the caller's call logs: its rows, or given a `view`, its response (lists.ts). */
export async function listLogs<V extends AnyView<CallLogRow> = undefined>(
  deps: Deps,
  caller: Caller,
  query: LogQuery,
  page: PageRequest,
  view?: V,
): ListAnswer<CallLogRow, V> {
  return listPage(deps, caller, 'logs', query, page, view);
}

/**
 * Writes recorded API calls: the call log's unit of work (server/http/call-log.ts), named so it
 * rides on SQLite's writer thread. Old ones are deleted by the retention pass (retention.ts).
 */
export const recordCalls = defineUnit(
  import.meta.url,
  'logs.record',
  async (tx, a: { rows: Array<Omit<CallLogRow, 'seq'>> }): Promise<void> => {
    await tx.logs.insertMany(a.rows);
  },
);
