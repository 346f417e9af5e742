/**
 * dredd hooks (run by test/contract/tools/dredd.ts, which creates the fixtures and passes them
 * in CONTRACT_DREDD_CONTEXT). dredd 14 makes one transaction per operation and documented
 * response status, from the spec's examples; these hooks turn each into the request that
 * really produces that status on a live server:
 *
 * - every transaction: the two auth headers, a fresh Idempotency-Key, the example ids replaced
 *   by real ones, the expected Content-Type as Express sends it (`; charset=utf-8`), and the
 *   response's schema from the contract (see responseSchemas in tools/dredd.ts);
 * - each 4xx: the request the contract says leads to it (missing field, invalid amount, bad
 *   key, short balance, unknown id, reused idempotency key, deleted service, oversized body,
 *   text body, unusable service or wallet, refund above the payment, rate limit, a read-only
 *   key's write), and
 *   afterwards a check of the error `code` the catalogue gives for it;
 * - a status nothing can produce from outside is skipped, with its reason in the report.
 */
const hooks = require('hooks');
const { readFileSync, writeFileSync } = require('node:fs');

const ctx = JSON.parse(readFileSync(process.env.CONTRACT_DREDD_CONTEXT, 'utf8'));
const f = ctx.fixtures;
const report = { skips: [], crafted: 0, codeChecks: 0 };
const expectedCodes = new Map();
let counter = 0;

const unknownId = (prefix) => `${prefix}_${'Z'.repeat(24)}`;
const fixtureByPrefix = {
  pay: f.paymentId,
  po: f.payoutId,
  tu: f.topupId,
  svc: f.serviceId,
  we: f.webhookEndpointId,
  evt: f.eventId,
  wal: f.otherWalletId,
};
/** Every example id (`pay_26ck...`) becomes the fixture of its kind (keys: see keyStates). */
const realIds = (text) =>
  text.replace(
    /\b(pay|po|tu|svc|we|evt|wal)_[0-9A-Za-z]{24}\b/g,
    (id, prefix) => fixtureByPrefix[prefix] ?? id,
  );

/** Objects that a transaction consumes or needs in a given state, by operation. */
const pathFixture = {
  updateService: f.serviceToUpdate,
  deleteService: f.serviceToDelete,
  updateWebhookEndpoint: f.endpointToUpdate,
  deleteWebhookEndpoint: f.endpointToDelete,
  rotateWebhookEndpointSecret: f.endpointToRotate,
};

/** A body that differs from the 2xx one, for the idempotency conflict. */
const conflicting = {
  createPayment: (b) => ({ ...b, reference: 'dredd-conflict' }),
  createDirectPayment: (b) => ({ ...b, reference: 'dredd-conflict' }),
  initiateHostedPayment: (b) => ({ ...b, reference: 'dredd-conflict' }),
  createPayout: (b) => ({ ...b, reference: 'dredd-conflict' }),
  createBulkPayout: (b) => ({ ...b, items: b.items.map((i) => ({ ...i, reference: 'dredd-conflict' })) }),
  createTopup: (b) => ({ ...b, reference: 'dredd-conflict' }),
  createService: (b) => ({ ...b, name: 'dredd conflict' }),
  createWebhookEndpoint: (b) => ({ ...b, description: 'dredd conflict' }),
  resendEvent: () => ({}),
  rotateApiKey: () => ({ grace_period_seconds: 7200 }),
  createApiKey: (b) => ({ ...b, role: b.role === 'collect' ? 'read_only' : 'collect' }),
};

const authCodes = {
  GET: 'missing_api_key',
  POST: 'invalid_api_key',
  PUT: 'invalid_api_user',
  DELETE: 'invalid_api_user',
};

function skip(transaction, reason) {
  transaction.skip = true;
  report.skips.push({ name: transaction.name, reason });
}

