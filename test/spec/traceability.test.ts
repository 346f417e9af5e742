/**
 * The customer's specification (docs/specification/payments-api-spec.md, the customer's text
 * copied into the repository), rule by rule, checked against openapi.yaml. Each check reads what
 * it traces from that file, so a failure here means the contract dropped or changed something the
 * customer wrote down, or the customer's text changed and the contract has to follow.
 */
import { describe, expect, it } from 'vitest';
import { item, numberedItems, part, section, table } from '../support/customer-specification.js';
import { findOperation, type Json, operations, resolve, spec } from '../support/spec.js';

function requestSchema(operationId: string): Json {
  const body = resolve(findOperation(operationId).operation.requestBody);
  return resolve(body.content['application/json'].schema);
}

function responseCodes(operationId: string): string[] {
  return Object.keys(findOperation(operationId).operation.responses);
}

function errorExampleCodes(operationId: string, status: string): string[] {
  const response = resolve(findOperation(operationId).operation.responses[status]);
  const examples = response.content['application/json'].examples ?? {};
  return Object.values<Json>(examples).map((e) => resolve(e).value.error.code);
}

describe('the specification, section 4: every endpoint of the table exists under /v1', () => {
  /** Our operationId for each row of the specification's endpoint table. */
  const operationIds: Record<string, string> = {
    'post /payouts': 'createPayout',
    'get /payouts/{id}': 'getPayout',
    'post /topups': 'createTopup',
    'post /payments': 'createPayment',
    'post /payments/initiate': 'initiateHostedPayment',
    'post /payments/direct': 'createDirectPayment',
    'post /services': 'createService',
    'get /services': 'listServices',
    'put /services/{id}': 'updateService',
    'get /logs': 'listLogs',
  };
  const endpoints = table(part(section(4), 'Endpoint table')).map(
    (row) => [(row.Method as string).toLowerCase(), row.Path as string] as const,
  );

  it('the table lists the endpoints this test traces, no more and no fewer', () => {
    expect(endpoints.map(([method, path]) => `${method} ${path}`)).toEqual(Object.keys(operationIds));
  });

  it.each(endpoints)('%s %s has its operation', (method, path) => {
    expect(spec.paths[path]?.[method]?.operationId).toBe(operationIds[`${method} ${path}`]);
  });

  it('the base address carries the version segment /v1', () => {
    expect(part(section(4), 'Conventions')).toMatch(/It already contains the version segment \/v1\./);
    expect(section(9)).toMatch(/in the base address path as \/v1/);
    for (const server of spec.servers) expect(server.url).toMatch(/\/v1$/);
  });
});

describe('the specification, section 2: request fields', () => {
  const paymentFields = table(part(section(2), 'Payment request fields'));
  const payoutFields = table(part(section(2), 'Payout request fields'));
  const fieldsWhere = (rows: Array<Record<string, string>>, required: string) =>
    rows.filter((row) => row.Required === required).map((row) => row.Field);
  const description = (rows: Array<Record<string, string>>, field: string) =>
    rows.find((row) => row.Field === field)?.Description;

  it('a payment requires amount, currency, customer_msisdn, payment_method and service_id', () => {
    const required = fieldsWhere(paymentFields, 'yes');
    expect(required).toEqual(['amount', 'currency', 'customer_msisdn', 'payment_method', 'service_id']);
    expect(requestSchema('createPayment').required).toEqual(expect.arrayContaining(required));
    expect(requestSchema('createDirectPayment')).toEqual(requestSchema('createPayment'));
  });

  it('a payout has amount and payout_type required and the two recipient fields', () => {
    const required = fieldsWhere(payoutFields, 'yes');
    const recipients = fieldsWhere(payoutFields, 'one of the two');
    expect(required).toEqual(['amount', 'payout_type']);
    expect(recipients).toEqual(['recipient_msisdn', 'recipient_wallet_id']);
    expect(item(numberedItems(part(section(4), 'Rules')), 5)).toMatch(
      /must carry recipient_msisdn or recipient_wallet_id/,
    );
    const schema = requestSchema('createPayout');
    expect(schema.required).toEqual(expect.arrayContaining(required));
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['amount', 'recipient_msisdn', 'recipient_wallet_id', 'payout_type']),
    );
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining([...required, ...recipients]));
    expect(schema.description).toMatch(
      /exactly one of `recipient_msisdn`,\s+`recipient_wallet_id` or `recipient_bank_account`/,
    );
  });

  it('payment_method covers MTN and Orange MoMo; payout_type covers withdrawal and transfer', () => {
    expect(description(paymentFields, 'payment_method')).toMatch(/"MTN\/Orange MoMo"/);
    expect(description(payoutFields, 'payout_type')).toMatch(/"Withdrawal\/Transfer"/);
    expect(resolve(spec.components.schemas.PaymentMethod).enum).toEqual(['mtn_momo', 'orange_money']);
    expect(requestSchema('createPayout').properties.payout_type.enum).toEqual(['withdrawal', 'transfer']);
  });

  it('amounts are integers in minor units, never floats', () => {
    const transaction = table(part(section(2), 'Transaction'));
    expect(transaction.find((row) => row.Field === 'amount')?.Type).toMatch(/integer in the sample/);
    const amount = spec.components.schemas.Amount;
    expect(amount.type).toBe('integer');
    expect(amount.minimum).toBe(1);
  });

  it("the specification's transaction fields are on every transaction and in webhook data", () => {
    const fields = table(part(section(2), 'Transaction')).map((row) => row.Field);
    expect(fields).toEqual(['transaction_id', 'amount', 'currency', 'status']);
    for (const name of ['Payment', 'Payout', 'Topup', 'EventData']) {
      expect(spec.components.schemas[name].required).toEqual(expect.arrayContaining(fields));
    }
  });
});

