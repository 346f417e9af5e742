/**
 * Bad input, for every operation of the contract: the tests are generated from openapi.yaml
 * (operations, parameters, request body schemas), so an operation added to the contract is
 * tested here without anyone remembering to. Each bad request must get the error envelope with
 * the right status and code, and must change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../server/domain/ids.js';
import { camt054 } from '../bank/iso20022.js';
import { ok } from '../support/api.js';
import { allRows } from '../support/database.js';
import { expectApiError } from '../support/error-envelope.js';
import { batchOneBankPayout, collect, createService, fund, payOut, sandbox } from '../support/fixtures.js';
import {
  type Credentials,
  type RequestOptions,
  startTestServer,
  type TestServer,
} from '../support/server.js';
import { type Json, type Operation, operations, resolve, schemaErrors } from '../support/spec.js';

// ---- What the contract says about each operation -------------------------------------------

type Segment = string | number;

interface Field {
  path: Segment[];
  schema: Json;
  required: boolean;
}

/** `['items', 0, 'amount']` → `items[0].amount`, the contract's way of naming a field. */
function paramOf(path: Segment[]): string {
  return path.reduce<string>(
    (param, segment) =>
      typeof segment === 'number' ? `${param}[${segment}]` : param ? `${param}.${segment}` : segment,
    '',
  );
}

function arrayItemsOf(property: Json): Json | undefined {
  const items = property.type === 'array' ? resolve(property.items) : undefined;
  return items?.properties ? items : undefined;
}

/** Every property of a body schema, descending into the first element of arrays of objects. */
function fieldsOf(schema: Json, value: Json, prefix: Segment[] = []): Field[] {
  const object = resolve(schema);
  const fields: Field[] = [];
  for (const [name, raw] of Object.entries<Json>(object.properties ?? {})) {
    const property = resolve(raw);
    const path = [...prefix, name];
    fields.push({ path, schema: property, required: (object.required ?? []).includes(name) });
    const items = arrayItemsOf(property);
    if (items && Array.isArray(value?.[name]) && value[name].length > 0) {
      fields.push(...fieldsOf(items, value[name][0], [...path, 0]));
    }
  }
  return fields;
}

/** The paths of the objects in a body that refuse properties they do not declare. */
function closedObjectsOf(schema: Json, value: Json, prefix: Segment[] = []): Segment[][] {
  const object = resolve(schema);
  const closed = object.additionalProperties === false ? [prefix] : [];
  for (const [name, raw] of Object.entries<Json>(object.properties ?? {})) {
    const items = arrayItemsOf(resolve(raw));
    if (items && Array.isArray(value?.[name]) && value[name].length > 0) {
      closed.push(...closedObjectsOf(items, value[name][0], [...prefix, name, 0]));
    }
  }
  return closed;
}

/** A copy of `body` with the value at `path` replaced, or removed when `value` is `remove`. */
const remove = Symbol('remove');
function changed(body: Json, path: Segment[], value: unknown): Json {
  const copy = structuredClone(body);
  let parent = copy;
  for (const segment of path.slice(0, -1)) parent = parent[segment];
  const last = path[path.length - 1] as Segment;
  if (value === remove) delete parent[last];
  else parent[last] = value;
  return copy;
}

/** A value of another JSON type than the schema's, as a careless client would send. */
function wrongTypeFor(schema: Json): unknown {
  switch (schema.type) {
    case 'integer':
    case 'number':
      return '1000';
    case 'string':
      return 12345;
    case 'boolean':
      return 'true';
    case 'array':
      return 'not-an-array';
    case 'object':
      return 'not-an-object';
    default:
      throw new Error(`No wrong type known for a schema of type ${schema.type}`);
  }
}

/** The catalogue's code for a bad value of a field (openapi.yaml, Errors). */
function codeForField(path: Segment[]): string {
  const name = String(path[path.length - 1]);
  if (name === 'amount') return 'invalid_amount';
  if (name.endsWith('_msisdn')) return 'invalid_msisdn';
  return 'invalid_field';
}

