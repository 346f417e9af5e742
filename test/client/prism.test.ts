/**
 * The client against a Prism mock of openapi.yaml: every operation of the contract, listed from
 * the spec itself so that a new operation cannot be forgotten, is called through the client with
 * the spec's own examples. Prism checks each request against the contract (security headers,
 * parameters, body) and reports what it finds wrong in `sl-violations`; the answers are checked
 * against the response schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPaymentsClient,
  PaymentsApiError,
  type PaymentsClient,
  paginate,
  requestIdOf,
} from '../../client/src/index.js';
import { camt054 } from '../bank/iso20022.js';
import { raw } from '../support/api.js';
import { sandbox } from '../support/fixtures.js';
import { type PrismMock, startPrism, violationsOf } from '../support/prism.js';
import { type Json, type Operation, operations, resolve, schemaErrors } from '../support/spec.js';
import { someServiceId } from './local-server.js';

const apiKey = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
const apiUser = '3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f9a8b';

let prism: PrismMock;
let client: PaymentsClient;

beforeAll(async () => {
  prism = await startPrism();
  client = createPaymentsClient({
    apiKey,
    apiUser,
    baseUrl: prism.baseUrl,
    sandbox: true,
    retry: { maxRetries: 0 },
  });
});

afterAll(async () => {
  await prism?.stop();
});

/** The example of a parameter, from the parameter or from its schema. */
function exampleOf(parameter: Json): unknown {
  const value = parameter.example ?? resolve(parameter.schema)?.example;
  if (value === undefined) throw new Error(`parameter ${parameter.name} has no example`);
  return value;
}

/** The media type of an operation's request body: JSON but for the bank statement's XML. */
function requestMediaType(op: Operation): string | undefined {
  if (!op.operation.requestBody) return undefined;
  return Object.keys(resolve(op.operation.requestBody).content)[0];
}

function requestBodyExample(op: Operation): unknown {
  const mediaType = requestMediaType(op);
  if (mediaType === undefined) return undefined;
  const media = resolve(op.operation.requestBody).content[mediaType];
  if (media.example !== undefined) return media.example;
  const first = Object.values<Json>(media.examples ?? {})[0];
  // The statement's XML has no example in the contract: a bank's statement naming no payout.
  if (first === undefined && mediaType === 'application/xml') return camt054('PRISM-1', []);
  if (first === undefined) throw new Error(`${op.operationId} has no request example`);
  return resolve(first).value;
}

function successOf(op: Operation): { status: number; mediaType: string; schema: Json } {
  const [status, raw] =
    Object.entries<Json>(op.operation.responses).find(([code]) => code.startsWith('2')) ?? [];
  if (status === undefined) throw new Error(`${op.operationId} has no 2xx response`);
  const [mediaType, media] = Object.entries<Json>(resolve(raw).content)[0] ?? [];
  if (mediaType === undefined) throw new Error(`${op.operationId} ${status} has no content`);
  return { status: Number(status), mediaType, schema: media.schema };
}

function paramsOf(op: Operation): { path: Record<string, unknown>; query: Record<string, unknown> } {
  const params = { path: {} as Record<string, unknown>, query: {} as Record<string, unknown> };
  for (const parameter of op.parameters) {
    if (parameter.in === 'path' || (parameter.in === 'query' && parameter.required)) {
      params[parameter.in as 'path' | 'query'][parameter.name] = exampleOf(parameter);
    }
  }
  return params;
}

/** The client's typed methods take literal paths; here the path comes from the spec at run time. */
type LooseRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

describe('the client against a Prism mock of openapi.yaml', () => {
  it('covers the whole contract', () => {
    expect(operations().length).toBeGreaterThanOrEqual(30);
  });

  describe.each(
    operations().map((op) => [`${op.method.toUpperCase()} ${op.path} (${op.operationId})`, op] as const),
  )('%s', (_name, op) => {
    it('sends a request that honours the contract and gets the documented answer', async () => {
      const success = successOf(op);
      const json = success.mediaType === 'application/json';
      const request = client.request as unknown as LooseRequest;
      const mediaType = requestMediaType(op);
      const text = mediaType !== undefined && mediaType !== 'application/json';
      const { data, error, response } = await request(op.method, op.path, {
        params: paramsOf(op),
        body: requestBodyExample(op),
        parseAs: json ? 'json' : 'text',
        // A body that is not JSON (a bank statement's XML) is sent as its example's text.
        ...(text ? { bodySerializer: (body: unknown) => body, headers: { 'content-type': mediaType } } : {}),
      });

      expect(violationsOf(response)).toEqual([]);
      expect(error).toBeUndefined();
      expect(response.status).toBe(success.status);
      expect(requestIdOf(response)).toMatch(/^req_[0-9A-Za-z]{24}$/);
      if (json) expect(schemaErrors(success.schema, data)).toEqual([]);
      else expect(typeof data).toBe('string');
    });
  });
});

describe('the client against Prism, typed calls', () => {
  it('is refused by Prism without its credentials, and accepted with them', async () => {
    const bare = await raw(prism.baseUrl, 'GET', '/balance');
    expect(bare.status).toBe(401);

    const { data, response } = await client.GET('/balance');
    expect(response.status).toBe(200);
    expect(data?.data.wallet_id).toMatch(/^wal_/);
  });

  it('creates a payment with the contract’s example and reads it back', async () => {
    const created = await client.POST('/payments', {
      body: {
        amount: 2500,
        currency: 'XAF',
        customer_msisdn: sandbox.mtn.succeeds,
        payment_method: 'mtn_momo',
        service_id: someServiceId,
        reference: 'order-1042',
      },
    });
    expect(violationsOf(created.response)).toEqual([]);
    expect(created.data?.data.status).toBe('initiated');

    const id = created.data?.data.transaction_id ?? '';
    const read = await client.GET('/payments/{id}', { params: { path: { id } } });
    expect(read.data?.data.transaction_id).toBe(id);
  });

  it('returns an error answer as the typed envelope, with its request id', async () => {
    const { data, error, response } = await client.GET('/payments/{id}', {
      params: { path: { id: 'pay_26ckKthu9SR4AlZ0MBzSvYzU' } },
      headers: { Prefer: 'code=404' },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error.code).toBe('resource_not_found');
    expect(error?.error.request_id).toBe(requestIdOf(response));
  });

  it('paginates a list operation while has_more holds (Prism always says more, so it stops by break)', async () => {
    const seen: string[] = [];
    for await (const payment of paginate(client, '/payments', { params: { query: { limit: 1 } } })) {
      seen.push(payment.transaction_id);
      if (seen.length === 3) break;
    }
    expect(seen).toHaveLength(3);
  });

  it('makes paginate throw a PaymentsApiError when a page is an error', async () => {
    const pages = paginate(client, '/payouts', { headers: { Prefer: 'code=401' } });
    const failure = await pages.next().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PaymentsApiError);
    expect(failure).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect((failure as PaymentsApiError).requestId).toMatch(/^req_/);
  });
});
