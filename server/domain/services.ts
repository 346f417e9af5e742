import type { ServiceCreate, ServiceUpdate } from '../../generated/openapi.js';
import type { Condition, PageRequest } from '../storage/pagination.js';
import type { ServiceRow } from '../storage/rows.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound } from './errors.js';
import { newId } from './ids.js';
import { type AnyView, type ListAnswer, listPage } from './lists.js';
import { commit } from './transaction.js';
import type { Answer } from './write.js';

export async function createService(
  deps: Deps,
  caller: Caller,
  input: ServiceCreate,
  answer?: Answer<ServiceRow>,
): Promise<ServiceRow> {
  return commit(deps, caller, answer, async (tx, now) => {
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
    return tx.services.insert(row);
  });
}

export async function getService(deps: Deps, caller: Caller, id: string): Promise<ServiceRow> {
  const row = await deps.store.read(async (tx) => tx.services.get(caller.accountId, caller.mode, id));
  if (!row) throw notFound('service', id);
  return row;
}

/** A page of the caller's services: its rows, or given a `view`, its response (lists.ts). */
export async function listServices<V extends AnyView<ServiceRow> = undefined>(
  deps: Deps,
  caller: Caller,
  filters: { status?: ServiceRow['status'] | undefined },
  page: PageRequest,
  view?: V,
): ListAnswer<ServiceRow, V> {
  const conditions: Condition[] = [filters.status ? ['status = ?', filters.status] : ["status <> 'deleted'"]];
  return listPage(deps, caller, 'services', conditions, page, view);
}

/** Changes the given fields; a deleted service can no longer change. */
export async function updateService(
  deps: Deps,
  caller: Caller,
  id: string,
  changes: ServiceUpdate,
): Promise<ServiceRow> {
  return commit(deps, caller, undefined, async (tx, now) => {
    const row = await tx.services.get(caller.accountId, caller.mode, id);
    if (!row) throw notFound('service', id);
    if (row.status === 'deleted') {
      throw new ApiError(409, 'service_deleted', `The service ${id} is deleted and can no longer change.`);
    }
    const updated: ServiceRow = {
      ...row,
      name: changes.name ?? row.name,
      description: changes.description === undefined ? row.description : changes.description,
      type: changes.type ?? row.type,
      status: changes.status ?? row.status,
      updated_at: now,
    };
    await tx.services.update(updated);
    return updated;
  });
}

/** Deletes a service: it keeps its history and stays readable; deleting again changes nothing. */
export async function deleteService(deps: Deps, caller: Caller, id: string): Promise<ServiceRow> {
  return commit(deps, caller, undefined, async (tx, now) => {
    const row = await tx.services.get(caller.accountId, caller.mode, id);
    if (!row) throw notFound('service', id);
    if (row.status === 'deleted') return row;
    const deleted: ServiceRow = { ...row, status: 'deleted', updated_at: now, deleted_at: now };
    await tx.services.update(deleted);
    return deleted;
  });
}