/** Values that break a query or header parameter's schema. */
function badValuesFor(schema: Json): string[] {
  if (schema.type === 'boolean') return ['maybe'];
  if (schema.type === 'integer') {
    return [
      'abc',
      ...(schema.minimum !== undefined ? [String(schema.minimum - 1)] : []),
      ...(schema.maximum !== undefined ? [String(schema.maximum + 1)] : []),
    ];
  }
  if (schema.enum) return ['nope'];
  if (schema.format === 'date-time') return ['yesterday'];
  const values: string[] = [];
  if (schema.pattern) values.push('two words!');
  if (schema.maxLength !== undefined) values.push('x'.repeat(schema.maxLength + 1));
  return values;
}

/** A valid value for a required query parameter, so that each test breaks only one thing. */
function validQueryValue(name: string, schema: Json): string {
  if (schema.format === 'date-time')
    return name.endsWith('_lt') ? '2026-12-01T00:00:00Z' : '2026-11-01T00:00:00Z';
  throw new Error(`No valid value known for the required query parameter ${name}: add one to this test`);
}

/**
 * The body of an operation that takes XML rather than JSON, valid, so each test breaks one
 * other thing: a bank statement naming no payout (what it would apply is not this file's test).
 */
const validXmlBodies: Record<string, () => string> = {
  createBankStatement: () => camt054('BAD-INPUT-1', []),
};

function bodySchemaOf(op: Operation): Json | undefined {
  const body = op.operation.requestBody ? resolve(op.operation.requestBody) : undefined;
  const schema = body?.content?.['application/json']?.schema;
  return schema ? resolve(schema) : undefined;
}

function idPrefixOf(parameter: Json): string {
  const prefix = /^\^(\w+?)_/.exec(resolve(parameter.schema).pattern ?? '')?.[1];
  if (!prefix) throw new Error(`The path parameter ${parameter.name} has no id pattern`);
  return prefix;
}

/** Operations the contract marks `security: []`: authentication does not apply to them. */
const isPublic = (op: Operation) =>
  Array.isArray(op.operation.security) && op.operation.security.length === 0;

// ---- Fixtures, created through the API -----------------------------------------------------

let server: TestServer;
/** Another account: its API user paired with our key must be refused. */
let stranger: Credentials;
/** An account of its own for key rotation, so a rotation that wrongly went through breaks nothing else. */
let rotator: { test: Credentials; live: Credentials };
/** Real ids by prefix (`pay`, `po`, `tu`, `svc`, `we`, `evt`, `bb`), so path parameters are valid. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  // The rate limiter must not turn the many requests of this file into 429s.
  server = await startTestServer({
    RATE_LIMIT_PER_WINDOW: '1000000',
    // The sandbox endpoint registered here is on 127.0.0.1: that needs the opt-in.
    WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
  });
  stranger = (await server.newAccount('Stranger')).test;
  rotator = await server.newAccount('Key rotation');
  const as = server.test;

  ids.svc = await createService(server, as, 'Bad input shop');
  ids.tu = await fund(server, 100_000, as);
  ids.pay = await collect(server, ids.svc, 5000, sandbox.mtn.succeeds, as);
  await server.settle();
  const topup = ok(await server.api.GET('/topups/{id}', { params: { path: { id: ids.tu } } })).data;
  const payment = ok(await server.api.GET('/payments/{id}', { params: { path: { id: ids.pay } } })).data;
  expect([topup.status, payment.status]).toEqual(['success', 'success']);
  ids.po = await payOut(server, 1000, as);
  await server.settle();
  ids.bb = await batchOneBankPayout(server, as);
  const endpoint = { url: 'http://127.0.0.1:9/hook' };
  ids.we = ok(await server.api.POST('/webhook-endpoints', { body: endpoint })).data.id;
  // The key revokeApiKey names: the rotation account's own, so no bad request touches the others.
  ids.key = ok(await server.apiAs(rotator.test).GET('/api-keys')).data.items[0]?.id ?? '';
  const events = ok(await server.api.GET('/events', { params: { query: { transaction_id: ids.pay } } })).data;
  ids.evt = events.items[0]?.id ?? '';
  expect(ids.evt, `an event of the payment ${ids.pay}`).not.toBe('');
});

afterAll(() => server?.close());

/** A body the contract accepts, for each operation with a JSON body: each test breaks one thing in it. */
const validBodies: Record<string, () => Json> = {
  createPayment: () => ({
    amount: 1500,
    currency: 'XAF',
    customer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo',
    service_id: ids.svc,
    reference: 'bad-input',
  }),
  createDirectPayment: () => validBodies.createPayment?.(),
  initiateHostedPayment: () => ({
    amount: 1500,
    currency: 'XAF',
    service_id: ids.svc,
    customer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo',
    reference: 'bad-input',
    expires_in_seconds: 600,
  }),
  createPayout: () => ({
    amount: 100,
    currency: 'XAF',
    recipient_msisdn: sandbox.mtn.succeeds,
    payout_type: 'withdrawal',
    reference: 'bad-input',
  }),
  createBulkPayout: () => ({
    currency: 'XAF',
    items: [
      {
        amount: 100,
        recipient_msisdn: sandbox.mtn.succeeds,
        payout_type: 'withdrawal',
        reference: 'bad-input',
      },
    ],
  }),
  createRefund: () => ({ payment_id: ids.pay, amount: 100, reference: 'bad-input' }),
  createTopup: () => ({
    amount: 1000,
    currency: 'XAF',
    payer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo',
    reference: 'bad-input',
  }),
  createService: () => ({ name: 'Another shop', description: 'bad input', type: 'website' }),
  updateService: () => ({ name: 'Renamed shop', description: 'bad input', type: 'pos', status: 'inactive' }),
  createWebhookEndpoint: () => ({
    url: 'http://127.0.0.1:9/other-hook',
    events: ['payment.completed'],
    description: 'bad input',
  }),
  updateWebhookEndpoint: () => ({
    url: 'http://127.0.0.1:9/moved-hook',
    events: ['payout.failed'],
    description: 'bad input',
    status: 'disabled',
  }),
  resendEvent: () => ({ endpoint_id: ids.we }),
  rotateWebhookEndpointSecret: () => ({ overlap_seconds: 60 }),
  rotateApiKey: () => ({ grace_period_seconds: 0 }),
  createApiKey: () => ({ role: 'read_only' }),
};

