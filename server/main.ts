import { ConfigError, loadConfig } from './config.js';
import { refreshDocs } from './docs-refresh.js';
import { createFirstAccount } from './domain/accounts.js';
import { createDashboardUser } from './domain/dashboard-users.js';
import { randomBase62 } from './domain/ids.js';
import { loadEnvFiles } from './env-file.js';
import { firstStartMessage } from './first-start.js';
import { databaseUnavailable } from './http/error-handler.js';
import { createLogger } from './observability/logger.js';
import { startService } from './service.js';

/**
 * `npm start`: serves the API, and on the first run creates a sandbox account and prints how
 * to call it.
 */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    loadEnvFiles();
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel });
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService({ config, logger });
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (config.database && (databaseUnavailable(err) || /^[0-9A-Z]{5}$/.test(code))) {
      console.error(
        `Cannot reach the PostgreSQL database of DATABASE_URL (${code || 'no code'}: ${(err as Error).message}).\n` +
          'Check that the server runs, the URL (host, port, database, user, password) and the network.',
      );
      process.exit(1);
    }
    if (
      code.startsWith('SQLITE_') ||
      ['EACCES', 'EROFS', 'ENOTDIR', 'ENOENT', 'EPERM', 'EEXIST'].includes(code)
    ) {
      console.error(
        `Cannot open the database at ${config.databasePath} (${code}: ${(err as Error).message}).\n` +
          'Check that the file and its folder exist and are writable (DATABASE_PATH).',
      );
      process.exit(1);
    }
    if (code === 'EADDRINUSE') {
      console.error(`Port ${config.port} is already in use on ${config.host}: set PORT to a free one.`);
      process.exit(1);
    }
    throw err;
  }
  // Listening from here on, so a SIGTERM finishes what is in flight from here on too: installed
  // before anything is printed (a supervisor may stop the server as soon as it sees it start).
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    service.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  logger.info(
    { url: service.apiUrl, database: config.database ? 'postgresql' : config.databasePath },
    'listening',
  );

  // Looked for with a read first: an up-to-date database (even a read-only file) is not written to.
  const existing = await service.deps.store.read(async (tx) => tx.accounts.firstAccount());
  const account = existing
    ? undefined
    : await createFirstAccount(service.deps.store, { name: 'Sandbox account' }, Date.now());
  if (account) {
    const owner = { email: 'owner@sandbox.example', password: randomBase62(20) };
    await createDashboardUser(
      service.deps.store,
      { accountId: account.accountId, role: 'owner', ...owner },
      Date.now(),
    );
    console.log(firstStartMessage(service.apiUrl, service.deps.config.publicUrl, account, owner));
  }
  logger.info({ sandboxAccountCreated: account !== undefined }, 'accounts checked');
  // The docs check (loading the docs builder, hashing its inputs) waits until the server has had
  // a moment to answer its first requests: it is not what a starting server should spend its
  // first half-second on. Meanwhile /docs serves the page built before, if any.
  if (process.argv.includes('--docs')) setTimeout(() => void refreshDocs(logger), 500).unref();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
