import type { ServiceCreate, ServiceUpdate } from '../../generated/openapi.js';
import type { ServiceQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';
import type { ServiceRow } from '../storage/rows.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound } from './errors.js';
import { newId } from './ids.js';
import { type AnyView, type ListAnswer, listPage } from './lists.js';
import { type Answer, write } from './write.js';

export async function createService(
  deps: Deps,
  caller: Caller,
  input: ServiceCreate,
  answer?: Answer<ServiceRow>,
): Promise<ServiceRow> {
  const now = deps.clock.now();
  const row: Omit<ServiceRow, 'seq'> = {
    id: newId('svc'),
    account_id: caller.accountId,
    mode: caller.mode,
    name: input.name,
    description: input.description ?? null,
    type: input.type ?? 'other',
    status: 'active',
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  return write(deps, insertService, row, answer);
}

const insertService = defineUnit(
  import.meta.url,
  'services.insert',
  (tx, row: Omit<ServiceRow, 'seq'>): Promise<ServiceRow> => tx.services.insert(row),
);

export async function getService(deps: Deps, caller: Caller, id: string): Promise<ServiceRow> {
  const row = await deps.store.read(async (tx) => tx.services.get(caller.accountId, caller.mode, id));
  if (!row) throw notFound('service', id);
  return row;
}

/**
 * A page of the caller's services: its rows, or given a `view`, its response (lists.ts).
 * Deleted ones only when the query asks for them.
 */
export async function listServices<V extends AnyView<ServiceRow> = undefined>(
  deps: Deps,
  caller: Caller,
  query: ServiceQuery,
  page: PageRequest,
  view?: V,
): ListAnswer<ServiceRow, V> {
  return listPage(deps, caller, 'services', query, page, view);
}

/** Changes the given fields; a deleted service can no longer change. */
export async function updateService(
  deps: Deps,
  caller: Caller,
  id: string,
  changes: ServiceUpdate,
): Promise<ServiceRow> {
  return write(deps, changeService, { caller, id, changes, now: deps.clock.now() });
}

const changeService = defineUnit(
  import.meta.url,
  'services.change',
  async (tx, a: { caller: Caller; id: string; changes: ServiceUpdate; now: number }): Promise<ServiceRow> => {
    const row = await tx.services.get(a.caller.accountId, a.caller.mode, a.id);
    if (!row) throw notFound('service', a.id);
    if (row.status === 'deleted') {
      throw new ApiError(409, 'service_deleted', `The service ${a.id} is deleted and can no longer change.`);
    }
    const updated: ServiceRow = {
      ...row,
      name: a.changes.name ?? row.name,
      description: a.changes.description === undefined ? row.description : a.changes.description,
      type: a.changes.type ?? row.type,
      status: a.changes.status ?? row.status,
      updated_at: a.now,
    };
    await tx.services.update(updated);
    return updated;
  },
);

/** Deletes a service: it keeps its history and stays readable; deleting again changes nothing. */
export async function deleteService(deps: Deps, caller: Caller, id: string): Promise<ServiceRow> {
  return write(deps, removeService, { caller, id, now: deps.clock.now() });
}

const removeService = defineUnit(
  import.meta.url,
  'services.delete',
  async (tx, a: { caller: Caller; id: string; now: number }): Promise<ServiceRow> => {
    const row = await tx.services.get(a.caller.accountId, a.caller.mode, a.id);
    if (!row) throw notFound('service', a.id);
    if (row.status === 'deleted') return row;
    const deleted: ServiceRow = { ...row, status: 'deleted', updated_at: a.now, deleted_at: a.now };
    await tx.services.update(deleted);
    return deleted;
  },
);
