/**
 * What an insert answers is the row as stored, on either engine: PostgreSQL reads it back with
 * RETURNING, SQLite builds it from what it was given (server/storage/repositories/insert-row.ts).
 * Each repository's answer is compared with the row read back on a connection of the test's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/domain/ids.js';
import type { Tx } from '../../server/storage/store.js';
import { queryRows } from '../support/database.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const now = 1_764_000_000_123;
const inserted = <T>(work: (tx: Tx) => Promise<T>) => server.service.deps.store.transact(work);
const stored = async (table: string, id: string) =>
  (await queryRows<Record<string, unknown>>(server, `SELECT * FROM ${table} WHERE id = ?`, id))[0];

describe('an insert answers the row as stored', () => {
  const accountId = () => server.account.accountId;
  const service = () =>
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

  it('services, with every nullable column null', async () => {
    const row = await service();
    expect(row.seq).toBeGreaterThan(0);
    expect(row).toStrictEqual(await stored('services', row.id));
  });

  it('payments, the column the insert leaves out included', async () => {
    const serviceId = (await service()).id;
    const row = await inserted((tx) =>
      tx.payments.insert({
        id: newId('pay'),
        account_id: accountId(),
        mode: 'test',
        amount: 2500,
        currency: 'XAF',
        status: 'initiated',
        flow: 'direct',
        payment_method: 'mtn_momo',
        customer_msisdn: '237670000000',
        service_id: serviceId,
        reference: 'rows',
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
    expect(row.operator_token).toBeNull();
    expect(row).toStrictEqual(await stored('payments', row.id));
  });

  it('payouts and top-ups', async () => {
    const common = {
      account_id: accountId(),
      mode: 'test' as const,
      amount: 1000,
      currency: 'XAF',
      payment_method: 'mtn_momo',
      reference: null,
      failure_code: null,
      operator_ref: null,
      next_check_at: null,
      expires_at: now + 300_000,
      created_at: now,
      updated_at: now,
      completed_at: null,
    };
    const payout = await inserted((tx) =>
      tx.payouts.insert({
        ...common,
        id: newId('po'),
        status: 'pending',
        payout_type: 'withdrawal',
        recipient_msisdn: '237670000001',
        recipient_wallet_id: null,
        payment_id: null,
        bulk_id: null,
      }),
    );
    expect(payout).toStrictEqual(await stored('payouts', payout.id));
    const topup = await inserted((tx) =>
      tx.topups.insert({ ...common, id: newId('tu'), status: 'initiated', payer_msisdn: '237670000002' }),
    );
    expect(topup).toStrictEqual(await stored('topups', topup.id));
  });
});