function validBodyFor(op: Operation): Json {
  const make = validBodies[op.operationId];
  if (!make)
    throw new Error(`${op.operationId} has a JSON body: add a valid one to validBodies in this test`);
  return make();
}

/** Whose data each operation works on. */
const ownerOf = (op: Operation) =>
  ['rotateApiKey', 'revokeApiKey', 'createApiKey'].includes(op.operationId) ? rotator : server;

/**
 * What a bad request may write: its call-log line and its count in the rate limiter's window.
 * Every other row of every table is read before and after each bad request to a write.
 */
const writtenByEveryRequest = ['call_logs', 'rate_limit_windows'];

// ---- The tests -----------------------------------------------------------------------------

const allOperations = operations();

/**
 * A condition and what the server must answer to it: `<operation> > <condition> > <answer>`.
 * A bad request to a write operation must also change nothing: the test reads what the
 * operation could change before and after its own request, so it holds in any order.
 */
function when(op: Operation, condition: string, answer: string, test: () => Promise<void>) {
  const writes = op.method !== 'get';
  describe(condition, () => {
    it(writes ? `${answer} and changes nothing` : answer, async () => {
      const before = writes ? await allRows(server, writtenByEveryRequest) : undefined;
      await test();
      if (writes) expect(await allRows(server, writtenByEveryRequest)).toEqual(before);
    });
  });
}

describe('the contract', () => {
  it('leaves authentication off only getHealth, the load balancers’ health check', () => {
    expect(allOperations.filter(isPublic).map((op) => op.operationId)).toEqual(['getHealth']);
  });
});

