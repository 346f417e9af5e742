/**
 * What an insert answers is the row as stored, on either engine: PostgreSQL reads it back with
 * RETURNING, SQLite builds it from what it was given (server/storage/repositories/insert-row.ts).
 * Each repository's answer is compared with the row read back on a connection of the test's own.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../server/domain/ids.js';
import type { Tx } from '../../server/storage/store.js';
import { queryRows } from '../support/database.js';
import { sandbox } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

const server = useTestServer();

const now = 1_764_000_000_123;
const inserted = <T>(work: (tx: Tx) => Promise<T>) => server.service.deps.store.transact(work);
const stored = async (table: string, id: string) =>
  (await queryRows<Record<string, unknown>>(server, `SELECT * FROM ${table} WHERE id = ?`, id))[0];

const accountId = () => server.account.accountId;
const insertService = () =>
  inserted((tx) =>
    tx.services.insert({
      id: newId('svc'),
      account_id: accountId(),
      mode: 'test',
      name: 'Rows',
      description: null,
      type: 'website',
      status: 'active',
      created_at: now,
      updated_at: now,
      deleted_at: null,
    }),
  );
const insertPayment = async () => {
  const serviceId = (await insertService()).id;
  return inserted((tx) =>
    tx.payments.insert({
      id: newId('pay'),
      account_id: accountId(),
      mode: 'test',
      amount: 2500,
      currency: 'XAF',
      status: 'initiated',
      flow: 'direct',
      payment_method: 'mtn_momo',
      customer_msisdn: sandbox.mtn.succeeds,
      service_id: serviceId,
      reference: 'rows',
      metadata: '{"cart_id":"cart-5531"}',
      failure_code: null,
      refunded_amount: 0,
      checkout_token: null,
      operator_ref: '0b7f2f4e-4f7b-4c8e-9a52-2b1f6f0c9d11',
      next_check_at: now + 5_000,
      expires_at: now + 300_000,
      created_at: now,
      updated_at: now,
      completed_at: null,
      return_url: null,
    }),
  );
};
const moneyColumns = () => ({
  account_id: accountId(),
  mode: 'test' as const,
  amount: 1000,
  currency: 'XAF',
  payment_method: 'mtn_momo',
  reference: null,
  metadata: null,
  failure_code: null,
  operator_ref: null,
  next_check_at: null,
  expires_at: now + 300_000,
  created_at: now,
  updated_at: now,
  completed_at: null,
});
const insertPayout = () =>
  inserted((tx) =>
    tx.payouts.insert({
      ...moneyColumns(),
      id: newId('po'),
      status: 'pending',
      payout_type: 'withdrawal',
      recipient_msisdn: sandbox.mtn.fails,
      recipient_wallet_id: null,
      recipient_iban: null,
      recipient_name: null,
      recipient_bic: null,
      bank_batch_id: null,
      payment_id: null,
      bulk_id: null,
    }),
  );
const insertTopup = () =>
  inserted((tx) =>
    tx.topups.insert({
      ...moneyColumns(),
      id: newId('tu'),
      status: 'initiated',
      payer_msisdn: sandbox.mtn.alsoSucceeds,
    }),
  );

describe('an insert answers the row as stored', () => {
  it('services, with every nullable column null', async () => {
    const row = await insertService();
    expect(row.seq).toBeGreaterThan(0);
    expect(row).toStrictEqual(await stored('services', row.id));
  });

  it('payments, the column the insert leaves out included', async () => {
    const row = await insertPayment();
    expect(row.operator_token).toBeNull();
    expect(row).toStrictEqual(await stored('payments', row.id));
  });

  it('payouts and top-ups', async () => {
    const payout = await insertPayout();
    expect(payout).toStrictEqual(await stored('payouts', payout.id));
    const topup = await insertTopup();
    expect(topup).toStrictEqual(await stored('topups', topup.id));
  });
});

describe('a list reads the columns the contract shows, and only those', () => {
  // What only the server uses: the account (the caller's own), the operator's reference and
  // sealed token, the next status check (server/storage/rows.ts, listedColumns).
  const serverOnly = ['account_id', 'operator_ref', 'operator_token', 'next_check_at'];
  const without = (row: Record<string, unknown> | undefined, dropped: string[]) =>
    Object.fromEntries(Object.entries(row ?? {}).filter(([name]) => !dropped.includes(name)));

  it('payments, payouts and top-ups: each listed row is its stored row without the columns only the server uses', async () => {
    const [payment, payout, topup] = [await insertPayment(), await insertPayout(), await insertTopup()];
    const page = { limit: 100 };
    const [payments, payouts, topups] = await server.service.deps.store.read(async (tx) => [
      await tx.payments.list(accountId(), 'test', {}, page),
      await tx.payouts.list(accountId(), 'test', {}, page),
      await tx.topups.list(accountId(), 'test', {}, page),
    ]);
    const listed = (items: Array<{ id: string }>, id: string) => items.filter((item) => item.id === id);
    expect(listed(payments.items, payment.id)).toStrictEqual([
      without(await stored('payments', payment.id), serverOnly),
    ]);
    // A payout's expiry is the server's too: the contract shows none.
    expect(listed(payouts.items, payout.id)).toStrictEqual([
      without(await stored('payouts', payout.id), [...serverOnly, 'expires_at']),
    ]);
    expect(listed(topups.items, topup.id)).toStrictEqual([
      without(await stored('topups', topup.id), serverOnly),
    ]);
  });
});
