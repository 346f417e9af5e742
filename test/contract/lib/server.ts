/**
 * The API server as the contract tools see it: `server/main.ts` as a child process
 * (test/support/child-server.ts), exactly as `npm start` runs it, on a fresh SQLite file and a
 * free 127.0.0.1 port, with its accounts made by `npm run admin -- create-account`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ChildServer,
  type CliAccount,
  createAccountWithCli,
  repoRoot,
  startChildServer,
} from '../../support/child-server.js';

export { repoRoot };
export const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);

export type Account = CliAccount;

export interface RunningServer {
  /** `http://127.0.0.1:<port>/v1` */
  apiUrl: string;
  dbPath: string;
  /** An account made for the tool, in the sandbox. */
  account: Account;
  child: ChildServer;
  /** A new account in the same database. */
  createAccount(name: string): Promise<Account>;
  stop(): Promise<void>;
}

/**
 * Settings of every server the suite starts, on top of child-server's fast ones (quick
 * settlement and webhooks, no rate limit in the tools' way; the 429 checks start their own
 * server with a limit of 1). Responses are not validated by the server itself, as in
 * production: a response that breaks the contract must reach the tools, not turn into a 500
 * on the way.
 */
const suiteEnv: Record<string, string> = {
  VALIDATE_RESPONSES: 'false',
  WEBHOOK_RETRY_BASE_MS: '1000',
  // The suite's webhook sink is on 127.0.0.1: sandbox endpoints may be local only with the opt-in.
  WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true',
};

export interface StartOptions {
  name?: string;
  env?: Record<string, string>;
  /** The self-check's deliberate contract breach (test/contract/fault/faults.ts), if any. */
  fault?: string;
}

const faultModule = fileURLToPath(new URL('../fault/inject.ts', import.meta.url));

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-'));
  const dbPath = join(dir, 'payments.db');
  let child: ChildServer | undefined;
  const stop = async () => {
    await child?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const env = { ...suiteEnv, ...options.env };
    child = await startChildServer({
      dbPath,
      name: options.name ?? 'server',
      // `node --import tsx --import fault/inject.ts dist/server/main.js`: tsx's loader lets node
      // load the TypeScript module into the compiled server's process, where CONTRACT_FAULT
      // tells it which breach to make.
      ...(options.fault
        ? {
            env: { ...env, CONTRACT_FAULT: options.fault, PRELOAD: faultModule },
            prefix: ['/bin/sh', '-c', 'exec "$0" --import tsx --import "$PRELOAD" "$@"'],
          }
        : { env }),
    });
    // The self-check proves something only if the fault is in: the module says so when loaded.
    if (options.fault && !child.output().includes(`CONTRACT_FAULT=${options.fault}`)) {
      throw new Error(`the fault ${options.fault} is not in the server:\n${child.output().slice(-2000)}`);
    }
    const account = await createAccountWithCli(dbPath, 'Contract suite account');
    return {
      apiUrl: child.url,
      dbPath,
      account,
      child,
      createAccount: (name) => createAccountWithCli(dbPath, name),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
