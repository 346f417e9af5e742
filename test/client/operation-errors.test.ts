/**
 * `operationError` narrows a failed call's error to what the contract documents for that
 * operation (client/src/operation-errors.ts, generated from the responses' `x-error-codes`),
 * checked against the real server, and the generated table is never stale.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPaymentsClient, operationError, type PaymentsClient } from '../../client/src/index.js';
import { operationErrorsPath, renderOperationErrors } from '../../scripts/client-error-codes.js';
import { createService, fund, sandbox } from '../support/fixtures.js';
import { type Credentials, useTestServer } from '../support/server.js';
import { spec } from '../support/spec.js';
import { clientOf, sendError, startLocalServer } from './local-server.js';

const server = useTestServer();

/** A fresh sandbox account per test: no test sees another's balance or objects. */
async function freshClient(): Promise<{ client: PaymentsClient; as: Credentials }> {
  const { test } = await server.newAccount('Operation errors');
  const client = createPaymentsClient({
    apiKey: test.key,
    apiUser: test.apiUser,
    baseUrl: server.url,
    sandbox: true,
    retry: { maxRetries: 0 },
  });
  return { client, as: test };
}

describe('the generated table of documented errors', () => {
  it('is what openapi.yaml says (run npm run generate:client-errors after editing it)', () => {
    expect(readFileSync(operationErrorsPath, 'utf8')).toBe(renderOperationErrors(spec));
  });

  it('lists only codes of the contract’s ErrorCode', () => {
    const known = new Set(spec.components.schemas.ErrorCode.enum);
    for (const [name, response] of Object.entries<{ 'x-error-codes'?: string[] }>(
      spec.components.responses,
    )) {
      for (const code of response['x-error-codes'] ?? [])
        expect(known.has(code), `${name}: ${code}`).toBe(true);
    }
  });
});

describe('operationError against the real server', () => {
  it('a payout the balance cannot fund: documented 403, code insufficient_balance', async () => {
    const { client } = await freshClient();
    const result = await client.POST('/payouts', {
      body: {
        amount: 5_000,
        currency: 'XAF',
        recipient_msisdn: sandbox.orange.succeeds,
        payout_type: 'withdrawal',
      },
    });
    const failure = operationError('/payouts', 'post', result);
    expect(failure).toMatchObject({ documented: true, status: 403, code: 'insufficient_balance' });
    expect(failure?.requestId).toMatch(/^req_/);
  });

  it('a refund above what remains: documented 422 refund_exceeds_payment', async () => {
    const { client, as } = await freshClient();
    const serviceId = await createService(server, as);
    await fund(server, 10_000, as);
    const paid = await client.POST('/payments', {
      body: {
        amount: 1000,
        currency: 'XAF',
        customer_msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
        service_id: serviceId,
      },
    });
    await server.settle();
    const result = await client.POST('/refunds', {
      body: { payment_id: paid.data?.data.transaction_id as string, amount: 5000 },
    });
    expect(operationError('/refunds', 'post', result)).toMatchObject({
      documented: true,
      status: 422,
      code: 'refund_exceeds_payment',
      param: 'amount',
    });
  });

  it('an unknown id: documented 404 resource_not_found; a success: undefined', async () => {
    const { client } = await freshClient();
    const missing = await client.GET('/payments/{id}', {
      params: { path: { id: 'pay_000000000000000000000000' } },
    });
    expect(operationError('/payments/{id}', 'get', missing)).toMatchObject({
      documented: true,
      status: 404,
      code: 'resource_not_found',
    });
    expect(operationError('/balance', 'get', await client.GET('/balance'))).toBeUndefined();
  });

  it('an answer the contract does not list for the operation is documented: false', async () => {
    const proxy = await startLocalServer((_request, res) => sendError(res, 502, 'bad_gateway'));
    try {
      const behind = clientOf(proxy, 'sk_test_x', 'u');
      const failure = operationError('/payouts', 'post', await behind.GET('/payouts'));
      expect(failure).toMatchObject({ documented: false, status: 502, code: 'bad_gateway' });
    } finally {
      await proxy.close();
    }
  });
});
