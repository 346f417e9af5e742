import { describe, expect, it } from 'vitest';
import type { Credentials } from '../support/api.js';
import { balanceOf, fund, sandbox, sandboxBank } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';
import { camt054, schemaErrors } from './iso20022.js';

const server = useTestServer();

const to = (iban: string, holder_name = 'Awa Ngono') => ({ iban, holder_name });

async function bankPayout(amount: number, iban: string, as: Credentials = server.test) {
  const response = await server.raw('POST', '/payouts', {
    as,
    body: { amount, recipient_bank_account: to(iban), payout_type: 'withdrawal', reference: `r-${amount}` },
  });
  expect(response.status).toBe(202);
  return response.body.data.transaction_id as string;
}

async function payout(id: string, as: Credentials = server.test) {
  return (await server.raw('GET', `/payouts/${id}`, { as })).body.data;
}

async function upload(batchId: string, xml: string, as: Credentials = server.test) {
  return server.raw('POST', `/bank-batches/${batchId}/statements`, {
    as,
    rawBody: xml,
    headers: { 'content-type': 'application/xml' },
  });
}

async function reversals(id: string, as: Credentials = server.test) {
  const response = await server.raw('GET', '/balance/transactions', { as, query: { limit: 100 } });
  const items = response.body.data.items as Array<{ type: string; source_id: string }>;
  return items.filter((entry) => entry.source_id === id && entry.type === 'payout_reversal').length;
}

