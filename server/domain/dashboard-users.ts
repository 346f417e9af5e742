/**
 * Dashboard users and their sessions: passwords hashed with scrypt (memory-hard, per-user
 * salt), server-side sessions with an idle and an absolute end, one-time links for invitations
 * and first passwords, and sign-in attempts that are logged and rate limited.
 * No Express here: the web layer in server/dashboard/ turns these into cookies and pages.
 */
import { createHash, randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { apiPermissionValues } from '../../generated/openapi.js';
import type {
  AccountRow,
  DashboardLinkPurpose,
  DashboardRole,
  DashboardSessionRow,
  DashboardUserRow,
  NewDashboardUserRow,
} from '../storage/rows.js';
import type { Store, Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';
import { ApiError } from './errors.js';
import { busy, HashSlots } from './hash-slots.js';
import { newId } from './ids.js';
import { type PasswordProblem, passwordProblem, passwordProblemText } from './passwords.js';
import { storeAt, write } from './write.js';

/** Sessions end after this long without a request... */
/** Why a one-time link did not set a password: a password problem, a spent link, or no hashing slot free. */
export type LinkProblem = PasswordProblem | 'link_used' | 'busy';

export const sessionIdleMs = 30 * 60 * 1000;
/** ...and this long after sign-in, whatever the activity. */
export const sessionAbsoluteMs = 12 * 60 * 60 * 1000;
/** Invitation and set-password links work once, within this time. */
const linkLifetimeMs = 7 * 24 * 60 * 60 * 1000;
/** A reset link works once, within this time, until a newer one or a password change. */
export const resetLinkLifetimeMs = 30 * 60 * 1000;
/** Reset requests counted over this window... */
const resetWindowMs = 60 * 60 * 1000;
/** ...refuse further requests for one email (from any address) after this many, */
export const maxResetsPerEmail = 3;
/** ...and from one client address (for any email) after this many. */
const maxResetsPerClient = 10;
/** Reset requests are kept this long, then deleted. */
const resetRecordsKeptMs = 24 * 60 * 60 * 1000;
/** Sign-in failures counted over this window... */
const signInWindowMs = 15 * 60 * 1000;
/** ...refuse further attempts for one email from one client address after this many, */
export const maxFailuresPerPair = 5;
/** ...and from one client address after this many. */
const maxFailuresPerClient = 20;
/** Sign-in attempts are kept this long, then deleted. */
const signInRecordsKeptMs = 30 * 24 * 60 * 60 * 1000;

// N = 2^15, r = 8: 32 MiB and about 0.1 s per hash, so a stolen database resists guessing.
const scryptParams: ScryptOptions = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const hashLength = 32;

/** A dashboard user's role does not allow what they asked: `403 permission_denied`, as a key's role is refused. */
export function notAllowed(message: string): ApiError {
  return new ApiError(403, 'permission_denied', message);
}

export const roles: readonly DashboardRole[] = ['owner', 'developer', 'viewer'];

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, hashLength, scryptParams, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

async function hashPassword(password: string): Promise<{ hash: Buffer; salt: Buffer }> {
  const salt = randomBytes(16);
  return { hash: await scryptAsync(password, salt), salt };
}

async function passwordMatches(user: DashboardUserRow | undefined, password: string): Promise<boolean> {
  // An unknown email costs the same hash as a known one, so timing does not reveal who exists.
  const salt = user?.password_salt ?? Buffer.alloc(16);
  const computed = await scryptAsync(password, salt);
  if (!user?.password_hash) return false;
  return timingSafeEqual(computed, user.password_hash);
}

export const tokenHash = (token: string) => createHash('sha256').update(token).digest();
export const newToken = () => randomBytes(32).toString('base64url');

function normaliseEmail(input: string): string | null {
  const email = input.trim().toLowerCase();
  return /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}\.[a-z0-9-]{2,}$/.test(email) ? email : null;
}

export interface NewDashboardUser {
  user: DashboardUserRow;
  /** The one-time link's token when no password was given. */
  linkToken: string | null;
}

/**
 * Creates a dashboard user of an account. With a password, they can sign in at once; without,
 * they get a one-time link (shown or printed: no mail is sent) to choose one.
 *
 * @example
 * const { linkToken } = await createDashboardUser(store, { accountId, email: 'ops@shop.cm', role: 'owner' }, Date.now());
 */
export async function createDashboardUser(
  store: Store,
  input: { accountId: string; email: string; role: DashboardRole; password?: string; invitedBy?: string },
  now: number,
): Promise<NewDashboardUser> {
  const email = normaliseEmail(input.email);
  if (!email) throw new ApiError(400, 'invalid_field', 'Enter a valid email address.', { param: 'email' });
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem)
      throw new ApiError(400, 'invalid_field', passwordProblemText(problem), { param: 'password' });
  }
  const secret = input.password === undefined ? null : await hashPassword(input.password);
  const id = newId('usr');
  const linkToken = secret ? null : newToken();
  const user = await write(storeAt(store, now), insertUser, {
    row: {
      id,
      account_id: input.accountId,
      email,
      role: input.role,
      password_hash: secret?.hash ?? null,
      password_salt: secret?.salt ?? null,
      created_at: now,
      invited_by: input.invitedBy ?? null,
    },
    link: linkToken ? { tokenHash: tokenHash(linkToken), expiresAt: now + linkLifetimeMs } : null,
    // An invitation never says whether the email is another account's (no account discovery).
    conceal: input.invitedBy !== undefined,
  });
  return { user: shown(user), linkToken };
}

