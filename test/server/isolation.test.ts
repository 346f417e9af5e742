/**
 * Isolation: two accounts, A and B, each with test and live data. No key ever reads or changes
 * another account's objects, or its own account's objects of the other mode: the answer is 404,
 * as if they did not exist, and nothing changes. The operations are read from openapi.yaml, so
 * an operation added to the contract is covered here without anyone remembering to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../server/domain/ids.js';
import { settleTopup } from '../../server/domain/settlement.js';
import { ok } from '../support/api.js';
import { expectApiError } from '../support/error-envelope.js';
import { balanceOf, collect, createService, payOut, sandbox } from '../support/fixtures.js';
import { type ApiResponse, type Credentials, startTestServer, type TestServer } from '../support/server.js';
import { type Json, type Operation, operations, resolve, schemaErrors } from '../support/spec.js';

function expectStatus(response: ApiResponse, status: number) {
  expect(response.status, response.text).toBe(status);
}

// ---- The parties -----------------------------------------------------------------------------

type PartyName = 'A test' | 'A live' | 'B test' | 'B live';

interface Party {
  name: PartyName;
  mode: 'test' | 'live';
  as: Credentials;
  accountId: string;
  wallet: string;
  /** The ids this party created, by prefix (`svc`, `we`, `tu`, `pay`, `po`, `evt`, `key`). */
  ids: Record<string, string>;
}

let server: TestServer;
const parties = {} as Record<PartyName, Party>;
const party = (name: PartyName) => parties[name];
const partyNames: PartyName[] = ['A test', 'A live', 'B test', 'B live'];

function request(
  as: Party,
  method: string,
  path: string,
  body?: Json,
  query?: Record<string, string | number>,
) {
  return server.raw(method, path, {
    as: as.as,
    ...(body !== undefined ? { body } : {}),
    ...(query ? { query } : {}),
  });
}