describe('POST /payouts to a bank account', () => {
  it('debits at once and stays pending, untouched by the Mobile Money settlement', async () => {
    const { test } = await server.newAccount();
    await fund(server, 100_000, test);
    const id = await bankPayout(25_000, sandboxBank.succeeds, test);
    expect(await balanceOf(server, test)).toBe(75_000);
    await server.settle(600_000);
    expect(await payout(id, test)).toMatchObject({
      status: 'pending',
      recipient_msisdn: null,
      bank_batch_id: null,
      recipient_bank_account: {
        iban: sandboxBank.succeeds,
        holder_name: 'Awa Ngono',
        bic: null,
        bank_code: '10005',
        branch_code: '00001',
        account_number: '01234567890',
      },
    });
  });

  it('takes a RIB with its country, and shows it as its IBAN', async () => {
    await fund(server, 10_000);
    const response = await server.raw('POST', '/payouts', {
      body: {
        amount: 1000,
        payout_type: 'transfer',
        recipient_bank_account: {
          rib: sandboxBank.succeedsRib,
          country: 'CM',
          holder_name: 'Awa Ngono',
          bic: 'CCEICMCX',
        },
      },
    });
    expect(response.status).toBe(202);
    expect(response.body.data.recipient_bank_account).toMatchObject({
      iban: sandboxBank.succeeds,
      bic: 'CCEICMCX',
    });
  });

  it.each([
    ['a mistyped account number', 'invalid_rib_key', 'CM2110005000010123456788091'],
    ['a wrong RIB key', 'invalid_rib_key', 'CM2110005000010123456789090'],
    ['wrong check digits', 'invalid_iban_check_digits', 'CM2210005000010123456789091'],
  ])('refuses an IBAN with %s (422 %s, naming the field) and debits nothing', async (_, code, iban) => {
    const { test } = await server.newAccount();
    await fund(server, 10_000, test);
    const response = await server.raw('POST', '/payouts', {
      as: test,
      body: { amount: 1000, payout_type: 'withdrawal', recipient_bank_account: to(iban) },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code, param: 'recipient_bank_account.iban' });
    expect(await balanceOf(server, test)).toBe(10_000);
  });

  it('refuses a wrong RIB key in a RIB, naming the rib', async () => {
    const response = await server.raw('POST', '/payouts', {
      body: {
        amount: 1000,
        payout_type: 'withdrawal',
        recipient_bank_account: { rib: '10005000010123456789092', country: 'CM', holder_name: 'A' },
      },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: 'invalid_rib_key',
      param: 'recipient_bank_account.rib',
    });
  });

  it('refuses a bank account beside a number (exactly one recipient kind)', async () => {
    const response = await server.raw('POST', '/payouts', {
      body: {
        amount: 1000,
        payout_type: 'withdrawal',
        recipient_msisdn: sandbox.mtn.succeeds,
        recipient_bank_account: to(sandboxBank.succeeds),
      },
    });
    expect(response.status).toBe(400);
  });

  it('refuses a bank payout in live mode while no bank is connected (422 unsupported_network)', async () => {
    const response = await server.raw('POST', '/payouts', {
      as: server.live,
      body: { amount: 1000, payout_type: 'withdrawal', recipient_bank_account: to(sandboxBank.succeeds) },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('unsupported_network');
  });

  it('takes bank accounts in a bulk payout', async () => {
    await fund(server, 10_000);
    const response = await server.raw('POST', '/payouts/bulk', {
      body: {
        items: [
          { amount: 1000, payout_type: 'withdrawal', recipient_bank_account: to(sandboxBank.succeeds) },
          { amount: 2000, payout_type: 'withdrawal', recipient_msisdn: sandbox.mtn.succeeds },
        ],
      },
    });
    expect(response.status).toBe(202);
    expect(response.body.data.items[0].recipient_bank_account.iban).toBe(sandboxBank.succeeds);
  });
});

describe('bank batches', () => {
  it('request → pain.001 file (valid against the XSD) → sandbox camt.054 → success, and failures reversed once', async () => {
    const { test } = await server.newAccount();
    await fund(server, 100_000, test);
    const paid = await bankPayout(10_000, sandboxBank.succeeds, test);
    const closed = await bankPayout(7_000, sandboxBank.closed, test);
    const mismatch = await bankPayout(3_000, sandboxBank.nameMismatch, test);
    expect(await balanceOf(server, test)).toBe(80_000);

    const created = await server.raw('POST', '/bank-batches', { as: test });
    expect(created.status).toBe(201);
    const batch = created.body.data;
    expect(batch).toMatchObject({ payout_count: 3, control_sum: 20_000, pending_count: 3 });
    expect((await payout(paid, test)).bank_batch_id).toBe(batch.batch_id);

    const file = await server.raw('GET', `/bank-batches/${batch.batch_id}/file`, { as: test });
    expect(file.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(schemaErrors(file.text, 'pain.001.001.03')).toBe('');
    expect(file.text).toContain('<CtrlSum>20000</CtrlSum>');
    expect(file.text).toContain(`<EndToEndId>${closed}</EndToEndId>`);

    const statement = await server.raw('GET', `/bank-batches/${batch.batch_id}/sandbox-statement`, {
      as: test,
    });
    expect(schemaErrors(statement.text, 'camt.054.001.02')).toBe('');
    const applied = await upload(batch.batch_id, statement.text, test);
    expect(applied.status).toBe(200);
    expect(applied.body.data.applied).toBe(3);

    expect(await payout(paid, test)).toMatchObject({ status: 'success', failure_code: null });
    expect(await payout(closed, test)).toMatchObject({
      status: 'failed',
      failure_code: 'bank_account_closed',
    });
    expect(await payout(mismatch, test)).toMatchObject({
      status: 'failed',
      failure_code: 'bank_name_mismatch',
    });
    expect(await balanceOf(server, test)).toBe(90_000);
    const events = await server.raw('GET', '/events', { as: test, query: { transaction_id: closed } });
    expect(events.body.data.items.map((e: { event: string }) => e.event)).toEqual(['payout.failed']);

    const again = await upload(batch.batch_id, statement.text, test);
    expect(again.body.data.applied).toBe(0);
    expect(again.body.data.entries.map((e: { outcome: string }) => e.outcome)).toEqual([
      'already_applied',
      'already_applied',
      'already_applied',
    ]);
    expect(await balanceOf(server, test)).toBe(90_000);
    expect(await reversals(closed, test)).toBe(1);
    const read = await server.raw('GET', `/bank-batches/${batch.batch_id}`, { as: test });
    expect(read.body.data).toMatchObject({ pending_count: 0, statements: [{ applied: 3 }] });
    const fileAfter = await server.raw('GET', `/bank-batches/${batch.batch_id}/file`, { as: test });
    expect(fileAfter.text).toBe(file.text);
  });

  it('puts each payout in one batch: a second batch finds nothing (422 nothing_to_batch)', async () => {
    const { test } = await server.newAccount();
    await fund(server, 10_000, test);
    await bankPayout(1000, sandboxBank.succeeds, test);
    expect((await server.raw('POST', '/bank-batches', { as: test })).status).toBe(201);
    const second = await server.raw('POST', '/bank-batches', { as: test });
    expect(second.status).toBe(422);
    expect(second.body.error.code).toBe('nothing_to_batch');
  });

  it('the batch worker batches every account that has bank payouts waiting', async () => {
    const { test } = await server.newAccount();
    await fund(server, 10_000, test);
    const id = await bankPayout(1000, sandboxBank.succeeds, test);
    await server.service.bankBatches.runOnce();
    const batchId = (await payout(id, test)).bank_batch_id;
    expect(batchId).toMatch(/^bb_/);
    const listed = await server.raw('GET', '/bank-batches', { as: test });
    expect(listed.body.data.items.map((b: { batch_id: string }) => b.batch_id)).toEqual([batchId]);
  });

  it('reports unknown, duplicate, conflicting and pending entries, and applies none of them', async () => {
    const { test } = await server.newAccount();
    await fund(server, 10_000, test);
    const first = await bankPayout(1000, sandboxBank.succeeds, test);
    const second = await bankPayout(2000, sandboxBank.succeeds, test);
    const batch = (await server.raw('POST', '/bank-batches', { as: test })).body.data;
    const xml = camt054('STMT-1', [
      { endToEndId: 'po_NotOneOfThisBatch00000000', amount: 1000 },
      { endToEndId: first, amount: 999 },
      { endToEndId: second, amount: 2000, status: 'PDNG' },
      { endToEndId: second, amount: 2000 },
    ]);
    expect(schemaErrors(xml, 'camt.054.001.02')).toBe('');
    const response = await upload(batch.batch_id, xml, test);
    expect(response.body.data.entries.map((e: { outcome: string }) => e.outcome)).toEqual([
      'unknown',
      'conflicting',
      'pending',
      'duplicate',
    ]);
    expect(response.body.data.applied).toBe(0);
    expect((await payout(first, test)).status).toBe('pending');
  });

  it('reports a statement that contradicts a settled payout as conflicting, and changes nothing', async () => {
    const { test } = await server.newAccount();
    await fund(server, 10_000, test);
    const id = await bankPayout(1000, sandboxBank.succeeds, test);
    const batch = (await server.raw('POST', '/bank-batches', { as: test })).body.data;
    await upload(batch.batch_id, camt054('STMT-A', [{ endToEndId: id, amount: 1000 }]), test);
    const returned = camt054('STMT-B', [{ endToEndId: id, amount: 1000, returnReason: 'AC04' }]);
    const response = await upload(batch.batch_id, returned, test);
    expect(response.body.data.entries[0]).toMatchObject({ outcome: 'conflicting', payout_status: 'success' });
    expect(await balanceOf(server, test)).toBe(9000);
  });

  it('refuses a body that is not a camt.054 (422 invalid_statement), a DOCTYPE included', async () => {
    const { test } = await server.newAccount();
    await fund(server, 10_000, test);
    await bankPayout(1000, sandboxBank.succeeds, test);
    const batch = (await server.raw('POST', '/bank-batches', { as: test })).body.data;
    for (const body of ['<a/>', 'not xml', '<!DOCTYPE x [<!ENTITY e "e">]><Document/>']) {
      const response = await upload(batch.batch_id, body, test);
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('invalid_statement');
    }
  });

  it('refuses a statement over 1 MiB (413 payload_too_large) and one that is not XML (415)', async () => {
    const { test } = await server.newAccount();
    await fund(server, 10_000, test);
    await bankPayout(1000, sandboxBank.succeeds, test);
    const batch = (await server.raw('POST', '/bank-batches', { as: test })).body.data;
    const large = camt054('BIG', []).replace('<Ntfctn>', `<Ntfctn><!--${'x'.repeat(1024 * 1024)}-->`);
    const tooLarge = await upload(batch.batch_id, large, test);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('payload_too_large');
    const text = await server.raw('POST', `/bank-batches/${batch.batch_id}/statements`, {
      as: test,
      rawBody: camt054('TXT', []),
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
  });

  it("answers 404 for another account's batch, its file and its statements", async () => {
    const { test } = await server.newAccount();
    await fund(server, 10_000, test);
    await bankPayout(1000, sandboxBank.succeeds, test);
    const batch = (await server.raw('POST', '/bank-batches', { as: test })).body.data;
    for (const path of ['', '/file', '/sandbox-statement']) {
      expect((await server.raw('GET', `/bank-batches/${batch.batch_id}${path}`)).status).toBe(404);
    }
    expect((await upload(batch.batch_id, camt054('X', []))).status).toBe(404);
  });
});
