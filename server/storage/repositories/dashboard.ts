import type { PageRequest, Pager } from '../pagination.js';
import type {
  AttemptRow,
  DashboardChallengeRow,
  DashboardLinkPurpose,
  DashboardLinkRow,
  DashboardSessionRow,
  DashboardUserRow,
  DeliveryRow,
  LedgerRow,
  Mode,
  NewDashboardUserRow,
  ServiceRow,
  WebhookEndpointRow,
} from '../rows.js';
import type { SecretBox } from '../secret-box.js';
import type { SqlConnection } from '../sql.js';

/**
 * The dashboard's users, sessions, one-time links and sign-in attempts (`access`), and the read
 * models its pages need beyond what the API's repositories offer (`pageReads`: a movement's
 * ledger entries, an endpoint's deliveries, daily volumes).
 */
export function dashboardRepository(connection: SqlConnection, page: Pager, box: SecretBox) {
  return { ...access(connection), ...twoStep(connection, box), ...pageReads(connection, page) };
}

/** Users, sessions, one-time links and sign-in attempts. */
function access(connection: SqlConnection) {
  const insertUser = connection.prepare(
    `INSERT INTO dashboard_users (id, account_id, email, role, password_hash, password_salt, created_at, invited_by)
     VALUES (@id, @account_id, @email, @role, @password_hash, @password_salt, @created_at, @invited_by)`,
  );
  const revokeOtherSessions = connection.prepare(
    'UPDATE dashboard_sessions SET revoked_at = ? WHERE user_id = ? AND token_hash <> ? AND revoked_at IS NULL',
  );
  const userById = connection.prepare<DashboardUserRow>('SELECT * FROM dashboard_users WHERE id = ?');
  const userByEmail = connection.prepare<DashboardUserRow>('SELECT * FROM dashboard_users WHERE email = ?');
  const usersOfAccount = connection.prepare<DashboardUserRow>(
    'SELECT * FROM dashboard_users WHERE account_id = ? ORDER BY seq',
  );
  const setPassword = connection.prepare(
    'UPDATE dashboard_users SET password_hash = ?, password_salt = ? WHERE id = ?',
  );
  const insertSession = connection.prepare(
    `INSERT INTO dashboard_sessions (token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at)
     VALUES (@token_hash, @user_id, @csrf_token, @created_at, @last_seen_at, @expires_at)`,
  );
  const sessionByHash = connection.prepare<DashboardSessionRow>(
    'SELECT * FROM dashboard_sessions WHERE token_hash = ?',
  );
  const touchSession = connection.prepare(
    'UPDATE dashboard_sessions SET last_seen_at = ? WHERE token_hash = ?',
  );
  const revokeSession = connection.prepare(
    'UPDATE dashboard_sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL',
  );
  const revokeUserSessions = connection.prepare(
    'UPDATE dashboard_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL',
  );
  const setFlash = connection.prepare('UPDATE dashboard_sessions SET flash = ? WHERE token_hash = ?');
  const purgeSessions = connection.prepare('DELETE FROM dashboard_sessions WHERE expires_at < ?');
  const insertLink = connection.prepare(
    'INSERT INTO dashboard_links (token_hash, user_id, created_at, expires_at, purpose) VALUES (?, ?, ?, ?, ?)',
  );
  const unusedResetLinks = connection.prepare<{ token_hash: Buffer }>(
    "SELECT token_hash FROM dashboard_links WHERE user_id = ? AND purpose = 'reset' AND used_at IS NULL",
  );
  const spendUserLinks = connection.prepare(
    'UPDATE dashboard_links SET used_at = ? WHERE user_id = ? AND used_at IS NULL',
  );
  const insertResetRequest = connection.prepare(
    'INSERT INTO dashboard_reset_requests (email, client, created_at) VALUES (?, ?, ?)',
  );
  const resetRequestsByEmail = connection.prepare<{ n: number }>(
    'SELECT COUNT(*) AS n FROM dashboard_reset_requests WHERE email = ? AND created_at >= ?',
  );
  const resetRequestsByClient = connection.prepare<{ n: number }>(
    'SELECT COUNT(*) AS n FROM dashboard_reset_requests WHERE client = ? AND created_at >= ?',
  );
  const purgeResetRequests = connection.prepare('DELETE FROM dashboard_reset_requests WHERE created_at < ?');
  const linkByHash = connection.prepare<DashboardLinkRow>(
    'SELECT * FROM dashboard_links WHERE token_hash = ?',
  );
  const useLink = connection.prepare(
    'UPDATE dashboard_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL',
  );
  const insertSignIn = connection.prepare(
    'INSERT INTO dashboard_sign_ins (email, client, succeeded, created_at, attempt_id) VALUES (?, ?, ?, ?, ?)',
  );
  const signInSucceeded = connection.prepare(
    'UPDATE dashboard_sign_ins SET succeeded = 1 WHERE attempt_id = ?',
  );
  const purgeSignIns = connection.prepare('DELETE FROM dashboard_sign_ins WHERE created_at < ?');
  const failuresByPair = connection.prepare<{ n: number }>(
    'SELECT COUNT(*) AS n FROM dashboard_sign_ins WHERE email = ? AND client = ? AND succeeded = 0 AND created_at >= ?',
  );
  const failuresByClient = connection.prepare<{ n: number }>(
    'SELECT COUNT(*) AS n FROM dashboard_sign_ins WHERE client = ? AND succeeded = 0 AND created_at >= ?',
  );
  return {
    async insertUser(row: NewDashboardUserRow): Promise<void> {
      await insertUser.run(row);
    },
    async user(id: string): Promise<DashboardUserRow | undefined> {
      return userById.get(id);
    },
    async userByEmail(email: string): Promise<DashboardUserRow | undefined> {
      return userByEmail.get(email);
    },
    async usersOfAccount(accountId: string): Promise<DashboardUserRow[]> {
      return usersOfAccount.all(accountId);
    },
    async setPassword(userId: string, hash: Buffer, salt: Buffer): Promise<void> {
      await setPassword.run(hash, salt, userId);
    },
    async insertSession(row: Omit<DashboardSessionRow, 'revoked_at' | 'flash'>): Promise<void> {
      await insertSession.run(row);
    },
    async session(tokenHash: Buffer): Promise<DashboardSessionRow | undefined> {
      return sessionByHash.get(tokenHash);
    },
    async touchSession(tokenHash: Buffer, now: number): Promise<void> {
      await touchSession.run(now, tokenHash);
    },
    async revokeSession(tokenHash: Buffer, now: number): Promise<void> {
      await revokeSession.run(now, tokenHash);
    },
    /** Sign-out everywhere, and what a password change does. */
    async revokeUserSessions(userId: string, now: number): Promise<number> {
      return (await revokeUserSessions.run(now, userId)).changes;
    },
    /** Every session of the user but the one in use: what turning two-step sign-in on does. */
    async revokeOtherSessions(userId: string, keep: Buffer, now: number): Promise<number> {
      return (await revokeOtherSessions.run(now, userId, keep)).changes;
    },
    async setFlash(tokenHash: Buffer, flash: string | null): Promise<void> {
      await setFlash.run(flash, tokenHash);
    },
    async purgeSessions(before: number): Promise<void> {
      await purgeSessions.run(before);
    },
    async insertLink(
      tokenHash: Buffer,
      userId: string,
      now: number,
      expiresAt: number,
      purpose: DashboardLinkPurpose = 'invitation',
    ): Promise<void> {
      await insertLink.run(tokenHash, userId, now, expiresAt, purpose);
    },
    /** The hashes of the user's reset links not used yet (a newer one spends them). */
    async unusedResetLinks(userId: string): Promise<Buffer[]> {
      return (await unusedResetLinks.all(userId)).map((row) => row.token_hash);
    },
    /** Marks every unused link of the user used: a password change. */
    async spendUserLinks(userId: string, now: number): Promise<void> {
      await spendUserLinks.run(now, userId);
    },
    /** A request for a reset link, recorded whether or not the email is a user's. */
    async recordResetRequest(email: string, client: string, now: number): Promise<void> {
      await insertResetRequest.run(email, client, now);
    },
    /** Reset requests since `since` for this email from any address, and from this address for any email. */
    async recentResetRequests(
      email: string,
      client: string,
      since: number,
    ): Promise<{ email: number; client: number }> {
      return {
        email: Number(((await resetRequestsByEmail.get(email, since)) as { n: number }).n),
        client: Number(((await resetRequestsByClient.get(client, since)) as { n: number }).n),
      };
    },
    async purgeResetRequests(before: number): Promise<void> {
      await purgeResetRequests.run(before);
    },
    async link(tokenHash: Buffer): Promise<DashboardLinkRow | undefined> {
      return linkByHash.get(tokenHash);
    },
    /** Marks a link used; false when it already was (two tabs, a replay). */
    async useLink(tokenHash: Buffer, now: number): Promise<boolean> {
      return (await useLink.run(now, tokenHash)).changes === 1;
    },
    /** A sign-in attempt, recorded as failed until `signInSucceeded` says otherwise. */
    async recordSignIn(email: string, client: string, attemptId: string, now: number): Promise<void> {
      await insertSignIn.run(email, client, 0, now, attemptId);
    },
    async signInSucceeded(attemptId: string): Promise<void> {
      await signInSucceeded.run(attemptId);
    },
    async purgeSignIns(before: number): Promise<void> {
      await purgeSignIns.run(before);
    },
    /** Failed attempts since `since` for this email from this client, and from this client for any email. */
    async recentFailures(
      email: string,
      client: string,
      since: number,
    ): Promise<{ pair: number; client: number }> {
      return {
        pair: Number(((await failuresByPair.get(email, client, since)) as { n: number }).n),
        client: Number(((await failuresByClient.get(client, since)) as { n: number }).n),
      };
    },
  };
}