async function dataOf(response: ApiResponse, status: number, what: string) {
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${response.text}`);
  return response.body.data;
}

/** The balance and its whole ledger, to compare before and after. */
async function moneyOf(p: Party) {
  return {
    balance: (await request(p, 'GET', '/balance')).body,
    ledger: (await request(p, 'GET', '/balance/transactions', undefined, { limit: 100 })).body,
  };
}

/** The four parties: accounts A and B, each in test and live mode, with their wallets. */
async function meetParties() {
  const b = await server.newAccount('Account B');
  const accounts = {
    A: { accountId: server.account.accountId, test: server.test, live: server.live },
    B: { accountId: b.account.accountId, test: b.test, live: b.live },
  };
  for (const name of partyNames) {
    const [account, mode] = name.split(' ') as ['A' | 'B', 'test' | 'live'];
    const as = accounts[account][mode];
    const { wallet_id } = ok(await server.apiAs(as).GET('/balance')).data;
    parties[name] = { name, mode, as, accountId: accounts[account].accountId, wallet: wallet_id, ids: {} };
  }
}

/** One of each object a party can own but payouts and events: a key, a service, an endpoint, a top-up and a payment. */
async function createObjects(p: Party) {
  const api = server.apiAs(p.as);
  p.ids.key = ok(await api.GET('/api-keys')).data.items[0]?.id as string;
  p.ids.svc = await createService(server, p.as, `${p.name} shop`);
  // Live endpoints must be public: an IP literal needs no DNS. Nothing delivers in these tests
  // (the workers do not run), so that address is never called.
  const url = p.mode === 'test' ? 'http://127.0.0.1:9/hook' : 'https://93.184.216.34/hook';
  p.ids.we = ok(await api.POST('/webhook-endpoints', { body: { url } })).data.id;
  const topup = {
    amount: 50_000,
    currency: 'XAF',
    payer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo',
  } as const;
  p.ids.tu = ok(await api.POST('/topups', { body: topup })).data.transaction_id;
  p.ids.pay = await collect(server, p.ids.svc, 5000, sandbox.mtn.succeeds, p.as);
}

/**
 * No live operator is connected (server/operators/unconnected-operator.ts), so live money can
 * never come in through the API. The live top-ups are completed here as a connected operator
 * would report them, with the settlement code's own transition, so live payouts can exist.
 */
async function completeLiveTopups() {
  for (const p of [party('A live'), party('B live')]) {
    await server.service.deps.store.transact(async (tx) => {
      const row = await tx.topups.get(p.accountId, 'live', p.ids.tu as string);
      if (!row || !(await settleTopup(tx, row, { status: 'success' }, server.clock.now()))) {
        throw new Error(`could not complete the live top-up ${p.ids.tu}`);
      }
    });
  }
  await server.settle();
}

async function findPaymentEvent(p: Party) {
  const query = { transaction_id: p.ids.pay as string };
  const event = ok(await server.apiAs(p.as).GET('/events', { params: { query } })).data.items[0];
  if (!event) throw new Error(`${p.name} has no event for its payment ${p.ids.pay}`);
  p.ids.evt = event.id;
}

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_PER_WINDOW: '1000000',
    // Sandbox endpoints here are on 127.0.0.1: that needs the opt-in.
    WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
  });
  await meetParties();
  for (const p of Object.values(parties)) await createObjects(p);
  await completeLiveTopups();
  for (const p of Object.values(parties)) p.ids.po = await payOut(server, 1000, p.as);
  await server.settle();
  for (const p of Object.values(parties)) await findPaymentEvent(p);
});

afterAll(() => server?.close());

/** A condition and what the server must answer to it: `<operation> > <condition> > <answer>`. */
function when(condition: string, answer: string, test: () => Promise<void>) {
  describe(condition, () => {
    it(answer, test);
  });
}

function bodySchemaOf(op: Operation): Json | undefined {
  const body = op.operation.requestBody ? resolve(op.operation.requestBody) : undefined;
  const schema = body?.content?.['application/json']?.schema;
  return schema ? resolve(schema) : undefined;
}

function idPrefixOf(op: Operation): string {
  const parameter = op.parameters.find((p) => p.in === 'path' && p.name === 'id');
  const prefix = /^\^(\w+?)_/.exec(resolve(parameter?.schema ?? {}).pattern ?? '')?.[1];
  if (!prefix) throw new Error(`${op.operationId} has no id pattern for {id}`);
  return prefix;
}

function idOf(p: Party, prefix: string): string {
  const id = p.ids[prefix];
  if (!id) throw new Error(`${p.name} has no object with the prefix ${prefix}: create one in beforeAll`);
  return id;
}

const allOperations = operations();

// ---- Operations on one object: another account's ids, or the other mode's, are 404 -----------

/** A valid body for each write on an id, so the only thing wrong is whose id it is. */
const intrusionBodies: Record<string, Json> = {
  updateService: { name: 'Taken over', status: 'inactive' },
  updateWebhookEndpoint: {
    description: 'taken over',
    status: 'disabled',
    url: 'https://93.184.216.34/stolen',
  },
  resendEvent: {},
  rotateWebhookEndpointSecret: { overlap_seconds: 60 },
};

/** Whose id, and which keys must not reach it. */
const intrusions: Array<{ target: PartyName; intruders: PartyName[] }> = [
  { target: 'A test', intruders: ['B test', 'B live', 'A live'] },
  { target: 'A live', intruders: ['B live', 'B test', 'A test'] },
];

/**
 * Bank batches are left to test/bank/bank-payouts.test.ts ("answers 404 for another account's
 * batch, its file and its statements"): no bank is connected in live mode, so a live party can
 * own none through the API, and this file needs one of each object for every party.
 */
const bankBatches = (op: Operation) => op.path.startsWith('/bank-batches');
const withId = allOperations.filter((op) => op.path.includes('{id}') && !bankBatches(op));

/** Everything A can read about the object an operation works on, in both modes, and A's money. */
async function stateOfA(op: Operation) {
  const collection = `/${op.path.split('/')[1]}`;
  const reads = allOperations.filter(
    (o) =>
      o.method === 'get' &&
      (o.path === collection || (o.path.startsWith(`${collection}/{id}`) && o.path.includes('{id}'))),
  );
  const state: Record<string, unknown> = {};
  for (const name of ['A test', 'A live'] as const) {
    const p = party(name);
    for (const read of reads) {
      const path = read.path.replace('{id}', idOf(p, idPrefixOf(op)));
      const limit = read.parameters.some((q) => q.name === 'limit') ? { limit: 100 } : undefined;
      const response = await request(p, 'GET', path, undefined, limit);
      expectStatus(response, 200);
      state[`${name} ${path}`] = response.body;
    }
    state[`${name} money`] = await moneyOf(p);
  }
  return state;
}

describe('the contract', () => {
  it('has the operations on one object this file expects, each with an id this file can create', () => {
    expect(withId.map((op) => op.operationId)).toEqual([
      'getPayment',
      'getPayout',
      'getTopup',
      'getService',
      'updateService',
      'deleteService',
      'getWebhookEndpoint',
      'updateWebhookEndpoint',
      'deleteWebhookEndpoint',
      'rotateWebhookEndpointSecret',
      'getEvent',
      'listEventDeliveries',
      'resendEvent',
      'revokeApiKey',
    ]);
    for (const op of withId) expect(party('A test').ids[idPrefixOf(op)], op.operationId).toBeDefined();
  });
});

for (const op of withId) {
  const bodySchema = bodySchemaOf(op);
  describe(`${op.method.toUpperCase()} ${op.path} (${op.operationId})`, () => {
    let before: Record<string, unknown> | undefined;
    beforeAll(async () => {
      before = await stateOfA(op);
    });

    if (bodySchema) {
      it('sends a body the contract accepts, so only the id is wrong', () => {
        expect(intrusionBodies[op.operationId], `add ${op.operationId} to intrusionBodies`).toBeDefined();
        expect(schemaErrors(bodySchema, intrusionBodies[op.operationId])).toEqual([]);
      });
    }

    for (const { target, intruders } of intrusions) {
      for (const intruder of intruders) {
        when(`with ${intruder}'s key on ${target}'s id`, 'answers 404 resource_not_found', async () => {
          const path = op.path.replace('{id}', idOf(party(target), idPrefixOf(op)));
          const body = bodySchema ? intrusionBodies[op.operationId] : undefined;
          expectApiError(
            await request(party(intruder), op.method.toUpperCase(), path, body),
            404,
            'resource_not_found',
          );
        });
      }
    }

    it("afterwards > has changed nothing of A's, in either mode", async () => {
      expect(before).toBeDefined();
      expect(await stateOfA(op)).toEqual(before);
    });
  });
}

// ---- Lists: each key sees its own account's items of its own mode, and nothing else ----------

function listKindOf(op: Operation): 'json' | 'csv' | undefined {
  if (op.method !== 'get' || op.parameters.some((p) => p.in === 'path')) return undefined;
  const content = resolve(op.operation.responses?.['200'])?.content ?? {};
  if (content['text/csv']) return 'csv';
  const schema = resolve(content['application/json']?.schema ?? {});
  return resolve(schema.properties?.data ?? {}).properties?.items ? 'json' : undefined;
}

const lists = allOperations.filter((op) => listKindOf(op) !== undefined && !bankBatches(op));

/** The identifier of a list item: the first id-like field the contract gives it. */
const itemId = (item: Json): string => item.transaction_id ?? item.service_id ?? item.id;

async function listAs(op: Operation, p: Party): Promise<Array<{ id: string; mode?: string }>> {
  const query: Record<string, string | number> = {};
  for (const parameter of op.parameters) {
    if (parameter.name === 'limit') query.limit = 100;
    else if (parameter.required && parameter.name === 'created_gte')
      query.created_gte = '2020-01-01T00:00:00Z';
    else if (parameter.required && parameter.name === 'created_lt') query.created_lt = '2100-01-01T00:00:00Z';
    else if (parameter.required) throw new Error(`${op.operationId}: no value known for ${parameter.name}`);
  }
  const response = await request(p, 'GET', op.path, undefined, query);
  expectStatus(response, 200);
  if (listKindOf(op) === 'csv') {
    const [, ...rows] = response.text.trim().split('\n');
    return rows.map((row) => ({ id: row.split(',')[0] as string }));
  }
  return (response.body.data.items as Json[]).map((item) => ({ id: itemId(item), mode: item.mode }));
}

describe('lists', () => {
  it('include every list of the contract, the CSV export too', () => {
    expect(lists.map((op) => op.operationId)).toEqual(
      expect.arrayContaining([
        'listPayments',
        'listPayouts',
        'listTopups',
        'listServices',
        'exportBalanceTransactions',
      ]),
    );
  });
});

for (const op of lists) {
  describe(`${op.method.toUpperCase()} ${op.path} (${op.operationId})`, () => {
    when(
      "with each account's test and live keys",
      "shows only that account's items of that mode, and all the ones it created",
      async () => {
        // Calls are logged in batches: write what is buffered so /logs shows every call so far.
        await server.service.callLog.flush();
        const seen = {} as Record<PartyName, Array<{ id: string; mode?: string }>>;
        for (const name of partyNames) seen[name] = await listAs(op, party(name));
        for (const name of partyNames) {
          const own = seen[name];
          expect(own.length, `${name}'s key lists nothing, so isolation cannot be checked`).toBeGreaterThan(
            0,
          );
          for (const item of own)
            if (item.mode !== undefined) expect(item.mode, item.id).toBe(party(name).mode);
          const ids = new Set(own.map((item) => item.id));
          const prefixes = new Set(own.map((item) => item.id.split('_')[0]));
          for (const other of partyNames) {
            const theirs = Object.values(party(other).ids).filter((id) => prefixes.has(id.split('_')[0]));
            for (const id of theirs)
              expect(ids.has(id), `${id} of ${other} in ${name}'s list`).toBe(other === name);
            if (other !== name) {
              const shared = seen[other].filter((item) => ids.has(item.id)).map((item) => item.id);
              expect(shared, `items both ${name} and ${other} see`).toEqual([]);
            }
          }
        }
      },
    );
  });
}

