/**
 * `npm run admin -- <command>`: account and key management for operators of the service.
 * Uses the same DATABASE_PATH as the server.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { currencyValues } from '../../generated/openapi.js';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { createAccount, resetKeys } from '../domain/accounts.js';
import {
  createDashboardUser,
  createResetLink,
  resetLinkLifetimeMs,
  roles,
} from '../domain/dashboard-users.js';
import { triggerTestEvent } from '../domain/dashboard-webhooks.js';
import { ApiError } from '../domain/errors.js';
import { randomBase62 } from '../domain/ids.js';
import { resetTwoStep } from '../domain/two-step.js';
import { loadEnvFile } from '../env-file.js';
import { credentialsMessage, shellVariables } from '../first-start.js';
import { provisionMtnSandboxUser } from '../operators/mtn-momo/sandbox-provisioning.js';
import { openStore } from '../storage/open-store.js';
import type { DashboardRole } from '../storage/rows.js';
import type { Store } from '../storage/store.js';

const usage = `Usage: npm run admin -- <command> [options]

Commands:
  create-account --name <name> [--currency XAF] [--json]
      Creates an account with its API user, a test key and a live key (shown once).
      --json prints exactly {"api_user","test_key","live_key"} for scripts.
  reset-keys --api-user <uuid> --mode <test|live> [--json]
      Revokes every key of that mode at once and prints the single new key: the way back
      for an owner who lost every working key (a lost rotation response, a leak).
  create-user --account <api_user> --email <email> [--role owner|developer|viewer] [--password]
      Creates a dashboard user (default role: owner) and prints a one-time link, valid 7 days,
      where they choose their password. --password prints a generated initial password instead.
  reset-link <email>
      Prints a one-time link where the dashboard user of that email chooses a new password:
      valid 30 minutes, once; it replaces their earlier reset links, and using it signs out
      every session of theirs. The way to reset a password where no mail is configured.
  reset-two-step <email>
      Turns off two-step sign-in for the dashboard user of that email, who lost both their
      phone and their recovery codes, and ends every session of theirs. They sign in with their
      password alone; an owner whose account requires it sets it up again at that sign-in.
  list-accounts [--json]
      Lists every account: its id, name, API user, default currency and creation time.
  sandbox-credentials [--rotate] [--json]
      Shows again what the first start printed for the sandbox account (the first one created):
      the export lines of the base URL and API user. Keys are stored hashed, so the test key
      cannot be shown again: --rotate replaces every test key of that account with a new one
      and prints it (the old test keys stop working at once; live keys are untouched).
  mtn-sandbox-credentials [--collection-key <key>] [--disbursement-key <key>]
                          [--callback-url <url>] [--base-url <url>]
      Creates an API user and key in MTN's sandbox for the Collection and the Disbursement
      products, from their subscription keys (default: MTN_MOMO_COLLECTION_SUBSCRIPTION_KEY and
      MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY), and prints the MTN_MOMO_* variables to set.
      The API users' providerCallbackHost is the host of --callback-url (default:
      MTN_MOMO_CALLBACK_URL, else PUBLIC_URL's /operator-callbacks/mtn-momo). --base-url
      defaults to MTN_MOMO_BASE_URL, else https://sandbox.momodeveloper.mtn.com.

  trigger <event-type> [--account <api_user>] [--mode test|live] [--json]
      Sends a signed test event of that type (any the contract declares: payment.completed,
      payout.failed, ...) at once to every enabled endpoint of the account (default: the first,
      sandbox, account) in that mode (default: test) that listens for it, as the delivery
      worker signs them; prints each endpoint's answer. Not recorded as an event.

Environment: DATABASE_PATH (default ./data/payments.db), PUBLIC_URL for the links,
SECRETS_ENCRYPTION_KEY (required in production; elsewhere the key file beside the database is
used); read from .env too.`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

/** The one argument of a command about a dashboard user: their email. */
function userEmail(rest: string[], command: string): string {
  const { positionals } = parseArgs({ args: rest, allowPositionals: true, options: {} });
  const [email] = positionals;
  if (!email || positionals.length !== 1) fail(`${command} needs the email of a dashboard user.`);
  return email;
}

/** What each command gets: its arguments, the configuration and an open store. */
interface CommandContext {
  args: string[];
  config: Config;
  store: Store;
}