/**
 * Two-step sign-in (decision 0045): the users' TOTP secrets, sealed like webhook secrets and
 * bound to the user's id; their recovery codes (SHA-256 only); the challenges between a right
 * password and the second step.
 */
function twoStep(connection: SqlConnection, box: SecretBox) {
  const secretOf = connection.prepare<{ totp_secret: string | null }>(
    'SELECT totp_secret FROM dashboard_users WHERE id = ? AND totp_enabled_at IS NOT NULL',
  );
  const enable = connection.prepare(
    'UPDATE dashboard_users SET totp_secret = ?, totp_enabled_at = ?, totp_last_step = ? WHERE id = ?',
  );
  const disable = connection.prepare(
    'UPDATE dashboard_users SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = ?',
  );
  const acceptStep = connection.prepare(
    'UPDATE dashboard_users SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)',
  );
  const deleteCodes = connection.prepare('DELETE FROM dashboard_recovery_codes WHERE user_id = ?');
  const insertCode = connection.prepare(
    'INSERT INTO dashboard_recovery_codes (code_hash, user_id, created_at) VALUES (?, ?, ?)',
  );
  const useCode = connection.prepare(
    'UPDATE dashboard_recovery_codes SET used_at = ? WHERE code_hash = ? AND user_id = ? AND used_at IS NULL',
  );
  const codesLeft = connection.prepare<{ n: number }>(
    'SELECT COUNT(*) AS n FROM dashboard_recovery_codes WHERE user_id = ? AND used_at IS NULL',
  );
  const insertChallenge = connection.prepare(
    `INSERT INTO dashboard_challenges (token_hash, user_id, kind, pending_secret, next, created_at, expires_at)
     VALUES (@token_hash, @user_id, @kind, @pending_secret, @next, @created_at, @expires_at)`,
  );
  const challengeByHash = connection.prepare<DashboardChallengeRow>(
    'SELECT * FROM dashboard_challenges WHERE token_hash = ?',
  );
  const challengeFailed = connection.prepare(
    'UPDATE dashboard_challenges SET failures = failures + 1 WHERE token_hash = ?',
  );
  const challengeSucceeded = connection.prepare(
    'UPDATE dashboard_challenges SET used_at = ?, failures = failures - 1 WHERE token_hash = ? AND used_at IS NULL',
  );
  const failuresOfUser = connection.prepare<{ n: number | null }>(
    'SELECT CAST(SUM(failures) AS BIGINT) AS n FROM dashboard_challenges WHERE user_id = ? AND created_at >= ?',
  );
  const purgeChallenges = connection.prepare('DELETE FROM dashboard_challenges WHERE expires_at < ?');
  const requireOfOwners = connection.prepare('UPDATE accounts SET owners_need_two_step = ? WHERE id = ?');
  const revokeOwnersWithoutTwoStep = connection.prepare(
    `UPDATE dashboard_sessions SET revoked_at = ? WHERE revoked_at IS NULL AND user_id IN (
       SELECT id FROM dashboard_users WHERE account_id = ? AND role = 'owner' AND totp_enabled_at IS NULL)`,
  );
  return {
    /** The user's TOTP secret in base32, opened; undefined when two-step sign-in is off. */
    async twoStepSecret(userId: string): Promise<string | undefined> {
      const sealed = (await secretOf.get(userId))?.totp_secret;
      return sealed ? box.open(sealed, userId) : undefined;
    },
    async enableTwoStep(userId: string, secret: string, step: number, now: number): Promise<void> {
      await enable.run(box.seal(secret, userId), now, step, userId);
    },
    /** Turns two-step sign-in off and deletes the recovery codes. */
    async disableTwoStep(userId: string): Promise<void> {
      await disable.run(userId);
      await deleteCodes.run(userId);
    },
    /** Records the step of an accepted code; false when that step or a later one was accepted already. */
    async acceptTotpStep(userId: string, step: number): Promise<boolean> {
      return (await acceptStep.run(step, userId, step)).changes === 1;
    },
    async replaceRecoveryCodes(userId: string, hashes: Buffer[], now: number): Promise<void> {
      await deleteCodes.run(userId);
      for (const hash of hashes) await insertCode.run(hash, userId, now);
    },
    /** Spends a recovery code; false when it is not the user's or was used already. */
    async useRecoveryCode(userId: string, hash: Buffer, now: number): Promise<boolean> {
      return (await useCode.run(now, hash, userId)).changes === 1;
    },
    async recoveryCodesLeft(userId: string): Promise<number> {
      return Number(((await codesLeft.get(userId)) as { n: number }).n);
    },
    async insertChallenge(row: Omit<DashboardChallengeRow, 'failures' | 'used_at'>): Promise<void> {
      const sealed = row.pending_secret === null ? null : box.seal(row.pending_secret, row.user_id);
      await insertChallenge.run({ ...row, pending_secret: sealed });
    },
    /** The challenge, its pending secret opened. */
    async challenge(tokenHash: Buffer): Promise<DashboardChallengeRow | undefined> {
      const row = await challengeByHash.get(tokenHash);
      if (!row?.pending_secret) return row;
      return { ...row, pending_secret: box.open(row.pending_secret, row.user_id) };
    },
    async challengeFailed(tokenHash: Buffer): Promise<void> {
      await challengeFailed.run(tokenHash);
    },
    /** Counted as a wrong code until this: marks the challenge used and uncounts its last try; false when it was used already. */
    async challengeSucceeded(tokenHash: Buffer, now: number): Promise<boolean> {
      return (await challengeSucceeded.run(now, tokenHash)).changes === 1;
    },
    /** Wrong second-step codes of the user since `since`, over all their challenges. */
    async recentSecondStepFailures(userId: string, since: number): Promise<number> {
      return Number((await failuresOfUser.get(userId, since))?.n ?? 0);
    },
    async purgeChallenges(before: number): Promise<void> {
      await purgeChallenges.run(before);
    },
    /** Sets whether the account's owners must use two-step sign-in. */
    async setOwnersNeedTwoStep(accountId: string, required: boolean): Promise<void> {
      await requireOfOwners.run(required ? 1 : 0, accountId);
    },
    /** Ends the sessions of the account's owners who have no second step: they enrol at their next sign-in. */
    async revokeOwnersWithoutTwoStep(accountId: string, now: number): Promise<number> {
      return (await revokeOwnersWithoutTwoStep.run(now, accountId)).changes;
    },
  };
}