/**
 * How an invitation to an email that another account's user has is stored: a user of the
 * inviting account that can never sign in (no email matches it), so the inviter sees what a
 * fresh email gives, an invited user and a link; the link's page refuses it as a used link.
 */
const concealedPrefix = /^concealed:[^:]+:/;

/** A user as pages show them: a concealed invitation under the email it was sent to. */
function shown(user: DashboardUserRow): DashboardUserRow {
  return concealedPrefix.test(user.email)
    ? { ...user, email: user.email.replace(concealedPrefix, '') }
    : user;
}

/**
 * A new user, with their one-time link when they have no password yet; refused for an email of
 * the same account, and, unless `conceal`, for one of another account.
 */
const insertUser = defineUnit(
  import.meta.url,
  'dashboard.insert-user',
  async (
    tx,
    a: {
      row: NewDashboardUserRow;
      link: { tokenHash: Buffer; expiresAt: number } | null;
      conceal: boolean;
    },
  ): Promise<DashboardUserRow> => {
    const existing = await tx.dashboard.userByEmail(a.row.email);
    const concealed = (await tx.dashboard.usersOfAccount(a.row.account_id)).some(
      (user) => shown(user).email === a.row.email,
    );
    if ((existing && (!a.conceal || existing.account_id === a.row.account_id)) || concealed) {
      throw new ApiError(
        409,
        'invalid_field',
        `A dashboard user with the email ${a.row.email} already exists.`,
        { param: 'email' },
      );
    }
    const row = existing ? { ...a.row, email: `concealed:${a.row.id}:${a.row.email}` } : a.row;
    await tx.dashboard.insertUser(row);
    if (a.link) await tx.dashboard.insertLink(a.link.tokenHash, a.row.id, a.row.created_at, a.link.expiresAt);
    return (await tx.dashboard.user(a.row.id)) as DashboardUserRow;
  },
);

export interface OpenSession {
  token: string;
  csrfToken: string;
  expiresAt: number;
}

/** A new session of the user: what a right password, and a second step where there is one, end in (server/domain/two-step.ts). */
export async function openSession(deps: Deps, userId: string, now: number): Promise<OpenSession> {
  const token = newToken();
  const csrfToken = newToken();
  const expiresAt = now + sessionAbsoluteMs;
  await write(deps, insertSession, {
    token_hash: tokenHash(token),
    user_id: userId,
    csrf_token: csrfToken,
    created_at: now,
    last_seen_at: now,
    expires_at: expiresAt,
  });
  return { token, csrfToken, expiresAt };
}

