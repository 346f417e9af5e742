/**
 * An Orange Money simulator (merchant payment `mp` and cash-in `cashin`, OM Core APIs 1.0.2 as
 * published for Orange Cameroun) over real HTTP on 127.0.0.1: an OAuth client-credentials
 * token that expires, `init` handing out payTokens, `pay` (the same payToken paid twice is
 * refused with 409), `paymentstatus/{payToken}` (INITIATED until paid, then PENDING,
 * SUCCESSFULL, FAILED or EXPIRED) and notifications to `notifUrl`. Same fault switches and
 * outcome digits as the MTN simulator (1 fails, 4 stays pending, 5 expires, else succeeds).
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

export type OrangeApi = 'mp' | 'cashin';

export type OrangeOutcome = 'SUCCESSFULL' | 'FAILED' | 'CANCELLED' | 'PENDING' | 'EXPIRED';

export interface OrangeCredentials {
  clientId: string;
  clientSecret: string;
  authToken: string;
  channelMsisdn: string;
  pin: string;
}

export interface OrangeRecorded {
  api: OrangeApi;
  payToken: string;
  orderId: string | null;
  amount: string | null;
  subscriberMsisdn: string | null;
  notifUrl: string | null;
  paidAt: number | null;
  /** `pay` calls that carried this payToken (the first and any refused repeats). */
  pays: number;
}

export interface OrangeMoneySimulator {
  url: string;
  credentials: OrangeCredentials;
  faults: Faults;
  /** Every payToken handed out, paid or not. */
  tokens: Map<string, OrangeRecorded>;
  /** Paid requests, by our orderId. */
  paidByOrder(): Map<string, OrangeRecorded>;
  tokensIssued: number;
  setOutcome(subscriberMsisdn: string, status: OrangeOutcome): void;
  expireAllTokens(): void;
  /** The next N `pay` calls (only them, not `init`) answer 500 and record nothing. */
  failNextPays(count: number): void;
  /** Every access token and payToken handed out. */
  issuedTokens(): string[];
  sendCallback(url: string, body: unknown): Promise<number | null>;
  close(): Promise<void>;
}