/** What the dashboard's pages read beyond the API's repositories. */
function pageReads(connection: SqlConnection, page: Pager) {
  const ledgerBySource = connection.prepare<LedgerRow>(
    'SELECT * FROM ledger_entries WHERE source_id = ? AND wallet_id = ? ORDER BY seq',
  );
  const attempts = connection.prepare<AttemptRow>(
    'SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY seq',
  );
  const deliveriesOfEvent = connection.prepare<DeliveryRow>(
    'SELECT * FROM webhook_deliveries WHERE event_id = ? ORDER BY seq DESC LIMIT 100',
  );
  // PostgreSQL sums integers as numeric, which its driver hands back as text: cast to an integer.
  const dailyVolumes = connection.prepare<{
    kind: 'payments' | 'payouts';
    currency: string;
    day: number;
    amount: number;
    count: number;
  }>(
    `SELECT kind, currency, day, CAST(SUM(amount) AS BIGINT) AS amount, COUNT(*) AS count FROM (
       SELECT 'payments' AS kind, currency, CAST((created_at - @from) / 86400000 AS INTEGER) AS day, amount FROM payments
        WHERE account_id = @account AND mode = @mode AND status = 'success' AND created_at >= @from
       UNION ALL
       SELECT 'payouts', currency, CAST((created_at - @from) / 86400000 AS INTEGER), amount FROM payouts
        WHERE account_id = @account AND mode = @mode AND status IN ('pending', 'success') AND created_at >= @from) AS movements
     GROUP BY kind, currency, day`,
  );
  // Payments that ended since @from, counted by outcome under one breakdown (a column of
  // payments, or the day): one query per breakdown, whatever the number of days, services or
  // operators. `expired` counts as failed; `initiated` has not ended and is not counted.
  const grouped = (key: string) =>
    `SELECT bucket, CAST(SUM(succeeded) AS INTEGER) AS succeeded, CAST(SUM(failed) AS INTEGER) AS failed FROM (
       SELECT ${key} AS bucket, CASE WHEN status = 'success' THEN 1 ELSE 0 END AS succeeded,
              CASE WHEN status = 'success' THEN 0 ELSE 1 END AS failed FROM payments
        WHERE account_id = @account AND mode = @mode AND created_at >= @from AND status <> 'initiated') AS ended
     GROUP BY bucket`;
  type Outcomes = { bucket: string | number | null; name?: string; succeeded: number; failed: number };
  const outcomes = {
    day: connection.prepare<Outcomes>(
      `${grouped('CAST((created_at - @from) / 86400000 AS INTEGER)')} ORDER BY bucket`,
    ),
    service: connection.prepare<Outcomes>(
      `SELECT o.bucket, s.name, o.succeeded, o.failed FROM (${grouped('service_id')}) AS o
         JOIN services s ON s.id = o.bucket ORDER BY s.name, o.bucket`,
    ),
    operator: connection.prepare<Outcomes>(`${grouped('payment_method')} ORDER BY bucket`),
  };

  // Counted per endpoint first, then joined: PostgreSQL allows `e.*` beside a GROUP BY only on a
  // primary key, and the endpoints' is `seq`.
  const failingEndpoints = connection.prepare<
    WebhookEndpointRow & { failing: number; last_failure_at: number | null; last_error: string | null }
  >(
    `SELECT e.*, f.failing, f.last_failure_at,
            (SELECT last_error FROM webhook_deliveries l WHERE l.endpoint_id = e.id AND l.last_error IS NOT NULL
              ORDER BY l.last_attempt_at DESC LIMIT 1) AS last_error
       FROM webhook_endpoints e JOIN (
            SELECT d.endpoint_id, COUNT(d.id) AS failing, MAX(d.last_attempt_at) AS last_failure_at
              FROM webhook_deliveries d JOIN webhook_endpoints de ON de.id = d.endpoint_id
             WHERE de.account_id = @account AND de.mode = @mode AND de.deleted_at IS NULL AND d.created_at >= @since
               AND (d.status = 'failed' OR (d.status = 'pending' AND d.attempts > 0))
             GROUP BY d.endpoint_id) AS f ON f.endpoint_id = e.id
      ORDER BY f.failing DESC LIMIT 20`,
  );

  // Successful payments per service and currency in a period: the services page's volumes.
  const serviceVolumes = connection.prepare<{
    service_id: string;
    currency: string;
    count: number;
    amount: number;
  }>(
    `SELECT service_id, currency, CAST(COUNT(*) AS INTEGER) AS count, CAST(SUM(amount) AS BIGINT) AS amount
       FROM payments
      WHERE account_id = @account AND mode = @mode AND status = 'success'
        AND created_at >= @from AND created_at < @to AND service_id IS NOT NULL
      GROUP BY service_id, currency`,
  );
  // Every service of an account, the deleted ones too: names to show for the ids of any list.
  const servicesOfAccount = connection.prepare<ServiceRow>(
    'SELECT * FROM services WHERE account_id = ? AND mode = ? ORDER BY name, seq LIMIT 1000',
  );

  return {
    async serviceVolumes(accountId: string, mode: Mode, from: number, to: number) {
      const rows = await serviceVolumes.all({ account: accountId, mode, from, to });
      return rows.map((r) => ({ ...r, count: Number(r.count), amount: Number(r.amount) }));
    },
    async servicesOfAccount(accountId: string, mode: Mode): Promise<ServiceRow[]> {
      return servicesOfAccount.all(accountId, mode);
    },
    async ledgerOfSource(walletId: string, sourceId: string): Promise<LedgerRow[]> {
      return ledgerBySource.all(sourceId, walletId);
    },
    async attempts(deliveryId: string): Promise<AttemptRow[]> {
      return attempts.all(deliveryId);
    },
    async deliveriesOfEvent(eventId: string): Promise<DeliveryRow[]> {
      return deliveriesOfEvent.all(eventId);
    },
    async deliveriesOfEndpoint(endpointId: string, request: PageRequest) {
      return page<DeliveryRow>('webhook_deliveries', [['endpoint_id = ?', endpointId]], request);
    },
    async dailyVolumes(accountId: string, mode: Mode, from: number) {
      return dailyVolumes.all({ account: accountId, mode, from });
    },
    /** Payments ended since `from` by outcome, per day (from `from`), service or operator. */
    async paymentOutcomes(accountId: string, mode: Mode, from: number, by: keyof typeof outcomes) {
      const rows = await outcomes[by].all({ account: accountId, mode, from });
      return rows.map((r) => ({
        key: r.bucket,
        name: r.name ?? null,
        succeeded: Number(r.succeeded),
        failed: Number(r.failed),
      }));
    },
    async failingEndpoints(accountId: string, mode: Mode, since: number) {
      return failingEndpoints.all({ account: accountId, mode, since });
    },
  };
}