/** A new session; the sessions past their absolute end are deleted on the way. */
const insertSession = defineUnit(
  import.meta.url,
  'dashboard.insert-session',
  async (tx, row: Omit<DashboardSessionRow, 'revoked_at' | 'flash'>): Promise<void> => {
    await tx.dashboard.purgeSessions(row.created_at - sessionAbsoluteMs);
    await tx.dashboard.insertSession(row);
  },
);

/** A right password names the user; `beginSession` (two-step.ts) then opens a session or asks for the second step. */
export type SignInResult =
  | { ok: true; user: DashboardUserRow }
  | { ok: false; reason: 'invalid' | 'locked' | 'busy' };

/** Password hashes of sign-ins and first passwords: two at once, eight waiting, others refused. */
const hashSlots = new HashSlots(2, 8);

/**
 * Checks an email and password (docs/decisions/0031-dashboard-sign-in-and-passwords.md). The
 * attempt is reserved first, counted as a failure, in one transaction with the count it is
 * checked against, so attempts sent at once cannot all pass the limit; only then is the
 * password hashed, in a bounded number of slots (`busy` when none is free), and a right password
 * turns the attempt into a success. Failures are counted per email and client address together
 * (nobody locks an owner out by knowing their email) and per client address; an attempt
 * refused by a lock is not counted, so a lock never extends itself.
 */
export async function signIn(
  deps: Deps,
  input: { email: string; password: string; client: string },
): Promise<SignInResult> {
  const email = normaliseEmail(input.email) ?? input.email.trim().toLowerCase().slice(0, 254);
  const outcome = await hashSlots.run(async () => {
    const now = deps.clock.now();
    const attemptId = newToken();
    const reserved = await write(deps, reserveSignIn, { email, client: input.client, attemptId, now });
    if (!reserved) return { locked: true, matches: false, user: undefined };
    const user = await deps.store.read(async (tx) => tx.dashboard.userByEmail(email));
    const matches = await passwordMatches(user, input.password);
    if (matches) await write(deps, markSignInSucceeded, { attemptId });
    return { locked: false, matches, user };
  });
  if (outcome === busy) {
    deps.logger.warn(
      { event: 'dashboard_sign_in_busy', client: input.client },
      'dashboard sign-in refused: hashes busy',
    );
    return { ok: false, reason: 'busy' };
  }
  const { locked, matches, user } = outcome;
  deps.logger.info(
    { event: 'dashboard_sign_in', email, client: input.client, succeeded: matches, locked },
    'dashboard sign-in attempt',
  );
  if (locked) return { ok: false, reason: 'locked' };
  if (!matches || !user) return { ok: false, reason: 'invalid' };
  return { ok: true, user };
}

/**
 * Reserves a sign-in attempt: false, writing nothing, when the pair or the client address is
 * locked; otherwise records it as a failure. The attempts past their keeping time are deleted
 * on the way.
 */
const reserveSignIn = defineUnit(
  import.meta.url,
  'dashboard.reserve-sign-in',
  async (tx, a: { email: string; client: string; attemptId: string; now: number }): Promise<boolean> => {
    const failures = await tx.dashboard.recentFailures(a.email, a.client, a.now - signInWindowMs);
    if (failures.pair >= maxFailuresPerPair || failures.client >= maxFailuresPerClient) return false;
    await tx.dashboard.recordSignIn(a.email, a.client, a.attemptId, a.now);
    await tx.dashboard.purgeSignIns(a.now - signInRecordsKeptMs);
    return true;
  },
);

const markSignInSucceeded = defineUnit(
  import.meta.url,
  'dashboard.sign-in-succeeded',
  async (tx, a: { attemptId: string }): Promise<void> => tx.dashboard.signInSucceeded(a.attemptId),
);

export interface SignedIn {
  tokenHash: Buffer;
  session: DashboardSessionRow;
  user: DashboardUserRow;
  account: AccountRow;
}

