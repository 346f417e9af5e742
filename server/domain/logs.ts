import type { Condition, PageRequest } from '../storage/pagination.js';
import type { CallLogRow } from '../storage/rows.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';
import { type AnyView, type ListAnswer, listPage } from './lists.js';
import { timeConditions } from './payments.js';

export interface LogFilters {
  method?: string | undefined;
  path?: string | undefined;
  status?: number | undefined;
  status_class?: string | undefined;
  error_code?: string | undefined;
  request_id?: string | undefined;
  created_gte?: number | undefined;
  created_lt?: number | undefined;
}

/** A page of the caller's call logs: its rows, or given a `view`, its response (lists.ts). */
export async function listLogs<V extends AnyView<CallLogRow> = undefined>(
  deps: Deps,
  caller: Caller,
  filters: LogFilters,
  page: PageRequest,
  view?: V,
): ListAnswer<CallLogRow, V> {
  const conditions: Condition[] = timeConditions(filters);
  if (filters.method) conditions.push(['method = ?', filters.method]);
  if (filters.path) conditions.push(['path = ?', filters.path]);
  if (filters.status !== undefined) conditions.push(['status = ?', filters.status]);
  if (filters.status_class) {
    const base = Number(filters.status_class[0]) * 100;
    conditions.push(['status >= ? AND status < ?', base, base + 100]);
  }
  if (filters.error_code) conditions.push(['error_code = ?', filters.error_code]);
  if (filters.request_id) conditions.push(['request_id = ?', filters.request_id]);
  return listPage(deps, caller, 'logs', conditions, page, view);
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
