import type { Logger } from '../../observability/logger.js';
import {
  callObserver,
  errorKind,
  type HttpAnswer,
  httpCall,
  type OperatorCallObserver,
  statusOf,
  TokenCache,
} from '../http-call.js';
import { majorUnitsText } from '../minor-units.js';
import {
  callbackUrlFor,
  type MobileMoneyOperator,
  type OperatorFailureCode,
  type OperatorKind,
  type OperatorRequest,
  type OperatorStatus,
  type SendOutcome,
  type StatusQuery,
} from '../operator.js';
import { RateGate } from '../rate-gate.js';

/**
 * MTN MoMo Open API adapter (Collection `requesttopay`, Disbursement `transfer`), written from
 * the public documentation at momodeveloper.mtn.com (API v1_0; see
 * docs/decisions/0010-mtn-momo-adapter.md for the documents followed and each choice).
 */
interface MtnMomoProductCredentials {
  subscriptionKey: string;
  apiUser: string;
  apiKey: string;
}

export interface MtnMomoConfig {
  baseUrl: string;
  targetEnvironment: string;
  collection: MtnMomoProductCredentials;
  disbursement: MtnMomoProductCredentials;
  /** Base of our callback endpoint; each request's X-Callback-Url is this plus `/{reference}`. */
  callbackUrl?: string | undefined;
  /** Deadline of each call to MTN. */
  timeoutMs: number;
  /**
   * The currencies the target environment takes (MTN_MOMO_CURRENCIES): MTN's sandbox only
   * EUR, a production environment its country's currency (mtncameroon: XAF).
   */
  currencies: readonly string[];
  /** Calls a second to each product, all calls of this process (MTN_MOMO_REQUESTS_PER_SECOND). */
  requestsPerSecond: number;
}

const product = { collection: 'collection', disbursement: 'disbursement' } as const;
const resource = { collection: 'requesttopay', disbursement: 'transfer' } as const;

/**
 * MTN's documented `reason` values of a FAILED request, mapped to our failure codes. A reason
 * we do not know is `operator_error`. `EXPIRED` (and the approval time-out) is mapped apart.
 */
function mapMtnReason(kind: OperatorKind, reason: string | undefined): OperatorStatus {
  switch (reason) {
    case 'EXPIRED':
    case 'COULD_NOT_PERFORM_TRANSACTION':
    case 'TRANSACTION_CANCELED':
      return kind === 'collection'
        ? { state: 'expired' }
        : { state: 'failed', failureCode: 'operator_timeout' };
    case 'APPROVAL_REJECTED':
    case 'PAYER_NOT_FOUND':
    case 'PAYER_LIMIT_REACHED':
    case 'SENDER_ACCOUNT_NOT_ACTIVE':
    case 'NOT_ALLOWED_TARGET_ENVIRONMENT':
      return { state: 'failed', failureCode: kind === 'collection' ? 'payer_declined' : 'operator_error' };
    case 'NOT_ENOUGH_FUNDS':
      // Collections: the customer's wallet is short. Disbursements: our disbursement account is.
      return { state: 'failed', failureCode: kind === 'collection' ? 'payer_declined' : 'operator_error' };
    case 'PAYEE_NOT_FOUND':
    case 'PAYEE_NOT_ALLOWED_TO_RECEIVE':
      return {
        state: 'failed',
        failureCode: kind === 'disbursement' ? 'recipient_rejected' : 'operator_error',
      };
    default:
      return { state: 'failed', failureCode: 'operator_error' };
  }
}

