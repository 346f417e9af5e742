/**
 * The start of most fault tests: a fresh database of the engine under test, an account made
 * with the admin CLI, the real server on it (a child process), a service, and a Main Balance
 * funded by one top-up that has settled.
 */
import {
  type CallOptions,
  type CallResult,
  type ChildServer,
  type CliAccount,
  callApi,
  createAccountWithCli,
  type DatabaseTarget,
  startChildServer,
} from '../../support/child-server.js';
import { logicalRequest, numbers, waitUntil } from './load.js';
import { testDatabase } from './money.js';

export interface FundedServer {
  database: DatabaseTarget;
  account: CliAccount;
  server: ChildServer;
  serviceId: string;
  /** The keys its calls were made with: the account's test key, or its live key with `live`. */
  as: Caller;
}

/** Who calls: an account's API user with one of its keys. */
type Caller = Pick<CliAccount, 'apiUser' | 'testKey'>;

export interface FundedServerOptions {
  /** The folder the SQLite file goes in (unused on PostgreSQL). */
  dir: string;
  /** Names the account, the service and the server in messages. */
  name: string;
  env?: Record<string, string>;
  /** The database to use instead of a fresh one of the engine under test. */
  database?: DatabaseTarget;
  /** A webhook endpoint to register before anything happens, so that it gets every event. */
  webhookUrl?: string;
  /** The top-up's amount; its Idempotency-Key and reference is `<name>-fund`. */
  funding: number;
  /** Works in live mode, with the account's live key (the server's env names the operators). */
  live?: boolean;
}

/** One call to `server` as `account`; network failures reject, every HTTP answer resolves. */
export function callAs(server: ChildServer, account: Caller) {
  return (method: string, path: string, options: CallOptions = {}): Promise<CallResult> =>
    callApi(server.url, account, method, path, options);
}

/** Starts the server and funds it; throws (failing the set-up) when the top-up never settles. */
export async function startFundedServer(options: FundedServerOptions): Promise<FundedServer> {
  const database = options.database ?? (await testDatabase(options.dir));
  const account = await createAccountWithCli(database, `${options.name} account`);
  const server = await startChildServer({ ...database, name: options.name, env: options.env ?? {} });
  const as = options.live ? { apiUser: account.apiUser, testKey: account.liveKey } : account;
  const api = callAs(server, as);
  if (options.webhookUrl) {
    const endpoint = await api('POST', '/webhook-endpoints', { body: { url: options.webhookUrl } });
    if (endpoint.status !== 201)
      throw new Error(`POST /webhook-endpoints: ${endpoint.status} ${endpoint.text}`);
  }
  const service = await api('POST', '/services', { body: { name: `${options.name} shop` } });
  if (service.status !== 201) throw new Error(`POST /services: ${service.status} ${service.text}`);
  const serviceId = service.body.data.service_id as string;
  const key = `${options.name}-fund`;
  const fund = await api('POST', '/topups', {
    idempotencyKey: key,
    body: logicalRequest('topup', key, options.funding, numbers.success, serviceId).body,
  });
  if (fund.status !== 202) throw new Error(`POST /topups: ${fund.status} ${fund.text}`);
  await waitUntil(
    async () => (await api('GET', `/topups/${fund.body.data.transaction_id}`)).body.data.status === 'success',
    15_000,
    () => 'the funding top-up never settled',
  );
  return { database, account, server, serviceId, as };
}