/** The session a cookie names, if it is still valid; refreshes its idle timer. */
export async function resolveSession(deps: Deps, token: string): Promise<SignedIn | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const now = deps.clock.now();
  const hash = tokenHash(token);
  const found = await deps.store.read(async (tx) => {
    const session = await tx.dashboard.session(hash);
    if (!session) return undefined;
    const user = await tx.dashboard.user(session.user_id);
    const account = user ? await tx.accounts.account(user.account_id) : undefined;
    return user && account ? { session, user, account } : undefined;
  });
  if (!found) return undefined;
  const { session } = found;
  if (
    session.revoked_at !== null ||
    session.expires_at <= now ||
    session.last_seen_at + sessionIdleMs <= now
  ) {
    return undefined;
  }
  // One write a minute at most per session, not one per page.
  if (now - session.last_seen_at > 60_000) {
    await write(deps, touchSession, { tokenHash: hash, now });
  }
  return { tokenHash: hash, ...found };
}

const touchSession = defineUnit(
  import.meta.url,
  'dashboard.touch-session',
  async (tx, a: { tokenHash: Buffer; now: number }): Promise<void> =>
    tx.dashboard.touchSession(a.tokenHash, a.now),
);

export async function signOut(deps: Deps, signedIn: SignedIn): Promise<void> {
  await write(deps, revokeSession, { tokenHash: signedIn.tokenHash, now: deps.clock.now() });
}

const revokeSession = defineUnit(
  import.meta.url,
  'dashboard.revoke-session',
  async (tx, a: { tokenHash: Buffer; now: number }): Promise<void> =>
    tx.dashboard.revokeSession(a.tokenHash, a.now),
);

/** Ends every session of the user, on every device. */
export async function signOutEverywhere(deps: Deps, userId: string): Promise<number> {
  return write(deps, revokeUserSessions, { userId, now: deps.clock.now() });
}

/** How many sessions of the user it ended. */
const revokeUserSessions = defineUnit(
  import.meta.url,
  'dashboard.revoke-user-sessions',
  async (tx, a: { userId: string; now: number }): Promise<number> =>
    tx.dashboard.revokeUserSessions(a.userId, a.now),
);

/** A message shown once on the next page (after a redirect). */
export async function setFlash(deps: Deps, signedIn: SignedIn, message: string | null): Promise<void> {
  await write(deps, storeFlash, { tokenHash: signedIn.tokenHash, message });
}

const storeFlash = defineUnit(
  import.meta.url,
  'dashboard.set-flash',
  async (tx, a: { tokenHash: Buffer; message: string | null }): Promise<void> =>
    tx.dashboard.setFlash(a.tokenHash, a.message),
);

/** The user a one-time link of `purpose` is for, while it is unused and unexpired. */
export async function findLink(
  deps: Deps,
  token: string,
  purpose: DashboardLinkPurpose = 'invitation',
): Promise<DashboardUserRow | undefined> {
  const user = await linkUser(deps, token, purpose);
  return user && shown(user);
}

async function linkUser(
  deps: Deps,
  token: string,
  purpose: DashboardLinkPurpose,
): Promise<DashboardUserRow | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const now = deps.clock.now();
  return deps.store.read(async (tx) => {
    const link = await tx.dashboard.link(tokenHash(token));
    if (!link || link.purpose !== purpose || link.used_at !== null || link.expires_at <= now)
      return undefined;
    return tx.dashboard.user(link.user_id);
  });
}

/**
 * Uses a one-time link: sets the user's password and ends their other sessions; the caller then
 * signs them in (`beginSession`). A link already used (a second tab, a replay) fails.
 */
