import { randomUUID } from 'node:crypto';
import type { TopupCreate } from '../../generated/openapi.js';
import type { TopupQuery } from '../storage/list-filters.js';
import type { PageRequest } from '../storage/pagination.js';
import type { ListedTopupRow, TopupRow } from '../storage/rows.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';
import { notFound } from './errors.js';
import { newId } from './ids.js';
import { type AnyView, type ListAnswer, listPage } from './lists.js';
import { storedMetadata } from './metadata.js';
import { normaliseMsisdn } from './msisdn.js';
import { askOperator, firstStatusCheckAt, routeRequest } from './operator-requests.js';
import { settleRefused } from './settlement.js';
import { type Answer, write } from './write.js';

const insertTopup = defineUnit(
  import.meta.url,
  'topups.insert',
  (tx, row: Omit<TopupRow, 'seq' | 'operator_token'>): Promise<TopupRow> => tx.topups.insert(row),
);

/** Pulls money from the account owner's Mobile Money account into the Main Balance. */
export async function createTopup(
  deps: Deps,
  caller: Caller,
  input: TopupCreate,
  answer?: Answer<TopupRow>,
): Promise<TopupRow> {
  const payerMsisdn = normaliseMsisdn(input.payer_msisdn, 'payer_msisdn');
  routeRequest(
    deps,
    caller.mode,
    { msisdn: payerMsisdn, paymentMethod: input.payment_method, currency: input.currency },
    'payment_method',
  );
  const now = deps.clock.now();
  const row: Omit<TopupRow, 'seq' | 'operator_token'> = {
    id: newId('tu'),
    account_id: caller.accountId,
    mode: caller.mode,
    amount: input.amount,
    currency: input.currency,
    status: 'initiated',
    payer_msisdn: payerMsisdn,
    payment_method: input.payment_method,
    reference: input.reference ?? null,
    metadata: storedMetadata(input.metadata),
    failure_code: null,
    operator_ref: randomUUID(),
    next_check_at: firstStatusCheckAt(deps, caller.mode, now),
    expires_at: now + deps.config.paymentExpirySeconds * 1000,
    created_at: now,
    updated_at: now,
    completed_at: null,
  };
  const topup = await write(deps, insertTopup, row, answer);
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
    (failureCode) => settleRefused(deps, 'topups', topup, failureCode),
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
  query: TopupQuery,
  page: PageRequest,
  view?: V,
): ListAnswer<ListedTopupRow, V> {
  return listPage(deps, caller, 'topups', query, page, view);
}
