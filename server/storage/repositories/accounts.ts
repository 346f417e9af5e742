import type { Db } from '../database.js';
import type { Pager } from '../pagination.js';
import type { AccountRow, ApiKeyRow, Mode, WalletRow } from '../rows.js';

/** Accounts, their secret keys (stored as SHA-256 hashes) and their wallets. */
export function accountsRepository(db: Db, page: Pager) {
  const insertAccount = db.prepare(
    'INSERT INTO accounts (id, name, api_user, default_currency, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const accountById = db.prepare('SELECT * FROM accounts WHERE id = ?');
  const accountByName = db.prepare('SELECT * FROM accounts WHERE name = ? ORDER BY created_at LIMIT 1');
  const anyAccount = db.prepare('SELECT * FROM accounts ORDER BY created_at LIMIT 1');
  const everyAccount = db.prepare('SELECT * FROM accounts ORDER BY created_at, id');
  const insertKey = db.prepare(
    'INSERT INTO api_keys (id, account_id, mode, key_hash, last4, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const keyByHash = db.prepare('SELECT * FROM api_keys WHERE key_hash = ?');
  const keyById = db.prepare('SELECT * FROM api_keys WHERE id = ?');
  const retireKey = db.prepare(
    'UPDATE api_keys SET expires_at = MIN(COALESCE(expires_at, @ends), @ends), revoked_at = @revoked WHERE id = @id AND revoked_at IS NULL',
  );
  const accountByApiUser = db.prepare('SELECT * FROM accounts WHERE api_user = ?');
  const workingKeys = db.prepare(
    `SELECT * FROM api_keys WHERE account_id = ? AND mode = ? AND (revoked_at IS NULL OR revoked_at > @now)
       AND (expires_at IS NULL OR expires_at > @now) ORDER BY seq`,
  );
  const revokeKey = db.prepare(
    'UPDATE api_keys SET revoked_at = @now, expires_at = MIN(COALESCE(expires_at, @now), @now) WHERE id = @id AND revoked_at IS NULL',
  );
  const revokeAll = db.prepare(
    'UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND mode = ? AND revoked_at IS NULL',
  );
  const insertWallet = db.prepare('INSERT INTO wallets (id, account_id, mode) VALUES (?, ?, ?)');
  const walletByAccount = db.prepare('SELECT * FROM wallets WHERE account_id = ? AND mode = ?');
  const walletById = db.prepare('SELECT * FROM wallets WHERE id = ?');

  return {
    insertAccount(row: AccountRow): void {
      insertAccount.run(row.id, row.name, row.api_user, row.default_currency, row.created_at);
    },
    account(id: string): AccountRow | undefined {
      return accountById.get(id) as AccountRow | undefined;
    },
    accountByName(name: string): AccountRow | undefined {
      return accountByName.get(name) as AccountRow | undefined;
    },
    accountByApiUser(apiUser: string): AccountRow | undefined {
      return accountByApiUser.get(apiUser) as AccountRow | undefined;
    },
    /** Revokes every key of one mode at once (an operator's response to a leak). */
    revokeAllKeys(accountId: string, mode: Mode, now: number): number {
      return revokeAll.run(now, accountId, mode).changes;
    },
    /** The keys of one mode that work at `now`: active ones and those in a grace period. */
    workingKeys(accountId: string, mode: Mode, now: number): ApiKeyRow[] {
      return workingKeys.all(accountId, mode, { now }) as ApiKeyRow[];
    },
    /** Revokes one key at `now`; false when it was already revoked. */
    revokeKey(id: string, now: number): boolean {
      return revokeKey.run({ id, now }).changes === 1;
    },
    firstAccount(): AccountRow | undefined {
      return anyAccount.get() as AccountRow | undefined;
    },
    /** Every account, oldest first (the admin CLI's list; operators have few of them). */
    allAccounts(): AccountRow[] {
      return everyAccount.all() as AccountRow[];
    },
    insertKey(row: Omit<ApiKeyRow, 'seq' | 'expires_at' | 'revoked_at'>): void {
      insertKey.run(row.id, row.account_id, row.mode, row.key_hash, row.last4, row.created_at);
    },
    keyByHash(hash: Buffer): ApiKeyRow | undefined {
      return keyByHash.get(hash) as ApiKeyRow | undefined;
    },
    key(id: string): ApiKeyRow | undefined {
      return keyById.get(id) as ApiKeyRow | undefined;
    },
    /** Gives a key an end: `expiresAt` in the future (grace period) or now (revoked at once). */
    retireKey(id: string, expiresAt: number, revokedAt: number | null): boolean {
      return retireKey.run({ ends: expiresAt, revoked: revokedAt, id }).changes === 1;
    },
    listKeys(accountId: string, mode: Mode, request: { limit: number; cursor?: string | undefined }) {
      return page<ApiKeyRow>(
        'api_keys',
        [
          ['account_id = ?', accountId],
          ['mode = ?', mode],
        ],
        request,
      );
    },
    insertWallet(row: WalletRow): void {
      insertWallet.run(row.id, row.account_id, row.mode);
    },
    wallet(accountId: string, mode: Mode): WalletRow | undefined {
      return walletByAccount.get(accountId, mode) as WalletRow | undefined;
    },
    walletById(id: string): WalletRow | undefined {
      return walletById.get(id) as WalletRow | undefined;
    },
  };
}
