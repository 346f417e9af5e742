/**
 * The contract suite's view of the API: the tests' one client (test/support/api.ts, `raw`: real
 * `fetch`, the two auth headers, the response read once as text and parsed when it says JSON),
 * bound to one server and account, with each reply's content type. Nothing is retried or hidden.
 */
import { type Credentials, type RawOptions, type RawReply, raw, readReply } from '../../support/api.js';
import { sandbox } from '../../support/fixtures.js';
import type { Account } from './server.js';

export type { Credentials };

export const testCredentials = (account: Account): Credentials => ({
  apiUser: account.apiUser,
  key: account.testKey,
});

export interface CallOptions extends Omit<RawOptions, 'timeoutMs'> {
  /** The type `rawBody` is sent with (default application/json). */
  contentType?: string;
}

export interface Reply extends RawReply {
  contentType: string;
}

export class Api {
  constructor(
    readonly baseUrl: string,
    public credentials: Credentials,
  ) {}

  as(credentials: Credentials): Api {
    return new Api(this.baseUrl, credentials);
  }

  url(path: string, query?: CallOptions['query']): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) search.append(name, String(value));
    }
    const qs = search.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    const { contentType, ...rest } = options;
    const headers =
      options.rawBody === undefined
        ? options.headers
        : { 'content-type': contentType ?? 'application/json', ...options.headers };
    const reply = await raw(this.baseUrl, method, path, {
      ...rest,
      as: options.as === undefined ? this.credentials : options.as,
      ...(headers ? { headers } : {}),
    });
    return withContentType(reply);
  }

  get = (path: string, options?: CallOptions) => this.call('GET', path, options);
  post = (path: string, body?: unknown, options?: CallOptions) =>
    this.call('POST', path, { ...options, body });
}

/** Reads a response the suite sent itself (the fuzzer's hand-built requests). */
export async function read(response: Response): Promise<Reply> {
  return withContentType(await readReply(response));
}

function withContentType(reply: RawReply): Reply {
  return { ...reply, contentType: reply.headers.get('content-type') ?? '' };
}

/**
 * Throws with the whole reply unless it succeeded. Fixtures accept any 2xx: judging the exact
 * status is the tools' job, and a fixture that throws would hide their verdict.
 */
export function expectSuccess(reply: Reply, what: string): Reply {
  if (reply.status < 200 || reply.status >= 300) {
    throw new Error(`${what}: expected a 2xx, got ${reply.status}: ${reply.text.slice(0, 500)}`);
  }
  return reply;
}

/** Polls `read` until `done` holds (sandbox settlement is asynchronous). */
export async function eventually<T>(
  what: string,
  readValue: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await readValue();
  while (!done(last)) {
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await readValue();
  }
  return last;
}

/** A payment, top-up or payout in XAF, created as an integrator would: its transaction id. */
export async function createMovement(
  api: Api,
  path: '/payments' | '/topups' | '/payouts',
  what: string,
  body: Record<string, unknown>,
): Promise<string> {
  return expectSuccess(await api.post(path, { currency: 'XAF', ...body }), what).body.data.transaction_id;
}

/** Waits until the movement read at `path` (`/payments/pay_…`) has `status`. */
export function reachesStatus(api: Api, path: string, status: string): Promise<unknown> {
  return eventually(
    `${path} is ${status}`,
    async () => (await api.get(path)).body,
    (b) => b?.data?.status === status,
  );
}

/**
 * The objects most checks need, created through the API the way an integrator would: an
 * active service, a settled top-up, a successful payment, a webhook endpoint and its event.
 */
export interface Fixtures {
  serviceId: string;
  walletId: string;
  topupId: string;
  paymentId: string;
  payoutId: string;
  webhookEndpointId: string;
  eventId: string;
}

export async function createFixtures(
  api: Api,
  webhookUrl: string,
  topupAmount = 5_000_000,
): Promise<Fixtures> {
  const service = expectSuccess(
    await api.post('/services', { name: 'Contract fixtures', type: 'other' }),
    'create service',
  );
  const serviceId: string = service.body.data.service_id;
  const endpoint = expectSuccess(
    await api.post('/webhook-endpoints', { url: webhookUrl, description: 'contract suite sink' }),
    'create webhook endpoint',
  );
  const topupId = await createMovement(api, '/topups', 'create top-up', {
    amount: topupAmount,
    payer_msisdn: sandbox.mtn.succeeds,
    payment_method: 'mtn_momo',
  });
  const paymentId = await createMovement(api, '/payments', 'create payment', {
    amount: 10_000,
    customer_msisdn: sandbox.orange.succeeds,
    payment_method: 'orange_money',
    service_id: serviceId,
    reference: 'contract-fixture',
  });
  await reachesStatus(api, `/topups/${topupId}`, 'success');
  await reachesStatus(api, `/payments/${paymentId}`, 'success');
  const payoutId = await createMovement(api, '/payouts', 'create payout', {
    amount: 1_000,
    recipient_msisdn: sandbox.mtn.succeeds,
    payout_type: 'withdrawal',
  });
  await reachesStatus(api, `/payouts/${payoutId}`, 'success');
  const events = await eventually(
    'an event is recorded',
    async () => (await api.get('/events', { query: { transaction_id: paymentId } })).body,
    (b) => (b?.data?.items?.length ?? 0) > 0,
  );
  const balance = expectSuccess(await api.get('/balance'), 'read balance');
  return {
    serviceId,
    walletId: balance.body.data.wallet_id,
    topupId,
    paymentId,
    payoutId,
    webhookEndpointId: endpoint.body.data.id,
    eventId: events.data.items[0].id,
  };
}
