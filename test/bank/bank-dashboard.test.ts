/**
 * Bank batches in the dashboard, over plain HTTP as a client without JavaScript drives them (a
 * cookie, the form's CSRF token, urlencoded POSTs, redirects read by hand), on both engines.
 */
import { describe, expect, it } from 'vitest';
import { addUser, httpSignIn, origin } from '../dashboard/support.js';
import { balanceOf, fund, sandboxBank } from '../support/fixtures.js';
import { decodeEntities, formOf } from '../support/html-form.js';
import { type Credentials, useTestServer } from '../support/server.js';
import { schemaErrors } from './iso20022.js';

const server = useTestServer();

/** A signed-in dashboard user of a fresh account with money, and its API credentials. */
async function signedIn(role: 'owner' | 'viewer' = 'owner') {
  const { account, test } = await server.newAccount();
  await fund(server, 50_000, test);
  const { cookie } = await httpSignIn(server, await addUser(server, role, account.accountId));
  const get = async (path: string) => {
    const response = await fetch(`${origin(server)}${path}`, { headers: { cookie }, redirect: 'manual' });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text: await response.text(),
    };
  };
  /** Submits the form of `page` that goes to `action`, some fields changed; answers the page it leads to. */
  const submit = async (page: string, action: string, values: Record<string, string> = {}) => {
    const body = new URLSearchParams();
    for (const [name, value] of formOf(page, action).fields) body.append(name, values[name] ?? value);
    for (const [name, value] of Object.entries(values)) if (!body.has(name)) body.append(name, value);
    const response = await fetch(`${origin(server)}${action}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    return get(response.headers.get('location') ?? '');
  };
  return { test, get, submit };
}

async function bankPayout(as: Credentials, amount: number, iban: string) {
  const response = await server.raw('POST', '/payouts', {
    as,
    body: { amount, payout_type: 'withdrawal', recipient_bank_account: { iban, holder_name: 'Awa Ngono' } },
  });
  return response.body.data.transaction_id as string;
}

const flashOf = (page: string) =>
  decodeEntities(/<p class="flash [^"]*"[^>]*>([^<]*)<\/p>/.exec(page)?.[1] ?? '');

describe('the dashboard’s bank batches', () => {
  it('batches, downloads the file, applies the sandbox statement; a failed payout is reversed once', async () => {
    const { test, get, submit } = await signedIn();
    const paid = await bankPayout(test, 10_000, sandboxBank.succeeds);
    const closed = await bankPayout(test, 4_000, sandboxBank.closed);
    const list = await get('/dashboard/test/bank-batches');
    const batched = await submit(list.text, '/dashboard/test/bank-batches');
    expect(flashOf(batched.text)).toMatch(/^Batch bb_\w+: 2 payouts, FCFA\s14,000\.$/);
    const batchId = /Batch (bb_\w+)/.exec(flashOf(batched.text))?.[1] as string;

    const at = `/dashboard/test/bank-batches/${batchId}`;
    const page = await get(at);
    expect(page.text).toContain(paid);
    const file = await get(`${at}/file`);
    expect(file.type).toMatch(/^application\/xml/);
    expect(schemaErrors(file.text, 'pain.001.001.03')).toBe('');
    const statement = await get(`${at}/sandbox-statement`);
    expect(schemaErrors(statement.text, 'camt.054.001.02')).toBe('');

    const applied = await submit(page.text, `${at}/statements`, { statement: statement.text });
    expect(flashOf(applied.text)).toContain('2 payouts settled');
    const again = await submit(applied.text, `${at}/statements`, { statement: statement.text });
    expect(flashOf(again.text)).toContain('0 payouts settled (2 already applied)');
    expect(await balanceOf(server, test)).toBe(50_000 - 10_000);

    const payout = await get(`/dashboard/test/payouts/${closed}`);
    expect(payout.text).toContain(`href="${at}"`);
    expect(payout.text).toContain('bank_account_closed');
  });

  it('lets a viewer read the batches but not download a file, batch or upload', async () => {
    const { test, get } = await signedIn('viewer');
    await bankPayout(test, 1000, sandboxBank.succeeds);
    const created = await server.raw('POST', '/bank-batches', { as: test });
    const batchId = created.body.data.batch_id as string;
    const page = await get(`/dashboard/test/bank-batches/${batchId}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(`/bank-batches/${batchId}/statements`);
    expect((await get(`/dashboard/test/bank-batches/${batchId}/file`)).status).toBe(403);
  });
});
