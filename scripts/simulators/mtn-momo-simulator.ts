/**
 * An MTN MoMo Open API simulator (Collection and Disbursement, API v1_0) over real HTTP on
 * 127.0.0.1, built from MTN's public documentation: Basic-auth token endpoints whose tokens
 * expire, `requesttopay` / `transfer` answering 202 (409 for a reference seen before, 400 for
 * a malformed one, 401 for a bad or expired token), status bodies (PENDING, SUCCESSFUL,
 * FAILED with `reason`), 404 for a reference it never recorded, and callbacks to the
 * request's X-Callback-Url. See `Faults` for the fault switches. With `targetEnvironment:
 * 'sandbox'` it takes EUR only, as MTN's sandbox does; by default it is Cameroon's production
 * (`mtncameroon`, XAF).
 *
 * Outcomes, by the last digit of the number (overridable per number with `setOutcome`):
 * 1 FAILED (APPROVAL_REJECTED for collections, PAYEE_NOT_FOUND for transfers),
 * 4 stays PENDING, 5 FAILED with EXPIRED, anything else SUCCESSFUL, each `settleMs` after the request.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import {
  closeServer,
  defaultFaults,
  type Faults,
  listenOnLoopback,
  postCallback,
  type SimAnswer,
  type SimRequest,
} from './sim-http.js';

export type MtnProduct = 'collection' | 'disbursement';

export interface MtnCredentials {
  subscriptionKey: string;
  apiUser: string;
  apiKey: string;
}

export interface MtnOutcome {
  status: 'SUCCESSFUL' | 'FAILED' | 'PENDING';
  reason?: string;
}

export interface MtnRecorded {
  product: MtnProduct;
  referenceId: string;
  amount: string;
  currency: string;
  externalId: string;
  msisdn: string;
  callbackUrl: string | null;
  receivedAt: number;
  /** POSTs that carried this reference (the first 202 and any 409 repeats). */
  posts: number;
}

export interface MtnMomoSimulator {
  url: string;
  credentials: Record<MtnProduct, MtnCredentials>;
  targetEnvironment: string;
  faults: Faults;
  /** Every request recorded, by reference. */
  requests: Map<string, MtnRecorded>;
  /** Token requests answered with a token, by product. */
  tokensIssued: Record<MtnProduct, number>;
  /** Calls answered 401 because of an unknown or expired token. */
  rejectedTokens: number;
  /** Status checks answered, by reference. */
  statusChecks: Map<string, number>;
  /** The most calls one product received within one second (by wall-clock second). */
  busiestSecond(product: MtnProduct): number;
  /** Calls answered 429 for going past `rateLimitPerSecond`. */
  readonly rateLimited: number;
  setOutcome(msisdn: string, outcome: MtnOutcome): void;
  /** Token expiry mid-run: every token issued so far stops working now. */
  expireAllTokens(): void;
  /** Every access token handed out (tests check none of them reaches a log). */
  issuedTokens(): string[];
  /** Sends a callback for a reference now, with any body (a forged one, say). */
  sendCallback(url: string, body: unknown): Promise<number | null>;
  close(): Promise<void>;
}

export interface MtnMomoSimulatorOptions {
  settleMs?: number;
  tokenLifetimeSeconds?: number;
  /**
   * The X-Target-Environment it answers to: `mtncameroon` (the default: Cameroon's production,
   * XAF) or `sandbox`, which behaves as MTN's sandbox (EUR only).
   */
  targetEnvironment?: string;
  /** The currencies it takes; by default those of its target environment. */
  currencies?: string[];
  /**
   * MTN's published limit of calls a second per product: past it, 429 with Retry-After: 1.
   * Unset: no limit.
   */
  rateLimitPerSecond?: number;
  port?: number;
  credentials?: Partial<Record<MtnProduct, MtnCredentials>>;
}

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function newCredentials(): MtnCredentials {
  return {
    subscriptionKey: randomUUID().replaceAll('-', ''),
    apiUser: randomUUID(),
    apiKey: randomUUID().replaceAll('-', ''),
  };
}

