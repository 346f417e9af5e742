import type { Pager } from '../pagination.js';
import type { AccountRow, ApiKeyRow, Mode, NewAccountRow, WalletRow } from '../rows.js';
import type { SqlConnection } from '../sql.js';

/**
 * The earlier of a key's end and `@at`: a CASE, where SQLite's scalar MIN(a, b) is LEAST(a, b)
 * in PostgreSQL; a key without an end gets `@at`.
 */
const endNoLaterThan = (at: string) =>
  `CASE WHEN expires_at IS NOT NULL AND expires_at < ${at} THEN expires_at ELSE ${at} END`;

/** Accounts, their secret keys (stored as SHA-256 hashes) and their wallets. */
export function accountsRepository(connection: SqlConnection, page: Pager, onKeysChanged = () => {}) {
  const insertAccount = connection.prepare(
    'INSERT INTO accounts (id, name, api_user, default_currency, time_zone, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const accountById = connection.prepare<AccountRow>('SELECT * FROM accounts WHERE id = ?');
  const setTimeZone = connection.prepare('UPDATE accounts SET time_zone = ? WHERE id = ?');
  const accountByName = connection.prepare<AccountRow>(
    'SELECT * FROM accounts WHERE name = ? ORDER BY created_at LIMIT 1',
  );
  const anyAccount = connection.prepare<AccountRow>('SELECT * FROM accounts ORDER BY created_at LIMIT 1');
  const everyAccount = connection.prepare<AccountRow>('SELECT * FROM accounts ORDER BY created_at, id');
  const insertKey = connection.prepare(
    'INSERT INTO api_keys (id, account_id, mode, key_hash, last4, role, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const keyByHash = connection.prepare<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?');
  const keyById = connection.prepare<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const retireKey = connection.prepare(
    `UPDATE api_keys SET expires_at = ${endNoLaterThan('@ends')}, revoked_at = @revoked
      WHERE id = @id AND revoked_at IS NULL`,
  );
  const accountByApiUser = connection.prepare<AccountRow>('SELECT * FROM accounts WHERE api_user = ?');
  const workingKeys = connection.prepare<ApiKeyRow>(
    `SELECT * FROM api_keys WHERE account_id = @account_id AND mode = @mode AND (revoked_at IS NULL OR revoked_at > @now)
       AND (expires_at IS NULL OR expires_at > @now) ORDER BY seq`,
  );
  const revokeKey = connection.prepare(
    `UPDATE api_keys SET revoked_at = @now, expires_at = ${endNoLaterThan('@now')}
      WHERE id = @id AND revoked_at IS NULL`,
  );
  const revokeAll = connection.prepare(
    'UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND mode = ? AND revoked_at IS NULL',
  );
  const insertWallet = connection.prepare('INSERT INTO wallets (id, account_id, mode) VALUES (?, ?, ?)');
  const walletByAccount = connection.prepare<WalletRow>(
    'SELECT * FROM wallets WHERE account_id = ? AND mode = ?',
  );
  const walletById = connection.prepare<WalletRow>('SELECT * FROM wallets WHERE id = ?');

  return {
    async insertAccount(row: NewAccountRow): Promise<void> {
      await insertAccount.run(
        row.id,
        row.name,
        row.api_user,
        row.default_currency,
        row.time_zone,
        row.created_at,
      );
    },
    async account(id: string): Promise<AccountRow | undefined> {
      return accountById.get(id);
    },
    async setTimeZone(id: string, timeZone: string): Promise<void> {
      await setTimeZone.run(timeZone, id);
    },
    async accountByName(name: string): Promise<AccountRow | undefined> {
      return accountByName.get(name);
    },
    async accountByApiUser(apiUser: string): Promise<AccountRow | undefined> {
      return accountByApiUser.get(apiUser);
    },
    /** Revokes every key of one mode at once (an operator's response to a leak). */
    async revokeAllKeys(accountId: string, mode: Mode, now: number): Promise<number> {
      onKeysChanged();
      return (await revokeAll.run(now, accountId, mode)).changes;
    },
    /** The keys of one mode that work at `now`: active ones and those in a grace period. */
    async workingKeys(accountId: string, mode: Mode, now: number): Promise<ApiKeyRow[]> {
      return workingKeys.all({ account_id: accountId, mode, now });
    },
    /** Revokes one key at `now`; false when it was already revoked. */
    async revokeKey(id: string, now: number): Promise<boolean> {
      onKeysChanged();
      return (await revokeKey.run({ id, now })).changes === 1;
    },
    async firstAccount(): Promise<AccountRow | undefined> {
      return anyAccount.get();
    },
    /** Every account, oldest first (the admin CLI's list; operators have few of them). */
    async allAccounts(): Promise<AccountRow[]> {
      return everyAccount.all();
    },
    async insertKey(row: Omit<ApiKeyRow, 'seq' | 'expires_at' | 'revoked_at'>): Promise<void> {
      await insertKey.run(
        row.id,
        row.account_id,
        row.mode,
        row.key_hash,
        row.last4,
        row.role,
        row.created_at,
      );
    },
    async keyByHash(hash: Buffer): Promise<ApiKeyRow | undefined> {
      return keyByHash.get(hash);
    },
    async key(id: string): Promise<ApiKeyRow | undefined> {
      return keyById.get(id);
    },
    /** Gives a key an end: `expiresAt` in the future (grace period) or now (revoked at once). */
    async retireKey(id: string, expiresAt: number, revokedAt: number | null): Promise<boolean> {
      onKeysChanged();
      return (await retireKey.run({ ends: expiresAt, revoked: revokedAt, id })).changes === 1;
    },
    async listKeys(accountId: string, mode: Mode, request: { limit: number; cursor?: string | undefined }) {
      return page<ApiKeyRow>(
        'api_keys',
        [
          ['account_id = ?', accountId],
          ['mode = ?', mode],
        ],
        request,
      );
    },
    async insertWallet(row: WalletRow): Promise<void> {
      await insertWallet.run(row.id, row.account_id, row.mode);
    },
    async wallet(accountId: string, mode: Mode): Promise<WalletRow | undefined> {
      return walletByAccount.get(accountId, mode);
    },
    async walletById(id: string): Promise<WalletRow | undefined> {
      return walletById.get(id);
    },
  };
}
