import type { Logger } from '../../observability/logger.js';
import {
  callObserver,
  errorKind,
  type HttpAnswer,
  httpCall,
  statusOf as httpStatusOf,
  type OperatorCallObserver,
  TokenCache,
} from '../http-call.js';
import { majorUnitsText } from '../minor-units.js';
import {
  callbackUrlFor,
  type MobileMoneyOperator,
  type OperatorKind,
  type OperatorRequest,
  type OperatorStatus,
  type SendOutcome,
  type StatusQuery,
} from '../operator.js';

/**
 * Orange Money adapter for the merchant payment (collection, `mp`) and cash-in (payout,
 * `cashin`) APIs as published for Orange Cameroun (OM Core APIs 1.0.2: OAuth token, `init`
 * for a payToken, `pay`, `paymentstatus/{payToken}`, `notifUrl` as a hint). See
 * docs/decisions/0011-orange-money-adapter.md for the documents followed and each choice.
 */
export interface OrangeMoneyConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The X-AUTH-TOKEN header Orange gives each merchant. */
  authToken: string;
  /** The merchant's channel user number (national format) and its PIN. */
  channelMsisdn: string;
  pin: string;
  /** Base of our notification endpoint; each request's notifUrl is this plus `/{reference}`. */
  notifyUrl?: string | undefined;
  timeoutMs: number;
  /** The currencies this merchant account takes (ORANGE_MONEY_CURRENCIES; Cameroon: XAF). */
  currencies: readonly string[];
}

const api = { collection: 'mp', disbursement: 'cashin' } as const;
const both: readonly OperatorKind[] = ['collection', 'disbursement'];

/** Orange takes Cameroonian numbers in national format (nine digits, no 237). */
function orangeNationalNumber(msisdn: string): string {
  return msisdn.startsWith('237') && msisdn.length === 12 ? msisdn.slice(3) : msisdn;
}

/** Orange's transaction status (its spelling, `SUCCESSFULL`, accepted too) to ours. */
function mapOrangeStatus(kind: OperatorKind, status: unknown): OperatorStatus {
  switch (status) {
    case 'SUCCESSFULL':
    case 'SUCCESSFUL':
    case 'SUCCESS':
      return { state: 'success' };
    case 'FAILED':
    case 'CANCELLED':
      return {
        state: 'failed',
        failureCode: kind === 'collection' ? 'payer_declined' : 'recipient_rejected',
      };
    case 'EXPIRED':
      return kind === 'collection'
        ? { state: 'expired' }
        : { state: 'failed', failureCode: 'operator_timeout' };
    case 'INITIATED':
      // A payToken nobody paid with: the `pay` never reached Orange.
      return { state: 'not_received' };
    default:
      return { state: 'pending' };
  }
}