export async function acceptLink(
  deps: Deps,
  token: string,
  password: string,
): Promise<{ ok: true; user: DashboardUserRow } | { ok: false; problem: LinkProblem }> {
  const problem = passwordProblem(password);
  if (problem) return { ok: false, problem };
  const user = await linkUser(deps, token, 'invitation');
  if (!user) return { ok: false, problem: 'link_used' };
  // Hashed in either case below, so the time taken does not tell a concealed invitation apart.
  const hashed = await hashSlots.run(() => hashPassword(password));
  if (hashed === busy) return { ok: false, problem: 'busy' };
  const { hash, salt } = hashed;
  if (concealedPrefix.test(user.email)) {
    // A concealed invitation (another account's email) ends as a link used in another tab does.
    await write(deps, spendLink, { tokenHash: tokenHash(token), now: deps.clock.now() });
    return { ok: false, problem: 'link_used' };
  }
  const now = deps.clock.now();
  const used = await write(deps, useLink, { tokenHash: tokenHash(token), userId: user.id, hash, salt, now });
  if (!used) return { ok: false, problem: 'link_used' };
  return { ok: true, user };
}

/**
 * Marks a one-time link used, sets its user's password, ends their sessions and spends their
 * other links (a password change ends every reset link); false, with nothing written, when the
 * link was already used.
 */
const useLink = defineUnit(
  import.meta.url,
  'dashboard.use-link',
  async (
    tx,
    a: { tokenHash: Buffer; userId: string; hash: Buffer; salt: Buffer; now: number },
  ): Promise<boolean> => {
    if (!(await tx.dashboard.useLink(a.tokenHash, a.now))) return false;
    await tx.dashboard.setPassword(a.userId, a.hash, a.salt);
    await tx.dashboard.revokeUserSessions(a.userId, a.now);
    await tx.dashboard.spendUserLinks(a.userId, a.now);
    return true;
  },
);

/**
 * A reset link for the user of `email`, printed by `npm run admin -- reset-link` or mailed;
 * undefined when no user has that email. It spends the user's earlier reset links.
 */
export async function createResetLink(
  store: Store,
  email: string,
  now: number,
): Promise<{ user: DashboardUserRow; token: string } | undefined> {
  const token = newToken();
  const address = normaliseEmail(email) ?? email.trim().toLowerCase();
  const user = await write(storeAt(store, now), insertResetLink, {
    email: address,
    tokenHash: tokenHash(token),
    now,
  });
  return user && { user, token };
}

/** A new reset link for the user, in a unit of work: their earlier unused ones are spent. */
async function replaceResetLinks(tx: Tx, userId: string, hash: Buffer, now: number): Promise<void> {
  for (const link of await tx.dashboard.unusedResetLinks(userId)) await tx.dashboard.useLink(link, now);
  await tx.dashboard.insertLink(hash, userId, now, now + resetLinkLifetimeMs, 'reset');
}

/** The reset link, when the email is a user's; the user's earlier unused reset links are spent. */
const insertResetLink = defineUnit(
  import.meta.url,
  'dashboard.insert-reset-link',
  async (tx, a: { email: string; tokenHash: Buffer; now: number }): Promise<DashboardUserRow | undefined> => {
    const user = await tx.dashboard.userByEmail(a.email);
    if (user) await replaceResetLinks(tx, user.id, a.tokenHash, a.now);
    return user;
  },
);

export type ResetRequest =
  | { ok: true; sent?: { email: string; token: string } }
  | { ok: false; reason: 'locked' };

/**
 * Someone asks for a reset link by email, on the sign-in page. The answer never says whether
 * the email is a user's: the request is counted and checked against its limits (per email, per
 * client address) in one transaction that also writes the link when there is a user, so both
 * cases cost one transaction; the caller sends the mail after answering. `sent` is what to mail.
 */
export async function requestReset(
  deps: Deps,
  input: { email: string; client: string },
): Promise<ResetRequest> {
  const email = normaliseEmail(input.email) ?? input.email.trim().toLowerCase().slice(0, 254);
  const token = newToken();
  const outcome = await write(deps, reserveReset, {
    email,
    client: input.client,
    tokenHash: tokenHash(token),
    now: deps.clock.now(),
  });
  deps.logger.info(
    { event: 'dashboard_reset_request', client: input.client, locked: outcome === 'locked' },
    'dashboard password reset requested',
  );
  if (outcome === 'locked') return { ok: false, reason: 'locked' };
  return outcome === 'sent' ? { ok: true, sent: { email, token } } : { ok: true };
}