/** Commands that need no database: they run before any is opened. */
const withoutStore: Record<string, (args: string[]) => Promise<void>> = {
  'mtn-sandbox-credentials': async (args) => {
    const { values } = parseArgs({
      args,
      options: {
        'collection-key': { type: 'string' },
        'disbursement-key': { type: 'string' },
        'callback-url': { type: 'string' },
        'base-url': { type: 'string' },
      },
    });
    const env = process.env;
    const keys = {
      COLLECTION: values['collection-key'] ?? env.MTN_MOMO_COLLECTION_SUBSCRIPTION_KEY,
      DISBURSEMENT: values['disbursement-key'] ?? env.MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY,
    };
    if (!keys.COLLECTION || !keys.DISBURSEMENT) {
      fail(
        'mtn-sandbox-credentials needs the subscription keys of both products (momodeveloper.mtn.com, Profile): --collection-key and --disbursement-key.',
      );
    }
    const baseUrl = values['base-url'] ?? env.MTN_MOMO_BASE_URL ?? 'https://sandbox.momodeveloper.mtn.com';
    const publicUrl = (env.PUBLIC_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
    const callbackUrl =
      values['callback-url'] ?? env.MTN_MOMO_CALLBACK_URL ?? `${publicUrl}/operator-callbacks/mtn-momo`;
    let host: string;
    try {
      host = new URL(callbackUrl).hostname;
    } catch {
      fail(`--callback-url must be a URL, such as https://api.example.com/operator-callbacks/mtn-momo.`);
    }
    const lines = [`MTN_MOMO_BASE_URL=${baseUrl}`, 'MTN_MOMO_TARGET_ENVIRONMENT=sandbox'];
    for (const [product, subscriptionKey] of Object.entries(keys) as Array<[string, string]>) {
      try {
        const user = await provisionMtnSandboxUser({ baseUrl, subscriptionKey, providerCallbackHost: host });
        lines.push(
          `MTN_MOMO_${product}_SUBSCRIPTION_KEY=${subscriptionKey}`,
          `MTN_MOMO_${product}_API_USER=${user.apiUser}`,
          `MTN_MOMO_${product}_API_KEY=${user.apiKey}`,
        );
      } catch (err) {
        console.error(`MTN sandbox, ${product.toLowerCase()} product: ${(err as Error).message}.`);
        process.exit(1);
      }
    }
    lines.push(`MTN_MOMO_CALLBACK_URL=${callbackUrl}`);
    console.log(
      [
        `API users created in MTN's sandbox (providerCallbackHost ${host}). Set these (or add them to .env):`,
        '',
        ...lines.map((line) => `export ${line}`),
        '',
        'MTN\'s sandbox takes only EUR: send "currency": "EUR" in live mode.',
      ].join('\n'),
    );
  },
};

/** The commands, each a function of its own. */
const commands: Record<string, (context: CommandContext) => Promise<void>> = {
  'create-account': async ({ args: rest, store }) => {
    const { values } = parseArgs({
      args: rest,
      options: { name: { type: 'string' }, currency: { type: 'string' }, json: { type: 'boolean' } },
    });
    if (!values.name) fail('create-account needs --name.');
    const currency = values.currency ?? 'XAF';
    if (!(currencyValues as readonly string[]).includes(currency)) {
      fail(`--currency must be one of ${currencyValues.join(', ')}.`);
    }
    const account = await createAccount(store, { name: values.name, defaultCurrency: currency }, Date.now());
    if (values.json) {
      console.log(
        JSON.stringify({ api_user: account.apiUser, test_key: account.testKey, live_key: account.liveKey }),
      );
    } else {
      console.log(`API user: ${account.apiUser}\nTest key: ${account.testKey}\nLive key: ${account.liveKey}`);
    }
  },
  'reset-keys': async ({ args: rest, store }) => {
    const { values } = parseArgs({
      args: rest,
      options: { 'api-user': { type: 'string' }, mode: { type: 'string' }, json: { type: 'boolean' } },
    });
    const apiUser = values['api-user'];
    if (!apiUser) fail('reset-keys needs --api-user.');
    if (values.mode !== 'test' && values.mode !== 'live')
      fail('reset-keys needs --mode test or --mode live.');
    const key = await resetKeys(store, apiUser, values.mode, Date.now());
    console.log(values.json ? JSON.stringify({ key }) : `New ${values.mode} key: ${key}`);
  },
  'create-user': async ({ args: rest, config, store }) => {
    const { values } = parseArgs({
      args: rest,
      options: {
        account: { type: 'string' },
        email: { type: 'string' },
        role: { type: 'string' },
        password: { type: 'boolean' },
      },
    });
    if (!values.account || !values.email) fail('create-user needs --account <api_user> and --email <email>.');
    const role = values.role ?? 'owner';
    if (!(roles as readonly string[]).includes(role)) fail(`--role must be one of ${roles.join(', ')}.`);
    const account = await store.read(async (tx) => tx.accounts.accountByApiUser(values.account as string));
    if (!account) fail(`No account has the API user ${values.account}.`);
    const password = values.password ? randomBase62(20) : undefined;
    try {
      const { user, linkToken } = await createDashboardUser(
        store,
        {
          accountId: account.id,
          email: values.email,
          role: role as DashboardRole,
          ...(password ? { password } : {}),
        },
        Date.now(),
      );
      const dashboard = `${config.publicUrl}/dashboard`;
      console.log(
        linkToken
          ? `Dashboard user ${user.email} (${user.role}) created.\nOne-time link to choose a password (valid 7 days):\n  ${dashboard}/welcome/${linkToken}`
          : `Dashboard user ${user.email} (${user.role}) created.\nSign in at ${dashboard}\n  Email:    ${user.email}\n  Password: ${password}`,
      );
    } catch (err) {
      if (err instanceof ApiError) fail(err.message);
      throw err;
    }
  },
  'reset-link': async ({ args: rest, config, store }) => {
    const email = userEmail(rest, 'reset-link');
    const reset = await createResetLink(store, email, Date.now());
    if (!reset) fail(`No dashboard user has the email ${email}.`);
    console.log(
      `One-time link for ${reset.user.email} to choose a new password (valid ${resetLinkLifetimeMs / 60_000} minutes):\n  ${config.publicUrl}/dashboard/reset/${reset.token}`,
    );
  },
  'reset-two-step': async ({ args: rest, store }) => {
    const email = userEmail(rest, 'reset-two-step');
    const user = await resetTwoStep(store, email, Date.now());
    if (!user) fail(`No dashboard user has the email ${email}.`);
    console.log(
      `Two-step sign-in is off for ${user.email}; their sessions ended. They sign in with their password.`,
    );
  },
  'list-accounts': async ({ args: rest, store }) => {
    const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } });
    const accounts = await store.read(async (tx) => tx.accounts.allAccounts());
    const listed = accounts.map((a) => ({
      account_id: a.id,
      name: a.name,
      api_user: a.api_user,
      default_currency: a.default_currency,
      created_at: new Date(a.created_at).toISOString(),
    }));
    if (values.json) console.log(JSON.stringify(listed));
    else if (listed.length === 0) console.log('No accounts yet: npm start creates the sandbox account.');
    else {
      for (const a of listed) {
        console.log(`${a.account_id}  ${a.api_user}  ${a.default_currency}  ${a.created_at}  ${a.name}`);
      }
    }
  },
  trigger: async ({ args: rest, config, store }) => {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { account: { type: 'string' }, mode: { type: 'string' }, json: { type: 'boolean' } },
    });
    const [name] = positionals;
    if (!name) fail('trigger needs an event type, such as payment.completed.');
    const mode = values.mode ?? 'test';
    if (mode !== 'test' && mode !== 'live') fail(`--mode must be test or live, not ${mode}.`);
    let results: Awaited<ReturnType<typeof triggerTestEvent>>;
    try {
      results = await triggerTestEvent(
        { store, config, now: Date.now() },
        { name, apiUser: values.account, mode },
      );
    } catch (err) {
      if (err instanceof ApiError) {
        console.error(err.message);
        process.exit(1);
      }
      throw err;
    }
    if (values.json) {
      console.log(
        JSON.stringify(
          results.map((r) => ({
            endpoint_id: r.endpointId,
            url: r.url,
            event_id: r.eventId,
            delivered: r.ok,
            status: r.status,
            error: r.ok ? null : r.error,
          })),
        ),
      );
    } else {
      for (const r of results) {
        console.log(
          r.ok
            ? `${name} ${r.eventId} -> ${r.url}: HTTP ${r.status} in ${r.durationMs} ms`
            : `${name} ${r.eventId} -> ${r.url}: not delivered (${r.error})`,
        );
      }
    }
    if (results.some((r) => !r.ok)) process.exitCode = 1;
  },
  'sandbox-credentials': async ({ args: rest, config, store }) => {
    const { values } = parseArgs({
      args: rest,
      options: { rotate: { type: 'boolean' }, json: { type: 'boolean' } },
    });
    const account = await store.read(async (tx) => tx.accounts.firstAccount());
    if (!account) fail('No sandbox account yet: npm start creates it on its first run.');
    const apiUrl = `${config.publicUrl}/v1`;
    if (!values.rotate) {
      const lines = [
        `export ${shellVariables.baseUrl}=${apiUrl}`,
        `export ${shellVariables.apiUser}=${account.api_user}`,
      ];
      if (values.json) console.log(JSON.stringify({ base_url: apiUrl, api_user: account.api_user }));
      else
        console.log(
          [
            ...lines,
            '',
            'The test key is stored hashed and cannot be shown again. For a new one (the old test',
            'keys stop working at once): npm run admin -- sandbox-credentials --rotate',
          ].join('\n'),
        );
      return;
    }
    const testKey = await resetKeys(store, account.api_user, 'test', Date.now());
    const credentials = { apiUser: account.api_user, testKey };
    if (values.json) {
      console.log(JSON.stringify({ base_url: apiUrl, api_user: account.api_user, test_key: testKey }));
    } else {
      console.log(
        [
          'A new test key for the sandbox account; the previous test keys no longer work.',
          '',
          ...credentialsMessage(apiUrl, credentials),
        ].join('\n'),
      );
    }
  },
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === 'help') {
    console.log(usage);
    return;
  }
  const storeless = withoutStore[command];
  if (storeless) {
    loadEnvFile();
    await storeless(rest);
    return;
  }
  const run = commands[command];
  if (!run) fail(`Unknown command: ${command}`);
  let config: Config;
  try {
    loadEnvFile();
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  if (!config.database) mkdirSync(dirname(config.databasePath), { recursive: true });
  const store = await openStore(config);
  try {
    await run({ args: rest, config, store });
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