describe('the specification, section 4 rules and section 7 status codes', () => {
  const rules = numberedItems(part(section(4), 'Rules'));
  const statusCodes = table(part(section(7), 'Status codes')).map((row) => row['HTTP status']);

  it('section 7 lists the four statuses the rules below trace', () => {
    expect(statusCodes).toEqual([
      '400 Bad Request',
      '401 Unauthorized',
      '403 Forbidden',
      '429 Too Many Requests',
    ]);
  });

  it('rule 1: a payout the Main Balance cannot fund is 403 insufficient_balance', () => {
    expect(item(rules, 1)).toMatch(/Main Balance is insufficient, the response is 403 Forbidden/);
    // Beside it, the key-role refusal of decision 0030.
    expect(errorExampleCodes('createPayout', '403')).toEqual(['insufficient_balance', 'permission_denied']);
    expect(errorExampleCodes('createBulkPayout', '403')).toEqual([
      'insufficient_balance',
      'permission_denied',
    ]);
  });

  it('rule 2: every operation with a request body answers 400 with missing_field', () => {
    expect(item(rules, 2)).toMatch(/required fields are missing, the response is 400 Bad Request/);
    for (const op of operations().filter((o) => o.operation.requestBody)) {
      expect(responseCodes(op.operationId), op.operationId).toContain('400');
      expect(errorExampleCodes(op.operationId, '400'), op.operationId).toContain('missing_field');
    }
  });

  it('rule 3: invalid_amount says the amount must be greater than 0', () => {
    expect(item(rules, 3)).toMatch(
      /error code is invalid_amount with the message that the amount must be greater than 0/,
    );
    expect(table(part(section(7), 'Codes')).map((row) => row.Code)).toEqual(['invalid_amount']);
    expect(spec.components.schemas.ErrorCode.enum).toContain('invalid_amount');
    const example = spec.components.examples.InvalidAmountError.value;
    expect(example.error.code).toBe('invalid_amount');
    expect(example.error.message).toMatch(/amount must be greater than 0/);
  });

  it('rule 4: POST /payments answers 202 Accepted and the outcome follows by webhook', () => {
    expect(item(rules, 4)).toMatch(
      /A payment response of 202 only confirms initiation\. The outcome is reported by webhook\./,
    );
    expect(part(section(6), 'Emission')).toMatch(
      /Payout outcomes, both success and failure, are also notified/,
    );
    for (const id of ['createPayment', 'createDirectPayment', 'initiateHostedPayment']) {
      expect(responseCodes(id)).toContain('202');
      expect(responseCodes(id).filter((c) => c.startsWith('2'))).toEqual(['202']);
    }
    expect(Object.keys(spec['x-webhooks'])).toEqual(
      expect.arrayContaining(['payment.completed', 'payment.failed', 'payout.completed', 'payout.failed']),
    );
  });

  it('section 5.6: every authenticated operation answers 401 on an invalid key', () => {
    expect(item(numberedItems(section(5)), 6)).toMatch(/key is invalid, the response is 401 Unauthorized/);
    for (const op of operations().filter((o) => o.operation.security === undefined)) {
      expect(errorExampleCodes(op.operationId, '401'), op.operationId).toEqual(
        expect.arrayContaining(['invalid_api_key', 'missing_api_key', 'missing_api_user']),
      );
    }
  });

  it('section 8: every authenticated operation answers 429 with Retry-After', () => {
    expect(section(8)).toMatch(/When limits are exceeded, the service returns 429 Too Many Requests/);
    for (const op of operations().filter((o) => o.operation.security === undefined)) {
      const response = resolve(op.operation.responses['429']);
      expect(response, op.operationId).toBeDefined();
      expect(Object.keys(response.headers)).toEqual(
        expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
    }
  });
});

describe('the specification, sections 4 and 7: envelopes', () => {
  it('success envelope: status "success" and an object data', () => {
    expect(part(section(4), 'Conventions')).toMatch(
      /Success envelope: an object with `status` \(the string "success"\) and `data` \(an object\)/,
    );
    expect(spec.components.schemas.SuccessStatus.enum).toEqual(['success']);
    for (const op of operations()) {
      for (const [code, raw] of Object.entries<Json>(op.operation.responses)) {
        if (!code.startsWith('2')) continue;
        const schema = resolve(resolve(raw).content?.['application/json']?.schema);
        if (!schema) continue;
        expect(schema.required, `${op.operationId} ${code}`).toEqual(['status', 'data']);
        expect(schema.properties.status.$ref).toBe('#/components/schemas/SuccessStatus');
      }
    }
  });

  it('error envelope: status "error", error.code and error.message, on every 4xx', () => {
    const envelope = table(part(section(7), 'Error envelope'));
    expect(envelope.map((row) => row.Field)).toEqual(['status', 'error.code', 'error.message']);
    expect(envelope[0]?.Description).toBe('The value "error".');
    const error = spec.components.schemas.ErrorResponse;
    expect(error.required).toEqual(['status', 'error']);
    expect(error.properties.status.enum).toEqual(['error']);
    expect(error.properties.error.required).toEqual(expect.arrayContaining(['code', 'message']));
    for (const op of operations()) {
      for (const [code, raw] of Object.entries<Json>(op.operation.responses)) {
        if (!/^[45]/.test(code)) continue;
        expect(resolve(raw).content['application/json'].schema.$ref, `${op.operationId} ${code}`).toBe(
          '#/components/schemas/ErrorResponse',
        );
      }
    }
  });
});

describe('the specification, section 5: authentication', () => {
  const authentication = numberedItems(section(5));

  it('every operation requires the bearer key and the API User header together', () => {
    expect(item(authentication, 1)).toMatch(
      /Every request carries the header `Authorization: Bearer <API_KEY>`/,
    );
    expect(item(authentication, 3)).toMatch(/Every call also requires an API User header/);
    expect(spec.security).toEqual([{ bearerAuth: [], apiUser: [] }]);
    expect(spec.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(spec.components.securitySchemes.apiUser).toMatchObject({ in: 'header', name: 'X-API-User' });
    const open = operations().filter((o) => o.operation.security !== undefined);
    expect(open.map((o) => o.operationId)).toEqual(['getHealth']);
  });

  it('live keys start sk_live_ and test keys sk_test_', () => {
    expect(item(authentication, 8)).toMatch(/the live key sample starts with the prefix sk_live_/);
    expect(spec.components.securitySchemes.bearerAuth.bearerFormat).toContain('sk_live_');
    expect(spec.info.description).toContain('sk_test_');
  });

  it('sandbox: every operation accepts test=true', () => {
    expect(part(section(4), 'Conventions')).toMatch(/Sandbox mode: append the query parameter test=true/);
    for (const op of operations()) {
      expect(
        op.parameters.some((p) => p.name === 'test' && p.in === 'query'),
        op.operationId,
      ).toBe(true);
    }
  });

  it('every POST accepts an Idempotency-Key', () => {
    for (const op of operations().filter((o) => o.method === 'post')) {
      expect(
        op.parameters.some((p) => p.name === 'Idempotency-Key' && p.in === 'header'),
        op.operationId,
      ).toBe(true);
    }
  });
});

describe('the specification, section 6: events', () => {
  it('the webhook payload has event, data and an ISO 8601 timestamp, plus a stable id', () => {
    const payload = table(part(section(6), 'Payload shape'));
    expect(payload.map((row) => row.Field)).toEqual(['event', 'data', 'timestamp']);
    expect(payload.find((row) => row.Field === 'timestamp')?.Description).toMatch(/ISO 8601 UTC date-time/);
    expect(payload.find((row) => row.Field === 'event')?.Description).toMatch(/`payment\.completed`/);
    const event = spec.components.schemas.Event;
    expect(event.required).toEqual(expect.arrayContaining(['id', ...payload.map((row) => row.Field)]));
    expect(resolve(event.properties.timestamp).format).toBe('date-time');
    expect(spec.components.schemas.EventName.enum).toContain('payment.completed');
  });
});

describe('error code catalogue', () => {
  it('every code of the ErrorCode enum is documented in the introduction, and only those', () => {
    const documented = [...(spec.info.description as string).matchAll(/^\| \d{3} \| `([a-z_]+)` \|/gm)].map(
      (m) => m[1],
    );
    expect([...documented].sort()).toEqual([...spec.components.schemas.ErrorCode.enum].sort());
  });

  it('every error example uses a catalogued code', () => {
    for (const [name, example] of Object.entries<Json>(spec.components.examples)) {
      if (example.value?.status !== 'error') continue;
      expect(spec.components.schemas.ErrorCode.enum, name).toContain(example.value.error.code);
    }
  });
});

describe('operations are documented for reviewers', () => {
  it.each(operations().map((o) => [o.operationId, o] as const))('%s', (_id, op) => {
    expect(op.operationId).toMatch(/^[a-z]+[A-Z][A-Za-z]+$/);
    expect(op.operation.summary).toBeTruthy();
    expect(op.operation.description).toBeTruthy();
    expect(op.operation.tags?.length).toBe(1);
    expect(Object.keys(op.operation.responses).some((c) => c.startsWith('4'))).toBe(true);
  });
});