describe('GET /balance (getBalance)', () => {
  when("with each account's test and live keys", 'shows that wallet, in that mode', async () => {
    for (const name of partyNames) {
      const data = await dataOf(await request(party(name), 'GET', '/balance'), 200, 'balance');
      expect({ wallet_id: data.wallet_id, mode: data.mode }).toEqual({
        wallet_id: party(name).wallet,
        mode: party(name).mode,
      });
    }
    expect(new Set(partyNames.map((name) => party(name).wallet)).size).toBe(4);
  });
});

// ---- Writes that name another account's or mode's objects in their body --------------------

async function everyonesMoney() {
  const money: Record<string, unknown> = {};
  for (const name of partyNames) money[name] = await moneyOf(party(name));
  return money;
}

describe('POST /refunds (createRefund)', () => {
  for (const intruder of ['B test', 'A live'] as const) {
    when(
      `with ${intruder}'s key on A's successful test payment`,
      'answers 404 resource_not_found and moves nothing',
      async () => {
        const payment = idOf(party('A test'), 'pay');
        const paymentBefore = (await request(party('A test'), 'GET', `/payments/${payment}`)).body;
        expect(paymentBefore.data.status).toBe('success');
        const moneyBefore = await everyonesMoney();
        const response = await request(party(intruder), 'POST', '/refunds', {
          payment_id: payment,
          amount: 100,
        });
        expectApiError(response, 404, 'resource_not_found');
        expect((await request(party('A test'), 'GET', `/payments/${payment}`)).body).toEqual(paymentBefore);
        expect(await everyonesMoney()).toEqual(moneyBefore);
      },
    );
  }
});

