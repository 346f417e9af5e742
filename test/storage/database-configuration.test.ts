/**
 * DATABASE_URL and its settings are checked at start-up, with messages that say what to do; a
 * database that cannot be reached stops `npm start` with one clear line, not a stack trace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { ChildServerStartError, startChildServer } from '../support/child-server.js';
import { freePort } from '../support/ports.js';

const key = 'b'.repeat(64);
const dir = mkdtempSync(join(tmpdir(), 'database-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error('the configuration was accepted');
}

describe('DATABASE_URL', () => {
  it('unset, the SQLite file of DATABASE_PATH is used', () => {
    const config = loadConfig({ DATABASE_PATH: '/tmp/x.db' });
    expect(config.database).toBeNull();
    expect(config.databasePath).toBe('/tmp/x.db');
  });

  it('set, selects PostgreSQL with a pool of 10 and a 10 s statement timeout unless told otherwise', () => {
    const url = 'postgres://payments:secret@127.0.0.1:5432/payments';
    expect(loadConfig({ DATABASE_URL: url, SECRETS_ENCRYPTION_KEY: key }).database).toEqual({
      url,
      poolSize: 10,
      statementTimeoutMs: 10_000,
    });
    const tuned = loadConfig({
      DATABASE_URL: url,
      SECRETS_ENCRYPTION_KEY: key,
      DATABASE_POOL_SIZE: '25',
      DATABASE_STATEMENT_TIMEOUT_MS: '2500',
    });
    expect(tuned.database).toMatchObject({ poolSize: 25, statementTimeoutMs: 2500 });
  });

  it('refuses a URL of another kind or without a database, and says what one looks like', () => {
    for (const url of ['mysql://u@h/db', 'postgres://127.0.0.1:5432', 'not a url']) {
      expect(problemsOf({ DATABASE_URL: url, SECRETS_ENCRYPTION_KEY: key })).toContain(
        'DATABASE_URL must be a PostgreSQL URL naming its database, postgres://',
      );
    }
  });

  it('requires the key every instance shares, and bounds the pool settings', () => {
    const message = problemsOf({
      DATABASE_URL: 'postgres://u@127.0.0.1/payments',
      DATABASE_POOL_SIZE: '0',
      DATABASE_STATEMENT_TIMEOUT_MS: 'soon',
    });
    expect(message).toContain('SECRETS_ENCRYPTION_KEY is required with DATABASE_URL');
    expect(message).toContain('DATABASE_POOL_SIZE must be an integer from 1 to 1000');
    expect(message).toContain('DATABASE_STATEMENT_TIMEOUT_MS must be an integer');
  });

  it('refuses PostgreSQL pool settings without DATABASE_URL rather than ignoring them', () => {
    expect(problemsOf({ DATABASE_POOL_SIZE: '5' })).toContain(
      'DATABASE_POOL_SIZE applies to PostgreSQL only: set DATABASE_URL too, or unset it',
    );
  });

  it('npm start against a database nobody answers for exits 1 naming DATABASE_URL, with no stack trace', async () => {
    const port = await freePort(); // nothing listens on it
    const started = startChildServer({
      dbPath: join(dir, 'unused.db'),
      name: 'unreachable database',
      databaseEnv: {
        DATABASE_URL: `postgres://payments:never-printed@127.0.0.1:${port}/payments`,
        SECRETS_ENCRYPTION_KEY: key,
      },
    });
    const error = (await started.catch((err) => err)) as ChildServerStartError;
    expect(error).toBeInstanceOf(ChildServerStartError);
    expect(error.code).toBe(1);
    expect(error.output).toContain('Cannot reach the PostgreSQL database of DATABASE_URL (ECONNREFUSED');
    expect(error.output).not.toMatch(/\n\s+at /);
    expect(error.output).not.toContain('never-printed');
  });
});