function reasonOf(body: unknown): string | undefined {
  const reason = (body as { reason?: unknown } | null)?.reason;
  if (typeof reason === 'string') return reason;
  // Older API versions answer `reason: { code, message }`.
  const code = (reason as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function createMtnMomoOperator(options: {
  config: MtnMomoConfig;
  logger: Logger;
  metrics?: OperatorCallObserver;
}): MobileMoneyOperator & { probe(): Promise<void> } {
  const { config, logger } = options;
  const base = config.baseUrl.replace(/\/$/, '');

  const observe = callObserver('mtn_momo', options.metrics);

  const tokens = {
    collection: tokenCache('collection'),
    disbursement: tokenCache('disbursement'),
  };
  // MTN counts requests per product: each product has its own pace, shared by every call.
  const gates = {
    collection: new RateGate(config.requestsPerSecond),
    disbursement: new RateGate(config.requestsPerSecond),
  };

  /** One call to MTN at the product's pace; a 429 pauses the product for its Retry-After. */
  async function paced(
    kind: OperatorKind,
    url: string,
    init: { method: string; headers: Record<string, string>; body?: string },
  ): Promise<HttpAnswer> {
    await gates[kind].pass();
    const answer = await httpCall(url, init, config.timeoutMs);
    if (answer.ok && answer.status === 429) {
      gates[kind].pauseUntil(Date.now() + (answer.retryAfterMs ?? 1000));
      logger.warn(
        { operator: 'mtn_momo', product: kind, retry_after_ms: answer.retryAfterMs ?? null },
        'MTN MoMo asked us to slow down (429); calls to this product wait for its Retry-After',
      );
    }
    return answer;
  }

  function tokenCache(kind: OperatorKind): TokenCache {
    const credentials = config[kind];
    return new TokenCache(async () => {
      const started = performance.now();
      const basic = Buffer.from(`${credentials.apiUser}:${credentials.apiKey}`).toString('base64');
      const answer = await paced(kind, `${base}/${product[kind]}/token/`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'ocp-apim-subscription-key': credentials.subscriptionKey,
        },
      });
      const kindOfError = errorKind(answer);
      const body = answer.ok
        ? (answer.body as { access_token?: unknown; expires_in?: unknown } | null)
        : null;
      const value = typeof body?.access_token === 'string' ? body.access_token : null;
      const expires = Number(body?.expires_in);
      const error = kindOfError ?? (value && expires > 0 ? null : 'bad_response');
      observe(`${kind}_token`, started, error, { products: [kind], httpStatus: statusOf(answer) });
      if (error || !value) {
        logger.warn(
          {
            operator: 'mtn_momo',
            call: `${kind}_token`,
            error,
            http_status: answer.ok ? answer.status : null,
          },
          'MTN MoMo token request failed',
        );
        return { error: error ?? 'bad_response' };
      }
      return { value, expiresInSeconds: expires };
    });
  }

  /** One authenticated call; a 401 gets one new token and one retry. */
  async function authenticated(
    kind: OperatorKind,
    call: string,
    path: string,
    init: { method: string; headers?: Record<string, string>; body?: string },
  ): Promise<HttpAnswer | { ok: false; kind: 'auth' }> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await tokens[kind].get();
      // Refused credentials: nothing will be accepted. Unreachable: the outcome is unknown.
      if (!token) return { ok: false, kind: tokens[kind].lastFailure === 'auth' ? 'auth' : 'network' };
      const started = performance.now();
      const answer = await paced(kind, `${base}${path}`, {
        method: init.method,
        headers: {
          authorization: `Bearer ${token}`,
          'ocp-apim-subscription-key': config[kind].subscriptionKey,
          'x-target-environment': config.targetEnvironment,
          ...(init.headers ?? {}),
        },
        ...(init.body !== undefined ? { body: init.body } : {}),
      });
      const error = errorKind(answer);
      // A 404 on a status check is an answer, not an error: the operator never got the request.
      observe(call, started, answer.ok && answer.status === 404 && init.method === 'GET' ? null : error, {
        products: [kind],
        httpStatus: statusOf(answer),
      });
      if (answer.ok && answer.status === 401 && attempt === 0) {
        tokens[kind].invalidate(token);
        continue;
      }
      return answer;
    }
    return { ok: false, kind: 'auth' };
  }

  async function send(kind: OperatorKind, request: OperatorRequest): Promise<SendOutcome> {
    const party = { partyIdType: 'MSISDN', partyId: request.msisdn };
    const body = {
      amount: majorUnitsText(request.amount, request.currency),
      currency: request.currency,
      externalId: request.operatorRef,
      ...(kind === 'collection' ? { payer: party } : { payee: party }),
      payerMessage: kind === 'collection' ? 'Payment' : 'Payout',
      payeeNote: kind === 'collection' ? 'Payment' : 'Payout',
    };
    const headers: Record<string, string> = {
      'x-reference-id': request.operatorRef,
      'content-type': 'application/json',
    };
    if (config.callbackUrl) headers['x-callback-url'] = callbackUrlFor(config.callbackUrl, request);
    const answer = await authenticated(kind, resource[kind], `/${product[kind]}/v1_0/${resource[kind]}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    // 202: accepted. 409: this reference was sent before, so the operator has it.
    if (answer.ok && (answer.status === 202 || answer.status === 409 || answer.status === 200)) {
      return { state: 'accepted' };
    }
    const failure = (
      code: OperatorFailureCode,
      kindOfError: string,
      httpStatus: number | null,
    ): SendOutcome => {
      logger.warn(
        {
          operator: 'mtn_momo',
          call: resource[kind],
          reference: request.operatorRef,
          error: kindOfError,
          http_status: httpStatus,
        },
        'MTN MoMo refused the request',
      );
      return { state: 'failed', failureCode: code };
    };
    if (!answer.ok && answer.kind === 'auth') return failure('operator_error', 'auth', null);
    // 429: MTN did not take it now; its status (404) is asked after the pause, then it is sent again.
    if (answer.ok && answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
      // 400 (the request does not follow the specification), 401/403 after a fresh token,
      // 404, 415: MTN did not take the request, and sending it again would not change that.
      return failure('operator_error', errorKind(answer) ?? 'http_4xx', answer.status);
    }
    logger.warn(
      {
        operator: 'mtn_momo',
        call: resource[kind],
        reference: request.operatorRef,
        error: answer.ok ? 'http_5xx' : answer.kind,
        http_status: answer.ok ? answer.status : null,
      },
      'MTN MoMo request outcome unknown; its status will be asked before anything is sent again',
    );
    return { state: 'unknown' };
  }

  return {
    async probe() {
      await Promise.all([tokens.collection.get(), tokens.disbursement.get()]);
    },
    requestToPay: (request) => send('collection', request),
    transfer: (request) => send('disbursement', request),
    async status(kind: OperatorKind, query: StatusQuery): Promise<OperatorStatus> {
      const answer = await authenticated(
        kind,
        `${resource[kind]}_status`,
        `/${product[kind]}/v1_0/${resource[kind]}/${encodeURIComponent(query.operatorRef)}`,
        { method: 'GET' },
      );
      if (!answer.ok) return { state: 'pending' };
      if (answer.status === 404) return { state: 'not_received' };
      if (answer.status === 429) return { state: 'pending', retryAfterMs: answer.retryAfterMs ?? 1000 };
      if (answer.status !== 200) {
        logger.warn(
          {
            operator: 'mtn_momo',
            call: `${resource[kind]}_status`,
            reference: query.operatorRef,
            http_status: answer.status,
          },
          'MTN MoMo status check failed; it will be asked again',
        );
        return { state: 'pending' };
      }
      const status = (answer.body as { status?: unknown } | null)?.status;
      if (status === 'SUCCESSFUL') return { state: 'success' };
      if (status === 'FAILED') return mapMtnReason(kind, reasonOf(answer.body));
      if (status === 'REJECTED') return mapMtnReason(kind, 'APPROVAL_REJECTED');
      if (status === 'TIMEOUT' || status === 'EXPIRED') return mapMtnReason(kind, 'EXPIRED');
      return { state: 'pending' };
    },
  };
}