const paymentCreations = allOperations.filter((op) => bodySchemaOf(op)?.properties?.service_id);

for (const op of paymentCreations) {
  describe(`${op.method.toUpperCase()} ${op.path} (${op.operationId})`, () => {
    const cases: Array<{ intruder: PartyName; owner: PartyName }> = [
      { intruder: 'B test', owner: 'A test' },
      { intruder: 'B live', owner: 'A live' },
      { intruder: 'A live', owner: 'A test' },
    ];
    for (const { intruder, owner } of cases) {
      when(
        `with ${intruder}'s key naming ${owner}'s service`,
        'answers 422 service_not_found and creates nothing',
        async () => {
          const body = {
            amount: 1500,
            currency: 'XAF',
            customer_msisdn: sandbox.mtn.succeeds,
            payment_method: 'mtn_momo',
            service_id: idOf(party(owner), 'svc'),
          };
          expect(schemaErrors(bodySchemaOf(op), body)).toEqual([]);
          const listBefore = (await request(party(intruder), 'GET', '/payments', undefined, { limit: 100 }))
            .body;
          const response = await request(party(intruder), 'POST', op.path, body);
          expectApiError(response, 422, 'service_not_found');
          expect(response.body.error.param).toBe('service_id');
          expect(
            (await request(party(intruder), 'GET', '/payments', undefined, { limit: 100 })).body,
          ).toEqual(listBefore);
        },
      );
    }
  });
}