export async function startMtnMomoSimulator(
  options: MtnMomoSimulatorOptions = {},
): Promise<MtnMomoSimulator> {
  const settleMs = options.settleMs ?? 100;
  const lifetime = options.tokenLifetimeSeconds ?? 3600;
  const targetEnvironment = options.targetEnvironment ?? 'mtncameroon';
  // MTN's sandbox takes EUR only; a production environment its country's currency.
  const currencies = options.currencies ?? (targetEnvironment === 'sandbox' ? ['EUR'] : ['XAF']);
  const credentials: Record<MtnProduct, MtnCredentials> = {
    collection: options.credentials?.collection ?? newCredentials(),
    disbursement: options.credentials?.disbursement ?? newCredentials(),
  };
  const tokens = new Map<string, { product: MtnProduct; expiresAt: number }>();
  const outcomes = new Map<string, MtnOutcome>();
  const requests = new Map<string, MtnRecorded>();
  const statusChecks = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const faults = defaultFaults();
  const sim = {
    tokensIssued: { collection: 0, disbursement: 0 } as Record<MtnProduct, number>,
    rejectedTokens: 0,
  };

  const outcomeOf = (record: MtnRecorded): MtnOutcome => {
    if (Date.now() - record.receivedAt < settleMs) return { status: 'PENDING' };
    const chosen = outcomes.get(record.msisdn);
    if (chosen) return chosen;
    if (record.msisdn.endsWith('4')) return { status: 'PENDING' };
    if (record.msisdn.endsWith('5')) return { status: 'FAILED', reason: 'EXPIRED' };
    if (record.msisdn.endsWith('1')) {
      return {
        status: 'FAILED',
        reason: record.product === 'collection' ? 'APPROVAL_REJECTED' : 'PAYEE_NOT_FOUND',
      };
    }
    return { status: 'SUCCESSFUL' };
  };

  const statusBody = (record: MtnRecorded) => {
    const outcome = outcomeOf(record);
    const party = { partyIdType: 'MSISDN', partyId: record.msisdn };
    return {
      amount: record.amount,
      currency: record.currency,
      ...(outcome.status === 'SUCCESSFUL'
        ? { financialTransactionId: String(100000000 + requests.size) }
        : {}),
      externalId: record.externalId,
      ...(record.product === 'collection' ? { payer: party } : { payee: party }),
      payerMessage: 'Payment',
      payeeNote: 'Payment',
      status: outcome.status,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
    };
  };

  const scheduleCallback = (record: MtnRecorded) => {
    if (!record.callbackUrl) return;
    const url = record.callbackUrl;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        const body = statusBody(record);
        if (body.status === 'PENDING' || faults.callbacks === 'lost') return;
        const times = faults.callbacks === 'duplicated' ? 2 : 1;
        void (async () => {
          for (let i = 0; i < times; i++)
            await postCallback(url, record.product === 'collection' ? 'PUT' : 'POST', body);
        })();
      },
      settleMs + 5 + faults.callbackDelayMs,
    );
    timer.unref();
    timers.add(timer);
  };

  const bearer = (req: SimRequest, product: MtnProduct): boolean => {
    const auth = String(req.headers.authorization ?? '');
    const token = tokens.get(auth.replace(/^Bearer /, ''));
    if (!auth.startsWith('Bearer ') || !token || token.product !== product || token.expiresAt <= Date.now()) {
      sim.rejectedTokens++;
      return false;
    }
    return true;
  };
  const unauthorized: SimAnswer = {
    status: 401,
    body: { code: 'UNAUTHORIZED', message: 'Access token is invalid or expired' },
  };

  /** API users created through the sandbox's provisioning API: their key once asked for. */
  const provisioned = new Map<string, { apiKey: string | null; providerCallbackHost: string }>();

  /**
   * MTN's sandbox provisioning (`/v1_0/apiuser`), with any product's subscription key:
   * `POST /v1_0/apiuser` (X-Reference-Id: the new user's UUID v4; body {providerCallbackHost})
   * answers 201 (409 for a user that exists), `POST /v1_0/apiuser/{id}/apikey` 201 {apiKey}
   * (a new key each time), `GET /v1_0/apiuser/{id}` the user. Production has no such API.
   */
  const provisioning = (req: SimRequest, parts: string[]): SimAnswer => {
    if (targetEnvironment !== 'sandbox') return { status: 404, body: { code: 'RESOURCE_NOT_FOUND' } };
    const key = req.headers['ocp-apim-subscription-key'];
    if (!Object.values(credentials).some((c) => c.subscriptionKey === key)) {
      return {
        status: 401,
        body: { statusCode: 401, message: 'Access denied due to invalid subscription key.' },
      };
    }
    if (req.method === 'POST' && parts.length === 2) {
      const id = String(req.headers['x-reference-id'] ?? '');
      const host = (req.body as { providerCallbackHost?: unknown } | undefined)?.providerCallbackHost;
      if (!uuidV4.test(id) || typeof host !== 'string' || host === '') {
        return {
          status: 400,
          body: { code: 'INVALID_INPUT', message: 'Request does not follow the specification' },
        };
      }
      if (provisioned.has(id)) return { status: 409, body: { code: 'RESOURCE_ALREADY_EXIST' } };
      provisioned.set(id, { apiKey: null, providerCallbackHost: host });
      return { status: 201 };
    }
    const user = provisioned.get(parts[2] ?? '');
    if (!user) return { status: 404, body: { code: 'RESOURCE_NOT_FOUND' } };
    if (req.method === 'POST' && parts[3] === 'apikey' && parts.length === 4) {
      user.apiKey = randomUUID().replaceAll('-', '');
      return { status: 201, body: { apiKey: user.apiKey } };
    }
    if (req.method === 'GET' && parts.length === 3) {
      return { status: 200, body: { providerCallbackHost: user.providerCallbackHost, targetEnvironment } };
    }
    return { status: 404, body: { code: 'RESOURCE_NOT_FOUND' } };
  };

  /** The product's own API user, or one provisioned through the sandbox's API with its key. */
  const knownUser = (creds: MtnCredentials, authorization: string | undefined): boolean => {
    const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;
    if (authorization === basic(creds.apiUser, creds.apiKey)) return true;
    for (const [user, { apiKey }] of provisioned) {
      if (apiKey && authorization === basic(user, apiKey)) return true;
    }
    return false;
  };

  const callsBySecond: Record<MtnProduct, Map<number, number>> = {
    collection: new Map(),
    disbursement: new Map(),
  };
  let rateLimited = 0;
  /** Counts a call to `product` in its second; false past the limit of calls a second. */
  const withinLimit = (product: MtnProduct): boolean => {
    const second = Math.floor(Date.now() / 1000);
    const calls = (callsBySecond[product].get(second) ?? 0) + 1;
    callsBySecond[product].set(second, calls);
    return options.rateLimitPerSecond === undefined || calls <= options.rateLimitPerSecond;
  };

  const handle = async (req: SimRequest): Promise<SimAnswer> => {
    const parts = req.path.split('/').filter(Boolean);
    if (parts[0] === 'v1_0' && parts[1] === 'apiuser') return provisioning(req, parts);
    const product = parts[0] as MtnProduct;
    if ((product === 'collection' || product === 'disbursement') && !withinLimit(product)) {
      rateLimited++;
      return {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { statusCode: 429, message: 'Rate limit is exceeded.' },
      };
    }
    if (product !== 'collection' && product !== 'disbursement')
      return { status: 404, body: { code: 'RESOURCE_NOT_FOUND' } };
    const creds = credentials[product];
    if (req.headers['ocp-apim-subscription-key'] !== creds.subscriptionKey) {
      return {
        status: 401,
        body: { statusCode: 401, message: 'Access denied due to invalid subscription key.' },
      };
    }
    // POST /{product}/token/
    if (parts[1] === 'token' && req.method === 'POST') {
      if (faults.tokenFail500 > 0) {
        faults.tokenFail500--;
        return { status: 500, body: { error: 'internal_error' } };
      }
      if (!knownUser(creds, req.headers.authorization))
        return { status: 401, body: { error: 'login_failed' } };
      const token = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');
      tokens.set(token, { product, expiresAt: Date.now() + lifetime * 1000 });
      sim.tokensIssued[product]++;
      return { status: 200, body: { access_token: token, token_type: 'access_token', expires_in: lifetime } };
    }
    const resource = product === 'collection' ? 'requesttopay' : 'transfer';
    if (parts[1] !== 'v1_0' || parts[2] !== resource)
      return { status: 404, body: { code: 'RESOURCE_NOT_FOUND' } };
    if (!bearer(req, product)) return unauthorized;
    if (req.headers['x-target-environment'] !== targetEnvironment) {
      return {
        status: 400,
        body: { code: 'NOT_ALLOWED_TARGET_ENVIRONMENT', message: 'Wrong target environment' },
      };
    }

    if (req.method === 'POST' && parts.length === 3) {
      if (faults.fail500 > 0) {
        faults.fail500--;
        return { status: 500, body: { code: 'INTERNAL_PROCESSING_ERROR' } };
      }
      const referenceId = String(req.headers['x-reference-id'] ?? '');
      if (!uuidV4.test(referenceId)) return { status: 400, body: { code: 'INVALID_REFERENCE_ID' } };
      const body = req.body as Record<string, unknown> | undefined;
      const party = (product === 'collection' ? body?.payer : body?.payee) as
        | Record<string, unknown>
        | undefined;
      if (
        !body ||
        typeof body.amount !== 'string' ||
        !/^[0-9]+(\.[0-9]+)?$/.test(body.amount) ||
        typeof body.currency !== 'string' ||
        party?.partyIdType !== 'MSISDN' ||
        typeof party.partyId !== 'string'
      ) {
        return {
          status: 400,
          body: { code: 'INVALID_INPUT', message: 'Request does not follow the specification' },
        };
      }
      if (!currencies.includes(body.currency)) {
        // As MTN's sandbox answers anything but EUR: an error, and nothing recorded.
        return { status: 500, body: { code: 'INVALID_CURRENCY', message: 'Currency not supported.' } };
      }
      const existing = requests.get(referenceId);
      if (existing) {
        existing.posts++;
        return { status: 409, body: { code: 'RESOURCE_ALREADY_EXIST', message: 'Duplicated reference id' } };
      }
      const callback = req.headers['x-callback-url'];
      const record: MtnRecorded = {
        product,
        referenceId,
        amount: body.amount,
        currency: body.currency,
        externalId: String(body.externalId ?? ''),
        msisdn: party.partyId,
        callbackUrl: typeof callback === 'string' ? callback : null,
        receivedAt: Date.now(),
        posts: 1,
      };
      requests.set(referenceId, record);
      scheduleCallback(record);
      if (faults.dropAfterRecord > 0) {
        faults.dropAfterRecord--;
        return 'drop';
      }
      return { status: 202 };
    }
    if (req.method === 'GET' && parts.length === 4) {
      const referenceId = decodeURIComponent(parts[3] as string);
      statusChecks.set(referenceId, (statusChecks.get(referenceId) ?? 0) + 1);
      if (faults.statusFail500 > 0) {
        faults.statusFail500--;
        return { status: 500, body: { code: 'INTERNAL_PROCESSING_ERROR' } };
      }
      const record = requests.get(referenceId);
      if (!record || record.product !== product) {
        return {
          status: 404,
          body: { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' },
        };
      }
      return { status: 200, body: statusBody(record) };
    }
    return { status: 404, body: { code: 'RESOURCE_NOT_FOUND' } };
  };

  const { server, url } = await listenOnLoopback(handle, () => faults, options.port);
  return {
    url,
    credentials,
    targetEnvironment,
    faults,
    requests,
    get tokensIssued() {
      return sim.tokensIssued;
    },
    get rejectedTokens() {
      return sim.rejectedTokens;
    },
    statusChecks,
    busiestSecond: (product) => Math.max(0, ...callsBySecond[product].values()),
    get rateLimited() {
      return rateLimited;
    },
    setOutcome: (msisdn, outcome) => outcomes.set(msisdn, outcome),
    expireAllTokens() {
      for (const token of tokens.values()) token.expiresAt = 0;
    },
    issuedTokens: () => [...tokens.keys()],
    sendCallback: (target, body) => postCallback(target, 'PUT', body),
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      return closeServer(server as Server);
    },
  };
}

/**
 * The settings that connect the service's MTN MoMo adapter to `sim`: both products' subscription
 * keys and API users, and the callback URL under `callbackBase` when given.
 */
export function mtnEnv(sim: MtnMomoSimulator, callbackBase?: string): Record<string, string> {
  return {
    MTN_MOMO_BASE_URL: sim.url,
    MTN_MOMO_TARGET_ENVIRONMENT: sim.targetEnvironment,
    MTN_MOMO_COLLECTION_SUBSCRIPTION_KEY: sim.credentials.collection.subscriptionKey,
    MTN_MOMO_COLLECTION_API_USER: sim.credentials.collection.apiUser,
    MTN_MOMO_COLLECTION_API_KEY: sim.credentials.collection.apiKey,
    MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: sim.credentials.disbursement.subscriptionKey,
    MTN_MOMO_DISBURSEMENT_API_USER: sim.credentials.disbursement.apiUser,
    MTN_MOMO_DISBURSEMENT_API_KEY: sim.credentials.disbursement.apiKey,
    ...(callbackBase ? { MTN_MOMO_CALLBACK_URL: `${callbackBase}/operator-callbacks/mtn-momo` } : {}),
  };
}