async function send(method, path, credentials, body, idempotencyKey) {
  const headers = { authorization: `Bearer ${credentials.key}`, 'x-api-user': credentials.apiUser };
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${ctx.apiUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

/**
 * Bank batches need a batch made from waiting bank payouts, and their statements an XML body
 * dredd cannot build from the contract: test/bank/bank-payouts.test.ts drives every one of
 * their statuses on both engines instead (and the fuzz tool sends them generated requests).
 */
const bankBatchOperations = new Set([
  'createBankBatch',
  'listBankBatches',
  'getBankBatch',
  'getBankBatchFile',
  'createBankStatement',
  'getBankBatchSandboxStatement',
]);

async function craft(transaction) {
  const op = transaction.origin.actionName;
  if (bankBatchOperations.has(op)) {
    return skip(
      transaction,
      'bank batches: proven by test/bank/bank-payouts.test.ts (a batch and XML bodies)',
    );
  }
  const status = Number(transaction.expected.statusCode);
  const method = transaction.request.method;
  const [rawPath, rawQuery = ''] = transaction.fullPath.replace(/^\/v1/, '').split('?');
  let path = realIds(rawPath);
  const query = new URLSearchParams(rawQuery);
  query.delete('cursor'); // the example cursor is not one this server returned
  let body = transaction.request.body ? JSON.parse(realIds(transaction.request.body)) : undefined;
  // The contract's example URL is a public host: the server would call it. Every endpoint dredd
  // registers points at the suite's sink on 127.0.0.1 instead.
  if (body && typeof body.url === 'string' && /^(create|update)WebhookEndpoint$/.test(op))
    body.url = ctx.sinkUrl;
  let rawBody;
  let contentType = body === undefined ? undefined : 'application/json';
  let credentials = op === 'rotateApiKey' || op === 'revokeApiKey' ? ctx.rotation : ctx.account;
  let expectCode;
  const headers = {};
  const idempotencyKey = `dredd-${process.pid}-${++counter}`;
  if (pathFixture[op]) path = path.replace(/[a-z]+_[0-9A-Za-z]{24}/, pathFixture[op]);

  if (op === 'revokeApiKey' && [200, 403, 409].includes(status)) {
    // The rotation account's keys, in the state each status needs (see keyStates below).
    const prepared = await keyStates[status]();
    path = `/api-keys/${prepared.id}/revoke`;
    credentials = prepared.credentials;
    expectCode = prepared.code;
  }

  switch (status) {
    case 200:
    case 201:
    case 202:
      break;
    case 400:
      if (op === 'createPayment') {
        body.amount = 0;
        expectCode = 'invalid_amount';
      } else if (body !== undefined) {
        const required = (ctx.requiredBodyFields[op] ?? []).find((name) => name in body);
        if (required) {
          delete body[required];
          expectCode = 'missing_field';
        } else {
          body.unexpected_field = true;
          expectCode = 'unknown_field';
        }
      } else {
        query.set('test', 'maybe');
        expectCode = 'invalid_parameter';
      }
      break;
    case 401:
      expectCode = authCodes[method];
      if (method === 'GET') credentials = null;
      else if (method === 'POST') credentials = { ...credentials, key: `sk_test_${'0'.repeat(32)}` };
      else credentials = { ...credentials, apiUser: '00000000-0000-4000-8000-000000000000' };
      break;
    case 403:
      if (
        !['rotateApiKey', 'revokeApiKey', 'createPayout', 'createBulkPayout', 'createRefund'].includes(op)
      ) {
        // A key whose role lacks the operation's x-permission (decision 0030).
        expectCode = 'permission_denied';
        credentials = ctx.readOnly;
        break;
      }
      if (op === 'rotateApiKey') {
        // A key in its grace period (the one the 201 transaction retired) manages no keys.
        expectCode = 'key_not_active';
        credentials = ctx.rotationPrevious;
        if (!credentials) throw new Error('no key in its grace period: the 201 rotation did not run first');
        break;
      }
      if (op === 'revokeApiKey') break;
      expectCode = 'insufficient_balance';
      if (op === 'createPayout') body.amount = 1_000_000_000;
      else if (op === 'createBulkPayout')
        body.items = body.items.map((i) => ({ ...i, amount: 1_000_000_000 }));
      else if (op === 'createRefund') {
        credentials = ctx.poor;
        body = { payment_id: ctx.poor.paymentId, amount: 1000 };
      }
      break;
    case 404:
      expectCode = 'resource_not_found';
      if (op === 'revokeApiKey') path = `/api-keys/${unknownId('key')}/revoke`;
      else if (op === 'createRefund') body.payment_id = unknownId('pay');
      else path = path.replace(/\b([a-z]+)_[0-9A-Za-z]{24}\b/, (_, prefix) => unknownId(prefix));
      break;
    case 409:
      if (op === 'revokeApiKey') break;
      if (op === 'updateService') {
        path = `/services/${f.deletedService}`;
        expectCode = 'service_deleted';
      } else if (op === 'createRefund') {
        body = { payment_id: f.pendingPaymentId };
        expectCode = 'payment_not_refundable';
      } else {
        // The same key, first with the 2xx request, then with another request.
        expectCode = 'idempotency_key_reused';
        // A rotation that retires the caller at once fits beside the key in its grace period.
        if (op === 'rotateApiKey') body = { grace_period_seconds: 0 };
        const first = await send(
          method,
          path + (query.size ? `?${query}` : ''),
          credentials,
          body,
          idempotencyKey,
        );
        if (op === 'rotateApiKey')
          credentials = ctx.rotation = { ...ctx.rotation, key: first.data.secret_key };
        if (op === 'rotateWebhookEndpointSecret')
          path = `/webhook-endpoints/${f.webhookEndpointId}/rotate-secret`;
        else body = conflicting[op](body ?? {});
        headers['Idempotency-Key'] = idempotencyKey;
      }
      break;
    case 413:
      expectCode = 'payload_too_large';
      rawBody = JSON.stringify({ reference: 'x'.repeat(70 * 1024) });
      break;
    case 415:
      expectCode = 'unsupported_media_type';
      rawBody = 'amount=2500&currency=XAF';
      contentType = 'text/plain';
      break;
    case 422:
      expectCode = {
        createPayment: 'service_not_found',
        createDirectPayment: 'service_inactive',
        initiateHostedPayment: 'service_inactive',
        createPayout: 'wallet_not_found',
        createBulkPayout: 'wallet_not_found',
        createRefund: 'refund_exceeds_payment',
        createTopup: 'unsupported_network',
      }[op];
      if (op === 'createPayment') body.service_id = unknownId('svc');
      else if (op === 'createDirectPayment') body.service_id = f.inactiveService;
      else if (op === 'initiateHostedPayment') body.service_id = f.deletedService;
      else if (op === 'createPayout')
        body = {
          ...body,
          recipient_msisdn: undefined,
          recipient_wallet_id: unknownId('wal'),
          payout_type: 'transfer',
        };
      else if (op === 'createBulkPayout') body.items[1].recipient_wallet_id = unknownId('wal');
      else if (op === 'createRefund') body.amount = 10_001;
      else if (op === 'createTopup') {
        // Live mode with only MTN MoMo connected: an Orange top-up has no operator.
        credentials = ctx.liveRouted;
        transaction.port = new URL(ctx.liveRouted.apiUrl).port;
        query.delete('test');
        body.payment_method = 'orange_money';
      }
      break;
    case 429:
      if (!ctx.rateLimited) {
        return skip(
          transaction,
          `the server does not rate-limit yet (a server with RATE_LIMIT_PER_WINDOW=1 answered ${ctx.rateLimitProbe.join(', ')} to two calls)`,
        );
      }
      expectCode = 'rate_limited';
      credentials = ctx.rateLimited;
      transaction.port = new URL(ctx.rateLimited.apiUrl).port;
      break;
    case 500:
      return skip(
        transaction,
        '500 is documented on every operation for a bug on our side: nothing outside the server can cause one (test/faults covers the envelope)',
      );
    case 503:
      return skip(
        transaction,
        '503 needs a database that stops answering: nothing outside the server can cause that, and a fault switch in server/ is not allowed (test/faults covers it)',
      );
    default:
      return skip(transaction, `no recipe for status ${status}`);
  }

  if (status >= 400) report.crafted += 1;
  if (expectCode) expectedCodes.set(transaction.name, expectCode);
  transaction.fullPath = `/v1${path}${query.size ? `?${query}` : ''}`;
  const requestHeaders = {};
  for (const [name, value] of Object.entries(transaction.request.headers)) {
    if (!/^(authorization|x-api-user|idempotency-key|content-type)$/i.test(name))
      requestHeaders[name] = value;
  }
  if (credentials?.key) requestHeaders.Authorization = `Bearer ${credentials.key}`;
  if (credentials?.apiUser) requestHeaders['X-API-User'] = credentials.apiUser;
  if (method === 'POST') requestHeaders['Idempotency-Key'] = idempotencyKey;
  Object.assign(requestHeaders, headers);
  if (rawBody !== undefined) transaction.request.body = rawBody;
  else transaction.request.body = body === undefined ? '' : JSON.stringify(body);
  if (contentType && transaction.request.body !== '') requestHeaders['Content-Type'] = contentType;
  transaction.request.headers = requestHeaders;

  // The contract's schema for this response (dredd 14 derives none from `$ref`'d schemas).
  const schema = ctx.schemas[op]?.[String(status)];
  if (schema) transaction.expected.bodySchema = { ...schema, definitions: ctx.definitions };

  // Express adds the charset to the media type.
  const expectedHeaders = transaction.expected.headers;
  for (const name of Object.keys(expectedHeaders)) {
    if (name.toLowerCase() !== 'content-type') continue;
    expectedHeaders[name] = `${expectedHeaders[name]}; charset=utf-8`;
    // gavel compares a text body to the example byte for byte: the CSV's columns are checked
    // after the call instead.
    if (expectedHeaders[name].startsWith('text/csv')) delete transaction.expected.body;
  }
}

/** The working keys of the rotation account, as seen by its current key. */
async function workingKeys() {
  const list = await send('GET', '/api-keys?limit=100', ctx.rotation);
  return list.data.items.filter((k) => k.status !== 'revoked');
}

async function rotateWithGrace() {
  const previous = ctx.rotation;
  const rotated = await send('POST', '/api-keys/rotate', ctx.rotation, { grace_period_seconds: 3600 });
  ctx.rotation = { ...ctx.rotation, key: rotated.data.secret_key };
  return {
    previous,
    current: ctx.rotation,
    previousId: rotated.data.previous_key.id,
    currentId: rotated.data.api_key.id,
  };
}

/**
 * revokeApiKey's statuses need keys in given states, made here from the rotation account:
 * 200 revokes a key in its grace period; 403 is a key in its grace period trying to revoke;
 * 409 is the last working key revoking itself.
 */
const keyStates = {
  200: async () => {
    let spare = (await workingKeys()).find((k) => k.status === 'expiring');
    if (!spare) spare = { id: (await rotateWithGrace()).previousId };
    return { id: spare.id, credentials: ctx.rotation };
  },
  403: async () => {
    for (const key of await workingKeys()) {
      if (key.status === 'expiring') await send('POST', `/api-keys/${key.id}/revoke`, ctx.rotation);
    }
    const { previous, currentId } = await rotateWithGrace();
    return { id: currentId, credentials: previous, code: 'key_not_active' };
  },
  409: async () => {
    const keys = await workingKeys();
    for (const key of keys) {
      if (key.status === 'expiring') await send('POST', `/api-keys/${key.id}/revoke`, ctx.rotation);
    }
    const own = keys.find((k) => k.status === 'active');
    return { id: own.id, credentials: ctx.rotation, code: 'last_active_key' };
  },
};

/** The CSV export's first line, as its description documents it. */
const csvColumns = 'id,created_at,type,amount,currency,balance_after,source_id,description';

hooks.beforeEach((transaction, done) => {
  craft(transaction).then(
    () => done(),
    (err) => {
      transaction.fail = `the hook could not prepare the request: ${err.message}`;
      done();
    },
  );
});

hooks.afterEach((transaction) => {
  if (transaction.skip || !transaction.real) return;
  const op = transaction.origin.actionName;
  let body;
  try {
    body = JSON.parse(transaction.real.body);
  } catch {
    body = undefined;
  }
  if (op === 'rotateApiKey' && transaction.real.statusCode === 201 && body?.data?.secret_key) {
    if (body.data.previous_key.status === 'expiring') ctx.rotationPrevious = ctx.rotation;
    ctx.rotation = { ...ctx.rotation, key: body.data.secret_key };
  }
  if (op === 'exportBalanceTransactions' && transaction.real.statusCode === 200) {
    report.codeChecks += 1;
    const header = transaction.real.body.split(/\r?\n/)[0];
    if (header !== csvColumns) transaction.fail = `the CSV starts with "${header}", not "${csvColumns}"`;
  }
  const expected = expectedCodes.get(transaction.name);
  if (!expected) return;
  report.codeChecks += 1;
  const actual = body?.error?.code;
  if (actual !== expected) {
    transaction.fail = `expected error code ${expected}, got ${actual ?? 'none'}: ${transaction.real.body}`;
  }
});

hooks.afterAll((_transactions, done) => {
  writeFileSync(ctx.reportFile, JSON.stringify(report));
  done();
});