export async function startOrangeMoneySimulator(
  options: {
    settleMs?: number;
    tokenLifetimeSeconds?: number;
    port?: number;
    credentials?: OrangeCredentials;
  } = {},
): Promise<OrangeMoneySimulator> {
  const settleMs = options.settleMs ?? 100;
  const lifetime = options.tokenLifetimeSeconds ?? 3600;
  const credentials: OrangeCredentials = options.credentials ?? {
    clientId: randomUUID(),
    clientSecret: randomUUID().replaceAll('-', ''),
    authToken: randomUUID().replaceAll('-', ''),
    channelMsisdn: '691234567',
    pin: '2222',
  };
  const faults = defaultFaults();
  const accessTokens = new Map<string, number>();
  const tokens = new Map<string, OrangeRecorded>();
  const outcomes = new Map<string, OrangeOutcome>();
  const timers = new Set<NodeJS.Timeout>();
  const counters = { tokensIssued: 0, payFail500: 0 };

  const statusOf = (record: OrangeRecorded): string => {
    if (record.paidAt === null) return 'INITIATED';
    if (Date.now() - record.paidAt < settleMs) return 'PENDING';
    const msisdn = record.subscriberMsisdn ?? '';
    const chosen = outcomes.get(msisdn);
    if (chosen) return chosen;
    if (msisdn.endsWith('4')) return 'PENDING';
    if (msisdn.endsWith('5')) return 'EXPIRED';
    if (msisdn.endsWith('1')) return 'FAILED';
    return 'SUCCESSFULL';
  };
  const data = (record: OrangeRecorded) => ({
    payToken: record.payToken,
    txnid: record.paidAt === null ? null : `MP${record.payToken.slice(0, 10)}`,
    status: statusOf(record),
    amount: record.amount,
    subscriberMsisdn: record.subscriberMsisdn,
    channelUserMsisdn: credentials.channelMsisdn,
    orderId: record.orderId,
    inittxnstatus: statusOf(record) === 'FAILED' ? '60019' : '200',
    inittxnmessage:
      statusOf(record) === 'FAILED' ? 'Le solde du compte du payeur est insuffisant' : 'Paiement en attente',
  });

  const notify = (record: OrangeRecorded) => {
    if (!record.notifUrl) return;
    const url = record.notifUrl;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        const status = statusOf(record);
        if (status === 'PENDING' || faults.callbacks === 'lost') return;
        const times = faults.callbacks === 'duplicated' ? 2 : 1;
        void (async () => {
          for (let i = 0; i < times; i++) {
            await postCallback(url, 'POST', { payToken: record.payToken, status, message: 'notification' });
          }
        })();
      },
      settleMs + 5 + faults.callbackDelayMs,
    );
    timer.unref();
    timers.add(timer);
  };

  const authorized = (req: SimRequest): boolean => {
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const expiresAt = accessTokens.get(bearer);
    return (
      expiresAt !== undefined &&
      expiresAt > Date.now() &&
      req.headers['x-auth-token'] === credentials.authToken
    );
  };

  const handle = async (req: SimRequest): Promise<SimAnswer> => {
    if (req.path === '/token' && req.method === 'POST') {
      if (faults.tokenFail500 > 0) {
        faults.tokenFail500--;
        return { status: 500, body: { error: 'server_error' } };
      }
      const expected = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return { status: 401, body: { error: 'invalid_client' } };
      const token = randomUUID().replaceAll('-', '');
      accessTokens.set(token, Date.now() + lifetime * 1000);
      counters.tokensIssued++;
      return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: lifetime } };
    }
    const match = /^\/omcoreapis\/1\.0\.2\/(mp|cashin)\/(init|pay|paymentstatus)(?:\/([^/]+))?$/.exec(
      req.path,
    );
    if (!match) return { status: 404, body: { message: 'Resource not found' } };
    const api = match[1] as OrangeApi;
    const action = match[2];
    if (!authorized(req)) return { status: 401, body: { message: 'Invalid or expired access token' } };

    if (action === 'init' && req.method === 'POST') {
      if (faults.fail500 > 0) {
        faults.fail500--;
        return { status: 500, body: { message: 'Internal error' } };
      }
      const payToken = `${api === 'mp' ? 'MP' : 'CI'}${randomUUID().replaceAll('-', '').slice(0, 20).toUpperCase()}`;
      tokens.set(payToken, {
        api,
        payToken,
        orderId: null,
        amount: null,
        subscriberMsisdn: null,
        notifUrl: null,
        paidAt: null,
        pays: 0,
      });
      return { status: 200, body: { message: 'Payment request successfully initiated', data: { payToken } } };
    }
    if (action === 'pay' && req.method === 'POST') {
      if (faults.fail500 > 0 || counters.payFail500 > 0) {
        if (counters.payFail500 > 0) counters.payFail500--;
        else faults.fail500--;
        return { status: 500, body: { message: 'Internal error' } };
      }
      const body = req.body as Record<string, unknown> | undefined;
      const record = tokens.get(String(body?.payToken ?? ''));
      if (!record || record.api !== api) return { status: 404, body: { message: 'payToken not found' } };
      if (
        typeof body?.amount !== 'string' ||
        typeof body.subscriberMsisdn !== 'string' ||
        typeof body.orderId !== 'string' ||
        body.channelUserMsisdn !== credentials.channelMsisdn ||
        body.pin !== credentials.pin
      ) {
        return { status: 400, body: { message: 'Invalid request' } };
      }
      record.pays++;
      if (record.paidAt !== null) return { status: 409, body: { message: 'payToken already used' } };
      record.orderId = body.orderId;
      record.amount = body.amount;
      record.subscriberMsisdn = body.subscriberMsisdn;
      record.notifUrl = typeof body.notifUrl === 'string' ? body.notifUrl : null;
      record.paidAt = Date.now();
      notify(record);
      if (faults.dropAfterRecord > 0) {
        faults.dropAfterRecord--;
        return 'drop';
      }
      return {
        status: 200,
        body: { message: 'Merchant payment successfully initiated', data: data(record) },
      };
    }
    if (action === 'paymentstatus' && req.method === 'GET' && match[3]) {
      if (faults.statusFail500 > 0) {
        faults.statusFail500--;
        return { status: 500, body: { message: 'Internal error' } };
      }
      const record = tokens.get(decodeURIComponent(match[3]));
      if (!record || record.api !== api) return { status: 404, body: { message: 'payToken not found' } };
      return { status: 200, body: { message: 'Transaction status', data: data(record) } };
    }
    return { status: 404, body: { message: 'Resource not found' } };
  };

  const { server, url } = await listenOnLoopback(handle, () => faults, options.port);
  return {
    url,
    credentials,
    faults,
    tokens,
    paidByOrder() {
      const paid = new Map<string, OrangeRecorded>();
      for (const record of tokens.values()) if (record.orderId) paid.set(record.orderId, record);
      return paid;
    },
    get tokensIssued() {
      return counters.tokensIssued;
    },
    setOutcome: (msisdn, status) => outcomes.set(msisdn, status),
    expireAllTokens() {
      for (const token of accessTokens.keys()) accessTokens.set(token, 0);
    },
    issuedTokens: () => [...accessTokens.keys()],
    failNextPays(count) {
      counters.payFail500 = count;
    },
    sendCallback: (target, body) => postCallback(target, 'POST', body),
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      return closeServer(server as Server);
    },
  };
}
