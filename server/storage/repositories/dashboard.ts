import type { Db } from '../database.js';
import type { PageRequest, Pager } from '../pagination.js';
import type {
  AttemptRow,
  DashboardLinkRow,
  DashboardSessionRow,
  DashboardUserRow,
  DeliveryRow,
  LedgerRow,
  Mode,
  WebhookEndpointRow,
} from '../rows.js';

/**
 * The dashboard's users, sessions, one-time links and sign-in attempts, and the read models
 * its pages need beyond what the API's repositories offer (a movement's ledger entries, an
 * endpoint's deliveries, daily volumes).
 */
export function dashboardRepository(db: Db, page: Pager) {
  const insertUser = db.prepare(
    `INSERT INTO dashboard_users (id, account_id, email, role, password_hash, password_salt, created_at, invited_by)
     VALUES (@id, @account_id, @email, @role, @password_hash, @password_salt, @created_at, @invited_by)`,
  );
  const userById = db.prepare('SELECT * FROM dashboard_users WHERE id = ?');
  const userByEmail = db.prepare('SELECT * FROM dashboard_users WHERE email = ?');
  const usersOfAccount = db.prepare('SELECT * FROM dashboard_users WHERE account_id = ? ORDER BY seq');
  const setPassword = db.prepare(
    'UPDATE dashboard_users SET password_hash = ?, password_salt = ? WHERE id = ?',
  );
  const insertSession = db.prepare(
    `INSERT INTO dashboard_sessions (token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at)
     VALUES (@token_hash, @user_id, @csrf_token, @created_at, @last_seen_at, @expires_at)`,
  );
  const sessionByHash = db.prepare('SELECT * FROM dashboard_sessions WHERE token_hash = ?');
  const touchSession = db.prepare('UPDATE dashboard_sessions SET last_seen_at = ? WHERE token_hash = ?');
  const revokeSession = db.prepare(
    'UPDATE dashboard_sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL',
  );
  const revokeUserSessions = db.prepare(
    'UPDATE dashboard_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL',
  );
  const setFlash = db.prepare('UPDATE dashboard_sessions SET flash = ? WHERE token_hash = ?');
  const purgeSessions = db.prepare('DELETE FROM dashboard_sessions WHERE expires_at < ?');
  const insertLink = db.prepare(
    'INSERT INTO dashboard_links (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const linkByHash = db.prepare('SELECT * FROM dashboard_links WHERE token_hash = ?');
  const useLink = db.prepare(
    'UPDATE dashboard_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL',
  );
  const insertSignIn = db.prepare(
    'INSERT INTO dashboard_sign_ins (email, client, succeeded, created_at) VALUES (?, ?, ?, ?)',
  );
  const purgeSignIns = db.prepare('DELETE FROM dashboard_sign_ins WHERE created_at < ?');
  const failuresByEmail = db.prepare(
    'SELECT COUNT(*) AS n FROM dashboard_sign_ins WHERE email = ? AND succeeded = 0 AND created_at >= ?',
  );
  const failuresByClient = db.prepare(
    'SELECT COUNT(*) AS n FROM dashboard_sign_ins WHERE client = ? AND succeeded = 0 AND created_at >= ?',
  );
  const ledgerBySource = db.prepare(
    'SELECT * FROM ledger_entries WHERE source_id = ? AND wallet_id = ? ORDER BY seq',
  );
  const attempts = db.prepare('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY seq');
  const deliveriesOfEvent = db.prepare(
    'SELECT * FROM webhook_deliveries WHERE event_id = ? ORDER BY seq DESC LIMIT 100',
  );
  const dailyVolumes = db.prepare(
    `SELECT kind, currency, day, SUM(amount) AS amount, COUNT(*) AS count FROM (
       SELECT 'payments' AS kind, currency, CAST((created_at - @from) / 86400000 AS INTEGER) AS day, amount FROM payments
        WHERE account_id = @account AND mode = @mode AND status = 'success' AND created_at >= @from
       UNION ALL
       SELECT 'payouts', currency, CAST((created_at - @from) / 86400000 AS INTEGER), amount FROM payouts
        WHERE account_id = @account AND mode = @mode AND status IN ('pending', 'success') AND created_at >= @from)
     GROUP BY kind, currency, day`,
  );
  const failingEndpoints = db.prepare(
    `SELECT e.*, COUNT(d.id) AS failing, MAX(d.last_attempt_at) AS last_failure_at,
            (SELECT last_error FROM webhook_deliveries l WHERE l.endpoint_id = e.id AND l.last_error IS NOT NULL
              ORDER BY l.last_attempt_at DESC LIMIT 1) AS last_error
       FROM webhook_endpoints e JOIN webhook_deliveries d ON d.endpoint_id = e.id
      WHERE e.account_id = ? AND e.mode = ? AND e.deleted_at IS NULL AND d.created_at >= ?
        AND (d.status = 'failed' OR (d.status = 'pending' AND d.attempts > 0))
      GROUP BY e.id ORDER BY failing DESC LIMIT 20`,
  );

  return {
    insertUser(row: Omit<DashboardUserRow, 'seq'>): void {
      insertUser.run(row);
    },
    user(id: string): DashboardUserRow | undefined {
      return userById.get(id) as DashboardUserRow | undefined;
    },
    userByEmail(email: string): DashboardUserRow | undefined {
      return userByEmail.get(email) as DashboardUserRow | undefined;
    },
    usersOfAccount(accountId: string): DashboardUserRow[] {
      return usersOfAccount.all(accountId) as DashboardUserRow[];
    },
    setPassword(userId: string, hash: Buffer, salt: Buffer): void {
      setPassword.run(hash, salt, userId);
    },
    insertSession(row: Omit<DashboardSessionRow, 'revoked_at' | 'flash'>): void {
      insertSession.run(row);
    },
    session(tokenHash: Buffer): DashboardSessionRow | undefined {
      return sessionByHash.get(tokenHash) as DashboardSessionRow | undefined;
    },
    touchSession(tokenHash: Buffer, now: number): void {
      touchSession.run(now, tokenHash);
    },
    revokeSession(tokenHash: Buffer, now: number): void {
      revokeSession.run(now, tokenHash);
    },
    /** Sign-out everywhere, and what a password change does. */
    revokeUserSessions(userId: string, now: number): number {
      return revokeUserSessions.run(now, userId).changes;
    },
    setFlash(tokenHash: Buffer, flash: string | null): void {
      setFlash.run(flash, tokenHash);
    },
    purgeSessions(before: number): void {
      purgeSessions.run(before);
    },
    insertLink(tokenHash: Buffer, userId: string, now: number, expiresAt: number): void {
      insertLink.run(tokenHash, userId, now, expiresAt);
    },
    link(tokenHash: Buffer): DashboardLinkRow | undefined {
      return linkByHash.get(tokenHash) as DashboardLinkRow | undefined;
    },
    /** Marks a link used; false when it already was (two tabs, a replay). */
    useLink(tokenHash: Buffer, now: number): boolean {
      return useLink.run(now, tokenHash).changes === 1;
    },
    recordSignIn(email: string, client: string, succeeded: boolean, now: number): void {
      insertSignIn.run(email, client, succeeded ? 1 : 0, now);
    },
    purgeSignIns(before: number): void {
      purgeSignIns.run(before);
    },
    recentFailures(email: string, client: string, since: number): { email: number; client: number } {
      return {
        email: (failuresByEmail.get(email, since) as { n: number }).n,
        client: (failuresByClient.get(client, since) as { n: number }).n,
      };
    },
    ledgerOfSource(walletId: string, sourceId: string): LedgerRow[] {
      return ledgerBySource.all(sourceId, walletId) as LedgerRow[];
    },
    attempts(deliveryId: string): AttemptRow[] {
      return attempts.all(deliveryId) as AttemptRow[];
    },
    deliveriesOfEvent(eventId: string): DeliveryRow[] {
      return deliveriesOfEvent.all(eventId) as DeliveryRow[];
    },
    deliveriesOfEndpoint(endpointId: string, request: PageRequest) {
      return page<DeliveryRow>('webhook_deliveries', [['endpoint_id = ?', endpointId]], request);
    },
    dailyVolumes(accountId: string, mode: Mode, from: number) {
      return dailyVolumes.all({ account: accountId, mode, from }) as Array<{
        kind: 'payments' | 'payouts';
        currency: string;
        day: number;
        amount: number;
        count: number;
      }>;
    },
    failingEndpoints(accountId: string, mode: Mode, since: number) {
      return failingEndpoints.all(accountId, mode, since) as Array<
        WebhookEndpointRow & { failing: number; last_failure_at: number | null; last_error: string | null }
      >;
    },
  };
}