for (const op of allOperations) {
  const bodySchema = bodySchemaOf(op);
  const xmlBody = validXmlBodies[op.operationId];
  const pathParameters = op.parameters.filter((p) => p.in === 'path');
  const queryParameters = op.parameters.filter((p) => p.in === 'query');
  const headerParameters = op.parameters.filter((p) => p.in === 'header');
  const requiredQuery = queryParameters.filter((p) => p.required);

  /** The request with everything valid; each test changes one thing. */
  const send = (options: RequestOptions & { id?: string; body?: Json; without?: string } = {}) => {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (options.id !== undefined) return options.id;
      const parameter = pathParameters.find((p) => p.name === name);
      const id = parameter ? ids[idPrefixOf(parameter)] : undefined;
      if (!id) throw new Error(`No fixture for the path parameter ${name} of ${op.operationId}`);
      return id;
    });
    const query = Object.fromEntries(
      requiredQuery
        .filter((p) => p.name !== options.without)
        .map((p) => [p.name, validQueryValue(p.name, resolve(p.schema))]),
    );
    const { id: _id, without: _without, ...rest } = options;
    return server.raw(op.method.toUpperCase(), path, {
      as: ownerOf(op).test,
      ...(bodySchema && options.rawBody === undefined ? { body: options.body ?? validBodyFor(op) } : {}),
      ...(xmlBody && options.rawBody === undefined ? { rawBody: xmlBody() } : {}),
      ...rest,
      headers: {
        ...(xmlBody && options.rawBody === undefined ? { 'content-type': 'application/xml' } : {}),
        ...options.headers,
      },
      query: { ...query, ...(options.query ?? {}) },
    });
  };

  describe(`${op.method.toUpperCase()} ${op.path} (${op.operationId})`, () => {
    if (!isPublic(op)) {
      when(op, 'without a key', 'answers 401 missing_api_key', async () => {
        const { apiUser } = ownerOf(op).test;
        expectApiError(await send({ as: null, headers: { 'x-api-user': apiUser } }), 401, 'missing_api_key');
      });

      when(op, 'with a well-formed key that does not exist', 'answers 401 invalid_api_key', async () => {
        const { apiUser } = ownerOf(op).test;
        const headers = { authorization: `Bearer sk_test_${randomBase62(32)}`, 'x-api-user': apiUser };
        expectApiError(await send({ as: null, headers }), 401, 'invalid_api_key');
      });

      when(op, 'without X-API-User', 'answers 401 missing_api_user', async () => {
        const { key } = ownerOf(op).test;
        expectApiError(
          await send({ as: null, headers: { authorization: `Bearer ${key}` } }),
          401,
          'missing_api_user',
        );
      });

      when(op, "with another account's API user", 'answers 401 invalid_api_user', async () => {
        const as = { key: ownerOf(op).test.key, apiUser: stranger.apiUser };
        expectApiError(await send({ as }), 401, 'invalid_api_user');
      });

      when(op, 'with test=true and the live key', 'answers 400 live_key_in_test_mode', async () => {
        expectApiError(
          await send({ as: ownerOf(op).live, query: { test: true } }),
          400,
          'live_key_in_test_mode',
        );
      });
    }

    when(op, 'with an unknown query parameter', 'answers 400 invalid_parameter', async () => {
      expectApiError(await send({ query: { surprise: 'yes' } }), 400, 'invalid_parameter');
    });

    for (const parameter of requiredQuery) {
      when(
        op,
        `without the required ${parameter.name}`,
        `answers 400 invalid_parameter naming ${parameter.name}`,
        async () => {
          const response = await send({ without: parameter.name });
          expectApiError(response, 400, 'invalid_parameter');
          expect(response.body.error.param).toBe(parameter.name);
        },
      );
    }

    // A bad value in a query parameter or a header is named in `param`.
    const placed = [
      ...queryParameters.map((parameter) => ({ parameter, where: 'query' as const, sep: '=' })),
      ...headerParameters.map((parameter) => ({ parameter, where: 'headers' as const, sep: ': ' })),
    ];
    for (const { parameter, where, sep } of placed) {
      for (const value of badValuesFor(resolve(parameter.schema))) {
        const shown = value.length > 20 ? `${value.slice(0, 10)}… (${value.length} characters)` : value;
        when(
          op,
          `with ${parameter.name}${sep}${shown}`,
          `answers 400 invalid_parameter naming ${parameter.name}`,
          async () => {
            const response = await send({ [where]: { [parameter.name]: value } });
            expectApiError(response, 400, 'invalid_parameter');
            // Header names are case-insensitive; query parameters' are not.
            const named = (name: string) => (where === 'headers' ? name.toLowerCase() : name);
            expect(named(String(response.body.error.param))).toBe(named(parameter.name));
          },
        );
      }
    }

    for (const parameter of pathParameters) {
      when(op, `with a malformed ${parameter.name} (nope)`, 'answers 400 invalid_parameter', async () => {
        const response = await send({ id: 'nope' });
        expectApiError(response, 400, 'invalid_parameter');
        expect(response.body.error.param).toBe(parameter.name);
      });

      when(
        op,
        `with a well-formed ${parameter.name} that does not exist`,
        'answers 404 resource_not_found',
        async () => {
          const id = `${idPrefixOf(parameter)}_${randomBase62(24)}`;
          expectApiError(await send({ id }), 404, 'resource_not_found');
        },
      );
    }

    if (bodySchema) {
      it('starts from a body the contract accepts', () => {
        expect(schemaErrors(bodySchema, validBodyFor(op))).toEqual([]);
      });

      // The fields are read from the contract; the valid body (built at run time) only decides
      // which array element to descend into, so it is rebuilt here with placeholder ids.
      const shape = (() => {
        const make = validBodies[op.operationId];
        return make ? make() : {};
      })();
      const fields = fieldsOf(bodySchema, shape);

      for (const field of fields.filter((f) => f.required)) {
        const param = paramOf(field.path);
        when(
          op,
          `without the required field ${param}`,
          `answers 400 missing_field naming ${param}`,
          async () => {
            const response = await send({ body: changed(validBodyFor(op), field.path, remove) });
            expectApiError(response, 400, 'missing_field');
            expect(response.body.error.param).toBe(param);
          },
        );
      }

      for (const field of fields) {
        const param = paramOf(field.path);
        const wrong = wrongTypeFor(field.schema);
        const code = codeForField(field.path);
        when(
          op,
          `with ${param} of the wrong type (${JSON.stringify(wrong)})`,
          `answers 400 ${code} naming ${param}`,
          async () => {
            const response = await send({ body: changed(validBodyFor(op), field.path, wrong) });
            expectApiError(response, 400, code);
            expect(response.body.error.param).toBe(param);
          },
        );
      }

      for (const object of closedObjectsOf(bodySchema, shape)) {
        const path = [...object, 'surprise'];
        const param = paramOf(path);
        when(op, `with an unknown field ${param}`, `answers 400 unknown_field naming ${param}`, async () => {
          const response = await send({ body: changed(validBodyFor(op), path, 'yes') });
          expectApiError(response, 400, 'unknown_field');
          expect(response.body.error.param).toBe(param);
        });
      }

      for (const field of fields.filter((f) => f.path[f.path.length - 1] === 'amount')) {
        const param = paramOf(field.path);
        for (const amount of [0, -5]) {
          when(
            op,
            `with ${param} ${amount}`,
            'answers 400 invalid_amount saying it must be greater than 0',
            async () => {
              const response = await send({ body: changed(validBodyFor(op), field.path, amount) });
              expectApiError(response, 400, 'invalid_amount');
              expect(response.body.error.param).toBe(param);
              expect(response.body.error.message).toContain('greater than 0');
            },
          );
        }
        when(op, `with ${param} 10.5`, 'answers 400 invalid_amount', async () => {
          const response = await send({ body: changed(validBodyFor(op), field.path, 10.5) });
          expectApiError(response, 400, 'invalid_amount');
          expect(response.body.error.param).toBe(param);
        });
      }

      when(op, 'with malformed JSON', 'answers 400 malformed_json', async () => {
        const response = await send({ rawBody: '{bad', headers: { 'content-type': 'application/json' } });
        expectApiError(response, 400, 'malformed_json');
      });

      when(op, 'with a text/plain body', 'answers 415 unsupported_media_type', async () => {
        const rawBody = JSON.stringify(validBodyFor(op));
        const response = await send({ rawBody, headers: { 'content-type': 'text/plain' } });
        expectApiError(response, 415, 'unsupported_media_type');
      });

      when(op, 'with a multipart/form-data body', 'answers 415 unsupported_media_type', async () => {
        const boundary = 'b0undary';
        const rawBody = `--${boundary}\r\nContent-Disposition: form-data; name="amount"\r\n\r\n2500\r\n--${boundary}--\r\n`;
        const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
        expectApiError(await send({ rawBody, headers }), 415, 'unsupported_media_type');
      });

      when(op, 'with a body over 64 KiB', 'answers 413 payload_too_large', async () => {
        const rawBody = JSON.stringify({ ...validBodyFor(op), padding: 'x'.repeat(64 * 1024) });
        const response = await send({ rawBody, headers: { 'content-type': 'application/json' } });
        expectApiError(response, 413, 'payload_too_large');
      });
    }
  });
}