export function createOrangeMoneyOperator(options: {
  config: OrangeMoneyConfig;
  logger: Logger;
  metrics?: OperatorCallObserver;
}): MobileMoneyOperator & { probe(): Promise<void> } {
  const { config, logger } = options;
  const base = config.baseUrl.replace(/\/$/, '');
  const observe = callObserver('orange_money', options.metrics);
  const warn = (fields: Record<string, unknown>, message: string) =>
    logger.warn({ operator: 'orange_money', ...fields }, message);

  const tokens = new TokenCache(async () => {
    const started = performance.now();
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
    const answer = await httpCall(
      `${base}/token`,
      {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      },
      config.timeoutMs,
    );
    const body = answer.ok ? (answer.body as { access_token?: unknown; expires_in?: unknown } | null) : null;
    const value = typeof body?.access_token === 'string' ? body.access_token : null;
    const expires = Number(body?.expires_in);
    const error = errorKind(answer) ?? (value && expires > 0 ? null : 'bad_response');
    // One token serves both APIs: its outcome is both products'.
    observe('token', started, error, { products: both, httpStatus: httpStatusOf(answer) });
    if (error || !value) {
      warn(
        { call: 'token', error, http_status: answer.ok ? answer.status : null },
        'Orange Money token request failed',
      );
      return { error: error ?? 'bad_response' };
    }
    return { value, expiresInSeconds: expires };
  });

  async function authenticated(
    kind: OperatorKind,
    call: string,
    path: string,
    init: { method: string; body?: unknown },
  ): Promise<HttpAnswer | { ok: false; kind: 'auth' }> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await tokens.get();
      // Refused credentials: nothing will be accepted. Unreachable: the outcome is unknown.
      if (!token) return { ok: false, kind: tokens.lastFailure === 'auth' ? 'auth' : 'network' };
      const started = performance.now();
      const answer = await httpCall(
        `${base}${path}`,
        {
          method: init.method,
          headers: {
            authorization: `Bearer ${token}`,
            'x-auth-token': config.authToken,
            ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        },
        config.timeoutMs,
      );
      observe(call, started, errorKind(answer), { products: [kind], httpStatus: httpStatusOf(answer) });
      if (answer.ok && answer.status === 401 && attempt === 0) {
        tokens.invalidate(token);
        continue;
      }
      return answer;
    }
    return { ok: false, kind: 'auth' };
  }

  async function statusOf(kind: OperatorKind, payToken: string): Promise<OperatorStatus> {
    const answer = await authenticated(
      kind,
      `${api[kind]}_status`,
      `/omcoreapis/1.0.2/${api[kind]}/paymentstatus/${encodeURIComponent(payToken)}`,
      { method: 'GET' },
    );
    if (!answer.ok) return { state: 'pending' };
    if (answer.status === 404) return { state: 'not_received' };
    if (answer.status !== 200) {
      warn(
        { call: `${api[kind]}_status`, http_status: answer.status },
        'Orange Money status check failed; asked again later',
      );
      return { state: 'pending' };
    }
    return mapOrangeStatus(kind, (answer.body as { data?: { status?: unknown } } | null)?.data?.status);
  }

  async function send(kind: OperatorKind, request: OperatorRequest): Promise<SendOutcome> {
    let payToken = request.operatorToken ?? null;
    if (!payToken) {
      // `init` only reserves a payToken: repeating it after a crash moves no money.
      const init = await authenticated(kind, `${api[kind]}_init`, `/omcoreapis/1.0.2/${api[kind]}/init`, {
        method: 'POST',
      });
      if (!init.ok && init.kind === 'auth') {
        warn(
          { call: `${api[kind]}_init`, reference: request.operatorRef, error: 'auth' },
          'Orange Money refused our credentials',
        );
        return { state: 'failed', failureCode: 'operator_error' };
      }
      const token = init.ok
        ? (init.body as { data?: { payToken?: unknown } } | null)?.data?.payToken
        : undefined;
      if (!init.ok || init.status !== 200 || typeof token !== 'string') {
        warn(
          {
            call: `${api[kind]}_init`,
            reference: request.operatorRef,
            http_status: init.ok ? init.status : null,
          },
          'Orange Money init failed; the status checks will send the request again',
        );
        return { state: 'unknown' };
      }
      payToken = token;
      await request.rememberToken?.(payToken);
    }
    const body = {
      ...(config.notifyUrl ? { notifUrl: callbackUrlFor(config.notifyUrl, request) } : {}),
      channelUserMsisdn: config.channelMsisdn,
      amount: majorUnitsText(request.amount, request.currency),
      subscriberMsisdn: orangeNationalNumber(request.msisdn),
      pin: config.pin,
      orderId: request.operatorRef,
      description: kind === 'collection' ? 'Payment' : 'Payout',
      payToken,
    };
    const answer = await authenticated(kind, `${api[kind]}_pay`, `/omcoreapis/1.0.2/${api[kind]}/pay`, {
      method: 'POST',
      body,
    });
    if (answer.ok && answer.status >= 200 && answer.status < 300) return { state: 'accepted' };
    if (!answer.ok && answer.kind === 'auth') {
      warn(
        { call: `${api[kind]}_pay`, reference: request.operatorRef, error: 'auth' },
        'Orange Money refused our credentials',
      );
      return { state: 'failed', failureCode: 'operator_error' };
    }
    if (answer.ok && answer.status >= 400 && answer.status < 500) {
      // Orange may refuse a pay it already has (a repeat after a lost answer): its status
      // says whether the payToken was used, before we call the request failed.
      const status = await statusOf(kind, payToken);
      if (status.state !== 'not_received') return { state: 'accepted' };
      warn(
        { call: `${api[kind]}_pay`, reference: request.operatorRef, http_status: answer.status },
        'Orange Money refused the request',
      );
      return { state: 'failed', failureCode: 'operator_error' };
    }
    warn(
      {
        call: `${api[kind]}_pay`,
        reference: request.operatorRef,
        error: answer.ok ? 'http_5xx' : answer.kind,
        http_status: answer.ok ? answer.status : null,
      },
      'Orange Money request outcome unknown; its status will be asked before anything is sent again',
    );
    return { state: 'unknown' };
  }

  return {
    async probe() {
      await tokens.get();
    },
    requestToPay: (request) => send('collection', request),
    transfer: (request) => send('disbursement', request),
    async status(kind: OperatorKind, query: StatusQuery): Promise<OperatorStatus> {
      // No payToken committed: nothing was paid with one, so the request was never received.
      if (!query.operatorToken) return { state: 'not_received' };
      return statusOf(kind, query.operatorToken);
    },
  };
}
