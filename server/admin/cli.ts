/**
 * `npm run admin -- <command>`: account and key management for operators of the service.
 * Uses the same DATABASE_PATH as the server.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { currencyValues } from '../../generated/openapi.js';
import { ConfigError, loadConfig } from '../config.js';
import { createAccount, resetKeys } from '../domain/accounts.js';
import { createDashboardUser, DashboardError, roles } from '../domain/dashboard-users.js';
import { randomBase62 } from '../domain/ids.js';
import { openStore } from '../storage/open-store.js';
import type { DashboardRole } from '../storage/rows.js';

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

Environment: DATABASE_PATH (default ./data/payments.db), PUBLIC_URL for the links,
SECRETS_ENCRYPTION_KEY (required in production; elsewhere the key file beside the database is used).`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === 'help') {
    console.log(usage);
    return;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  mkdirSync(dirname(config.databasePath), { recursive: true });
  const store = await openStore(config.databasePath, config.secretsEncryptionKey);
  try {
    if (command === 'create-account') {
      const { values } = parseArgs({
        args: rest,
        options: { name: { type: 'string' }, currency: { type: 'string' }, json: { type: 'boolean' } },
      });
      if (!values.name) fail('create-account needs --name.');
      const currency = values.currency ?? 'XAF';
      if (!(currencyValues as readonly string[]).includes(currency)) {
        fail(`--currency must be one of ${currencyValues.join(', ')}.`);
      }
      const account = await createAccount(
        store,
        { name: values.name, defaultCurrency: currency },
        Date.now(),
      );
      if (values.json) {
        console.log(
          JSON.stringify({ api_user: account.apiUser, test_key: account.testKey, live_key: account.liveKey }),
        );
      } else {
        console.log(
          `API user: ${account.apiUser}\nTest key: ${account.testKey}\nLive key: ${account.liveKey}`,
        );
      }
    } else if (command === 'reset-keys') {
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
    } else if (command === 'create-user') {
      const { values } = parseArgs({
        args: rest,
        options: {
          account: { type: 'string' },
          email: { type: 'string' },
          role: { type: 'string' },
          password: { type: 'boolean' },
        },
      });
      if (!values.account || !values.email)
        fail('create-user needs --account <api_user> and --email <email>.');
      const role = values.role ?? 'owner';
      if (!(roles as readonly string[]).includes(role)) fail(`--role must be one of ${roles.join(', ')}.`);
      const account = await store.read((tx) => tx.accounts.accountByApiUser(values.account as string));
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
        if (err instanceof DashboardError) fail(err.message);
        throw err;
      }
    } else {
      fail(`Unknown command: ${command}`);
    }
  } finally {
    store.close();
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
