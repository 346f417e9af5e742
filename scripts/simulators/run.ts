/**
 * `npm run simulators`: starts the MTN MoMo and Orange Money simulators on 127.0.0.1 and writes
 * the variables that point a server's live mode at them to `.env.simulators` (or the file of
 * `--write-env <file>`; `--no-write-env` only prints them), so trying live money locally is two
 * commands: this one, then `npm start -- --env-file .env.simulators`.
 *
 * It reads `.env` as `npm start` does (a variable set in the environment wins): the callback
 * URLs are under `PUBLIC_URL`, else `http://127.0.0.1:$PORT` (3000). The credentials, and the
 * ports when they are free (SIMULATOR_MTN_PORT and SIMULATOR_ORANGE_PORT choose them), stay the same from run to run: they are kept in
 * `simulators.json` beside the database (the folder of `DATABASE_PATH`, `./data`), so a server
 * started with the file of an earlier run still connects. See docs/decisions/0041-operators-connected.md.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadEnvFile } from '../../server/env-file.js';
import { type MtnCredentials, mtnEnv, startMtnMomoSimulator } from './mtn-momo-simulator.js';
import { type OrangeCredentials, startOrangeMoneySimulator } from './orange-money-simulator.js';

/** What a run keeps for the next: both simulators' credentials and the ports they listened on. */
interface SimulatorState {
  mtn: { collection: MtnCredentials; disbursement: MtnCredentials; port: number };
  orange: OrangeCredentials & { port: number };
}

const mtnCredentials = (): MtnCredentials => ({
  subscriptionKey: randomUUID().replaceAll('-', ''),
  apiUser: randomUUID(),
  apiKey: randomUUID().replaceAll('-', ''),
});

function readState(path: string): SimulatorState {
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as SimulatorState;
  return {
    mtn: { collection: mtnCredentials(), disbursement: mtnCredentials(), port: 0 },
    orange: {
      clientId: randomUUID(),
      clientSecret: randomUUID().replaceAll('-', ''),
      authToken: randomUUID().replaceAll('-', ''),
      channelMsisdn: '691234567',
      pin: '2222',
      port: 0,
    },
  };
}

/** Written whole or not at all, readable by its owner only (it holds credentials, if fake ones). */
function writePrivate(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Starts a simulator on `port` (that of the last run), or on any free port when it is taken. */
async function onPortOrAny<T>(port: number, start: (port: number) => Promise<T>): Promise<T> {
  try {
    return await start(port);
  } catch (err) {
    if (port === 0 || (err as { code?: string }).code !== 'EADDRINUSE') throw err;
    console.error(`Port ${port} is taken: the simulator listens on another one.`);
    return start(0);
  }
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

loadEnvFile();
const settleMs = Number(process.env.SIMULATOR_SETTLE_MS ?? 3000);
const publicUrl = (process.env.PUBLIC_URL || `http://127.0.0.1:${process.env.PORT || 3000}`).replace(
  /\/$/,
  '',
);
const statePath = join(
  dirname(resolve(process.env.DATABASE_PATH || './data/payments.db')),
  'simulators.json',
);
const envPath = process.argv.includes('--no-write-env')
  ? undefined
  : resolve(argument('--write-env') ?? '.env.simulators');
const state = readState(statePath);
// SIMULATOR_MTN_ENVIRONMENT=sandbox: the MTN simulator behaves as MTN's sandbox (EUR only,
// with its provisioning API for `npm run admin -- mtn-sandbox-credentials`).
const mtnEnvironment = process.env.SIMULATOR_MTN_ENVIRONMENT;
const mtn = await onPortOrAny(Number(process.env.SIMULATOR_MTN_PORT ?? state.mtn.port), (port) =>
  startMtnMomoSimulator({
    settleMs,
    port,
    credentials: { collection: state.mtn.collection, disbursement: state.mtn.disbursement },
    ...(mtnEnvironment ? { targetEnvironment: mtnEnvironment } : {}),
  }),
);
const { port: _orangePort, ...orangeCredentials } = state.orange;
const orange = await onPortOrAny(Number(process.env.SIMULATOR_ORANGE_PORT ?? state.orange.port), (port) =>
  startOrangeMoneySimulator({ settleMs, port, credentials: orangeCredentials }),
);
state.mtn.port = Number(new URL(mtn.url).port);
state.orange.port = Number(new URL(orange.url).port);
writePrivate(statePath, `${JSON.stringify(state, null, 2)}\n`);

const env = {
  ...mtnEnv(mtn, publicUrl),
  ORANGE_MONEY_BASE_URL: orange.url,
  ORANGE_MONEY_CLIENT_ID: orange.credentials.clientId,
  ORANGE_MONEY_CLIENT_SECRET: orange.credentials.clientSecret,
  ORANGE_MONEY_AUTH_TOKEN: orange.credentials.authToken,
  ORANGE_MONEY_CHANNEL_MSISDN: orange.credentials.channelMsisdn,
  ORANGE_MONEY_PIN: orange.credentials.pin,
  ORANGE_MONEY_NOTIFY_URL: `${publicUrl}/operator-callbacks/orange-money`,
};
const lines = Object.entries(env).map(([name, value]) => `${name}=${value}`);
console.log(`MTN MoMo (${mtn.url}) and Orange Money (${orange.url}) simulators are running.`);
if (envPath) {
  writePrivate(
    envPath,
    `# Written by npm run simulators: live mode through the simulators on 127.0.0.1.\n${lines.join('\n')}\n`,
  );
  const shown = envPath.startsWith(`${process.cwd()}/`) ? envPath.slice(process.cwd().length + 1) : envPath;
  console.log(`Their variables are in ${shown}. In another shell:\n\n  npm start -- --env-file ${shown}\n`);
} else {
  console.log('In another shell:\n');
  for (const line of lines) console.log(`export ${line}`);
  console.log('npm start\n');
}
console.log('then use the live key: money settles through the simulators.');
const stop = () => {
  void Promise.all([mtn.close(), orange.close()]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
