/**
 * `npm run simulators`: starts the MTN MoMo and Orange Money simulators on 127.0.0.1 and
 * prints the environment that points a server's live mode at them, to try live money end to
 * end on one machine before using the operators' own sandboxes.
 */
import { mtnEnv, startMtnMomoSimulator } from './mtn-momo-simulator.js';
import { startOrangeMoneySimulator } from './orange-money-simulator.js';

const settleMs = Number(process.env.SIMULATOR_SETTLE_MS ?? 3000);
const publicUrl = (process.env.PUBLIC_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
// SIMULATOR_MTN_ENVIRONMENT=sandbox: the MTN simulator behaves as MTN's sandbox (EUR only,
// with its provisioning API for `npm run admin -- mtn-sandbox-credentials`).
const mtnEnvironment = process.env.SIMULATOR_MTN_ENVIRONMENT;
const mtn = await startMtnMomoSimulator({
  settleMs,
  ...(mtnEnvironment ? { targetEnvironment: mtnEnvironment } : {}),
});
const orange = await startOrangeMoneySimulator({ settleMs });
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
console.log('MTN MoMo and Orange Money simulators are running. In another shell:\n');
for (const [name, value] of Object.entries(env)) console.log(`export ${name}=${value}`);
console.log('npm start   # then use the live key: money settles through the simulators\n');
const stop = () => {
  void Promise.all([mtn.close(), orange.close()]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
