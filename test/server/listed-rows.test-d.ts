/**
 * Type-level tests (checked by the typecheck stage): a list row has what the contract shows and
 * nothing only the server uses, so no list can hand an operator's token or reference on.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Payment, Payout, Topup } from '../../generated/openapi.js';
import { toPayment, toPayout, toTopup } from '../../server/http/representations.js';
import type { ListedPaymentRow, ListedPayoutRow, ListedTopupRow } from '../../server/storage/rows.js';

type ServerOnly = 'account_id' | 'operator_ref' | 'operator_token' | 'next_check_at';

describe('listed rows', () => {
  it('leave out the columns only the server uses', () => {
    expectTypeOf<Extract<keyof ListedPaymentRow, ServerOnly>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof ListedPayoutRow, ServerOnly>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof ListedTopupRow, ServerOnly>>().toEqualTypeOf<never>();
  });

  it('are enough for the contract representation', () => {
    expectTypeOf(toPayment).parameter(0).toEqualTypeOf<ListedPaymentRow>();
    expectTypeOf(toPayment).returns.toEqualTypeOf<Payment>();
    expectTypeOf(toPayout).parameter(0).toEqualTypeOf<ListedPayoutRow>();
    expectTypeOf(toPayout).returns.toEqualTypeOf<Payout>();
    expectTypeOf(toTopup).parameter(0).toEqualTypeOf<ListedTopupRow>();
    expectTypeOf(toTopup).returns.toEqualTypeOf<Topup>();
  });
});