describe('POST /payouts (createPayout) and POST /payouts/bulk (createBulkPayout)', () => {
  const cases: Array<{ sender: PartyName; recipient: PartyName }> = [
    { sender: 'A test', recipient: 'B live' },
    { sender: 'A test', recipient: 'A live' },
    { sender: 'A live', recipient: 'B test' },
  ];
  for (const { sender, recipient } of cases) {
    when(
      `a transfer from ${sender} to ${recipient}'s wallet`,
      'answers 422 wallet_not_found and moves nothing',
      async () => {
        const before = await everyonesMoney();
        const item = { amount: 100, payout_type: 'transfer', recipient_wallet_id: party(recipient).wallet };
        const single = await request(party(sender), 'POST', '/payouts', { ...item, currency: 'XAF' });
        expectApiError(single, 422, 'wallet_not_found');
        expect(single.body.error.param).toBe('recipient_wallet_id');
        const bulk = await request(party(sender), 'POST', '/payouts/bulk', {
          currency: 'XAF',
          items: [item],
        });
        expectApiError(bulk, 422, 'wallet_not_found');
        expect(bulk.body.error.param).toBe('items[0].recipient_wallet_id');
        expect(await everyonesMoney()).toEqual(before);
      },
    );
  }

  when(
    "a test transfer from A to B's test wallet",
    'moves test money only: no live balance changes',
    async () => {
      const liveBefore = { a: await moneyOf(party('A live')), b: await moneyOf(party('B live')) };
      const [aTest, bTest] = [
        await balanceOf(server, party('A test').as),
        await balanceOf(server, party('B test').as),
      ];
      const response = await request(party('A test'), 'POST', '/payouts', {
        amount: 700,
        currency: 'XAF',
        payout_type: 'transfer',
        recipient_wallet_id: party('B test').wallet,
      });
      expectStatus(response, 202);
      expect(response.body.data).toMatchObject({ status: 'success', mode: 'test' });
      expect([
        await balanceOf(server, party('A test').as),
        await balanceOf(server, party('B test').as),
      ]).toEqual([aTest - 700, bTest + 700]);
      expect({ a: await moneyOf(party('A live')), b: await moneyOf(party('B live')) }).toEqual(liveBefore);
    },
  );
});

describe('ids that exist nowhere', () => {
  it('are refused the same way as ids of another account, so their existence is not revealed', async () => {
    const unknown = await request(party('B test'), 'GET', `/payments/pay_${randomBase62(24)}`);
    const foreign = await request(party('B test'), 'GET', `/payments/${idOf(party('A test'), 'pay')}`);
    expectApiError(unknown, 404, 'resource_not_found');
    expectApiError(foreign, 404, 'resource_not_found');
    const shape = (r: ApiResponse) => ({
      status: r.status,
      code: r.body.error.code,
      keys: Object.keys(r.body.error).sort(),
    });
    expect(shape(foreign)).toEqual(shape(unknown));
  });
});