const reserveReset = defineUnit(
  import.meta.url,
  'dashboard.request-reset',
  async (
    tx,
    a: { email: string; client: string; tokenHash: Buffer; now: number },
  ): Promise<'locked' | 'sent' | 'nobody'> => {
    const recent = await tx.dashboard.recentResetRequests(a.email, a.client, a.now - resetWindowMs);
    if (recent.email >= maxResetsPerEmail || recent.client >= maxResetsPerClient) return 'locked';
    await tx.dashboard.recordResetRequest(a.email, a.client, a.now);
    await tx.dashboard.purgeResetRequests(a.now - resetRecordsKeptMs);
    const user = await tx.dashboard.userByEmail(a.email);
    if (!user) return 'nobody';
    await replaceResetLinks(tx, user.id, a.tokenHash, a.now);
    return 'sent';
  },
);

/**
 * Uses a reset link: sets the new password (the rules of a first password), ends every session
 * of the user and spends the link and the user's other links; the user then signs in anew.
 */
export async function resetPassword(
  deps: Deps,
  token: string,
  password: string,
): Promise<{ ok: true; user: DashboardUserRow } | { ok: false; problem: LinkProblem }> {
  const problem = passwordProblem(password);
  if (problem) return { ok: false, problem };
  const user = await linkUser(deps, token, 'reset');
  if (!user) return { ok: false, problem: 'link_used' };
  const hashed = await hashSlots.run(() => hashPassword(password));
  if (hashed === busy) return { ok: false, problem: 'busy' };
  const now = deps.clock.now();
  const used = await write(deps, useLink, { tokenHash: tokenHash(token), userId: user.id, ...hashed, now });
  if (!used) return { ok: false, problem: 'link_used' };
  return { ok: true, user };
}

/** Marks a one-time link used, and nothing else. */
const spendLink = defineUnit(
  import.meta.url,
  'dashboard.spend-link',
  async (tx, a: { tokenHash: Buffer; now: number }): Promise<void> => {
    await tx.dashboard.useLink(a.tokenHash, a.now);
  },
);

/** The account owner invites a teammate: a user without password, and their one-time link. */
export async function inviteUser(
  deps: Deps,
  inviter: DashboardUserRow,
  input: { email: string; role: string },
): Promise<NewDashboardUser> {
  if (inviter.role !== 'owner') {
    throw notAllowed('Only an owner can invite users.');
  }
  if (!(roles as readonly string[]).includes(input.role)) {
    throw new ApiError(400, 'invalid_field', 'Choose a role: owner, developer or viewer.', { param: 'role' });
  }
  return createDashboardUser(
    deps.store,
    {
      accountId: inviter.account_id,
      email: input.email,
      role: input.role as DashboardRole,
      invitedBy: inviter.id,
    },
    deps.clock.now(),
  );
}

export async function listUsers(deps: Deps, accountId: string): Promise<DashboardUserRow[]> {
  return (await deps.store.read(async (tx) => tx.dashboard.usersOfAccount(accountId))).map(shown);
}

/** The API caller a dashboard user acts as in one mode: same account, same rules as a key. */
export async function callerFor(deps: Deps, signedIn: SignedIn, mode: 'test' | 'live'): Promise<Caller> {
  const wallet = await deps.store.read(async (tx) => tx.accounts.wallet(signedIn.account.id, mode));
  if (!wallet) throw new Error(`account ${signedIn.account.id} has no ${mode} wallet`);
  return {
    accountId: signedIn.account.id,
    mode,
    // No key: the call log names the dashboard user instead.
    keyId: '',
    walletId: wallet.id,
    defaultCurrency: signedIn.account.default_currency,
    // The dashboard's own roles decide what its user may do (server/dashboard/auth.ts).
    role: 'full',
    permissions: apiPermissionValues,
  };
}
