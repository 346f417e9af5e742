import { randomUUID } from 'node:crypto';
import type { TopupCreate } from '../../generated/openapi.js';
import type { Condition, PageRequest } from '../storage/pagination.js';
import type { ListedTopupRow, TopupRow } from '../storage/rows.js';
import type { Caller, Deps } from './context.js';
import { notFound } from './errors.js';
import { newId } from './ids.js';
import { type AnyView, type ListAnswer, listPage } from './lists.js';
import { askOperator, routeRequest } from './operator-requests.js';
import { timeConditions } from './payments.js';
import { settleTopup } from './settlement.js';
import { commit } from './transaction.js';
import type { Answer } from './write.js';

/** Pulls money from the account owner's Mobile Money account into the Main Balance. */
export async function createTopup(
  deps: Deps,
  caller: Caller,
  input: TopupCreate,
  answer?: Answer<TopupRow>,
): Promise<TopupRow> {
  const topup = await commit(deps, caller, answer, async (tx, now) => {
    routeRequest(deps, caller.mode, input.payer_msisdn, input.payment_method, 'payment_method');
    const row: Omit<TopupRow, 'seq' | 'operator_token'> = {
      id: newId('tu'),
      account_id: caller.accountId,
      mode: caller.mode,
      amount: input.amount,
      currency: input.currency,
      status: 'initiated',
      payer_msisdn: input.payer_msisdn,
      payment_method: input.payment_method,
      reference: input.reference ?? null,
      failure_code: null,
      operator_ref: randomUUID(),
      next_check_at: now,
      expires_at: now + deps.config.paymentExpirySeconds * 1000,
      created_at: now,
      updated_at: now,
      completed_at: null,
    };
    return tx.topups.insert(row);
  });
  await askOperator(
    deps,
    'collection',
    {
      transactionId: topup.id,
      table: 'topups',
      mode: topup.mode,
      operatorRef: topup.operator_ref as string,
      amount: topup.amount,
      currency: topup.currency,
      msisdn: topup.payer_msisdn,
      paymentMethod: topup.payment_method,
      operatorToken: topup.operator_token,
    },
    (tx, failureCode, now) => settleTopup(tx, topup, { status: 'failed', failureCode }, now),
  );
  return topup;
}

export async function getTopup(deps: Deps, caller: Caller, id: string): Promise<TopupRow> {
  const row = await deps.store.read(async (tx) => tx.topups.get(caller.accountId, caller.mode, id));
  if (!row) throw notFound('top-up', id);
  return row;
}

/** A page of the caller's top-ups: its rows, or given a `view`, its response (lists.ts). */
export async function listTopups<V extends AnyView<ListedTopupRow> = undefined>(
  deps: Deps,
  caller: Caller,
  filters: { status?: string | undefined; created_gte?: number | undefined; created_lt?: number | undefined },
  page: PageRequest,
  view?: V,
): ListAnswer<ListedTopupRow, V> {
  const conditions: Condition[] = timeConditions(filters);
  if (filters.status) conditions.push(['status = ?', filters.status]);
  return listPage(deps, caller, 'topups', conditions, page, view);
}
