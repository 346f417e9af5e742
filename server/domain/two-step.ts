/**
 * Two-step sign-in (docs/decisions/0045-two-step-sign-in.md): a time-based code (TOTP, an
 * authenticator app) after the password, for any user who turns it on, and for every owner of
 * an account that requires it. Every code is checked against a challenge: a row between a right
 * password and a session (kept by a cookie), or between a signed-in user's page and their form
 * (carried by the form) when they turn it on or off or get new recovery codes. A challenge
 * takes five wrong codes, a user ten in fifteen minutes over all their challenges; a code is
 * accepted once, a recovery code once.
 */
import { createHash } from 'node:crypto';
import type { DashboardChallengeRow, DashboardUserRow } from '../storage/rows.js';
import type { Store, Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import type { Deps } from './context.js';
import { newToken, type OpenSession, openSession, type SignedIn, tokenHash } from './dashboard-users.js';
import { matchingStep, newRecoveryCodes, newTotpSecret, recoveryCodeKey } from './totp.js';
import { storeAt, write } from './write.js';

/** A challenge is answered within this time... */
export const challengeLifetimeMs = 10 * 60 * 1000;
/** ...and takes this many wrong codes; after that the user signs in again. */
const maxWrongCodesPerChallenge = 5;
/** Wrong codes of one user over all their challenges, in `userWindowMs`, before any is refused. */
const maxWrongCodesPerUser = 10;
const userWindowMs = 15 * 60 * 1000;

/** What comes after a right password: a session, or a challenge of the second step. */
export type SessionStart =
  | { session: OpenSession; user: DashboardUserRow }
  | { challenge: string; kind: DashboardChallengeRow['kind']; user: DashboardUserRow };

/**
 * After a right password (sign-in, or a first password from an invitation): a session when the
 * user has no second step and needs none; otherwise a challenge, `code` for a user who has
 * turned two-step sign-in on, `enrol` for an owner whose account requires it and who has not.
 * `next` is kept with the challenge, for the page after it.
 */
export async function beginSession(
  deps: Deps,
  user: DashboardUserRow,
  next: string | null,
): Promise<SessionStart> {
  const now = deps.clock.now();
  const account = await deps.store.read(async (tx) => tx.accounts.account(user.account_id));
  const required = user.role === 'owner' && account?.owners_need_two_step === 1;
  if (user.totp_enabled_at === null && !required) {
    return { session: await openSession(deps, user.id, now), user };
  }
  const kind = user.totp_enabled_at === null ? 'enrol' : 'code';
  return { challenge: (await newChallenge(deps, user.id, kind, next)).challenge, kind, user };
}

/**
 * A challenge for the signed-in user's two-step page: `enrol` (with the secret to show) while it
 * is off, `code` once it is on.
 */
export async function pageChallenge(
  deps: Deps,
  user: DashboardUserRow,
): Promise<{ challenge: string; secret: string | null }> {
  return newChallenge(deps, user.id, user.totp_enabled_at === null ? 'enrol' : 'code', null);
}

async function newChallenge(
  deps: Deps,
  userId: string,
  kind: DashboardChallengeRow['kind'],
  next: string | null,
): Promise<{ challenge: string; secret: string | null }> {
  const token = newToken();
  const now = deps.clock.now();
  const secret = kind === 'enrol' ? newTotpSecret() : null;
  await write(deps, insertChallenge, {
    token_hash: tokenHash(token),
    user_id: userId,
    kind,
    pending_secret: secret,
    next,
    created_at: now,
    expires_at: now + challengeLifetimeMs,
  });
  return { challenge: token, secret };
}

/**
 * A new challenge; those expired for longer than the user's window are deleted on the way (an
 * expired challenge's wrong codes still count towards its user's lock until then).
 */
const insertChallenge = defineUnit(
  import.meta.url,
  'dashboard.insert-challenge',
  async (tx, row: Omit<DashboardChallengeRow, 'failures' | 'used_at'>): Promise<void> => {
    await tx.dashboard.purgeChallenges(row.created_at - userWindowMs);
    await tx.dashboard.insertChallenge(row);
  },
);

/** An open challenge and its user, for its page: undefined once used, expired or out of tries. */
export async function findChallenge(
  deps: Deps,
  token: string,
): Promise<{ challenge: DashboardChallengeRow; user: DashboardUserRow } | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const now = deps.clock.now();
  return deps.store.read(async (tx) => {
    const challenge = await tx.dashboard.challenge(tokenHash(token));
    if (!challenge || !isOpen(challenge, now)) return undefined;
    const user = await tx.dashboard.user(challenge.user_id);
    return user && { challenge, user };
  });
}

const isOpen = (challenge: DashboardChallengeRow, now: number) =>
  challenge.used_at === null && challenge.expires_at > now && challenge.failures < maxWrongCodesPerChallenge;

/**
 * What answering a challenge does once its code is right:
 * - `sign-in`: nothing more (the caller opens the session);
 * - `enrol`: turns two-step sign-in on with the challenge's secret and gives recovery codes;
 * - `disable`: turns it off (refused for an owner whose account requires it);
 * - `recovery-codes`: replaces the recovery codes.
 */
export type ChallengeAction = 'sign-in' | 'enrol' | 'disable' | 'recovery-codes';

/**
 * `wrong`: not the code (tries are left); `spent`: the challenge is used, expired, out of tries
 * or not this user's; `locked`: the user had too many wrong codes lately; `required`: an owner
 * may not turn off what their account requires.
 */
export type ChallengeOutcome =
  | { ok: true; user: DashboardUserRow; next: string | null; recoveryCodes?: string[]; session?: OpenSession }
  | { ok: false; problem: 'wrong' | 'spent' | 'locked' | 'required' };

/**
 * Answers a challenge with a code (or, where a code of the app is asked, a recovery code).
 * `signedIn`: the user of the page that carried it (their challenge only; turning it on ends
 * their other sessions). Without, this is the sign-in's second step: a right code opens a session.
 */
export async function answerChallenge(
  deps: Deps,
  input: { token: string; code: string; action: ChallengeAction; signedIn?: SignedIn },
): Promise<ChallengeOutcome> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(input.token)) return { ok: false, problem: 'spent' };
  const codes = input.action === 'enrol' || input.action === 'recovery-codes' ? newRecoveryCodes() : [];
  const now = deps.clock.now();
  const result = await write(deps, answer, {
    tokenHash: tokenHash(input.token),
    code: input.code.slice(0, 64),
    action: input.action,
    userId: input.signedIn?.user.id ?? null,
    keepSession: input.signedIn?.tokenHash ?? null,
    recoveryHashes: codes.map(recoveryCodeHash),
    now,
  });
  deps.logger.info(
    {
      event: 'dashboard_two_step',
      action: input.action,
      user: 'user' in result ? result.user.id : undefined,
      outcome: result.outcome,
    },
    'dashboard two-step code checked',
  );
  if (result.outcome !== 'ok') return { ok: false, problem: result.outcome };
  const user = result.user;
  const session = input.signedIn ? undefined : await openSession(deps, user.id, deps.clock.now());
  return {
    ok: true,
    user,
    next: result.next,
    ...(codes.length ? { recoveryCodes: codes } : {}),
    ...(session ? { session } : {}),
  };
}

const recoveryCodeHash = (code: string) =>
  createHash('sha256')
    .update(recoveryCodeKey(code) ?? code)
    .digest();

type AnswerResult =
  | { outcome: 'ok'; user: DashboardUserRow; next: string | null }
  | { outcome: 'wrong'; user: DashboardUserRow }
  | { outcome: 'spent' | 'locked' | 'required' };

/**
 * Checks a code against a challenge in one transaction with its counts: the wrong code is
 * counted before the code is compared (so codes sent at once cannot all pass the limit) and
 * uncounted when right; a code refused by the user's lock is not counted, so a lock never
 * extends itself.
 */
const answer = defineUnit(
  import.meta.url,
  'dashboard.answer-challenge',
  async (
    tx,
    a: {
      tokenHash: Buffer;
      code: string;
      action: ChallengeAction;
      userId: string | null;
      keepSession: Buffer | null;
      recoveryHashes: Buffer[];
      now: number;
    },
  ): Promise<AnswerResult> => {
    const challenge = await tx.dashboard.challenge(a.tokenHash);
    const wantedKind = a.action === 'enrol' ? 'enrol' : 'code';
    if (
      !challenge ||
      !isOpen(challenge, a.now) ||
      challenge.kind !== wantedKind ||
      (a.userId !== null && challenge.user_id !== a.userId) ||
      (a.userId === null && a.action !== 'sign-in' && a.action !== 'enrol')
    ) {
      return { outcome: 'spent' };
    }
    const user = await tx.dashboard.user(challenge.user_id);
    if (!user) return { outcome: 'spent' };
    if (a.action === 'disable' && (await ownersMust(tx, user))) return { outcome: 'required' };
    if (
      (await tx.dashboard.recentSecondStepFailures(user.id, a.now - userWindowMs)) >= maxWrongCodesPerUser
    ) {
      return { outcome: 'locked' };
    }
    await tx.dashboard.challengeFailed(a.tokenHash);
    // Enrolling: a code of the secret being shown; its step is stored as the last one taken.
    const enrolStep =
      challenge.kind === 'enrol'
        ? matchingStep(challenge.pending_secret as string, a.code, a.now, null)
        : undefined;
    const right =
      challenge.kind === 'enrol' ? enrolStep !== undefined : await userCodeIsRight(tx, user, a.code, a.now);
    if (!right) return { outcome: 'wrong', user };
    if (!(await tx.dashboard.challengeSucceeded(a.tokenHash, a.now))) return { outcome: 'spent' };
    if (a.action === 'enrol') {
      await tx.dashboard.enableTwoStep(
        user.id,
        challenge.pending_secret as string,
        enrolStep as number,
        a.now,
      );
      await tx.dashboard.replaceRecoveryCodes(user.id, a.recoveryHashes, a.now);
      if (a.keepSession) await tx.dashboard.revokeOtherSessions(user.id, a.keepSession, a.now);
    } else if (a.action === 'disable') {
      await tx.dashboard.disableTwoStep(user.id);
    } else if (a.action === 'recovery-codes') {
      await tx.dashboard.replaceRecoveryCodes(user.id, a.recoveryHashes, a.now);
    }
    return { outcome: 'ok', user, next: challenge.next };
  },
);

/**
 * Whether the code is one of the user's: a code of their app not taken before (its step is
 * recorded), or one of their unused recovery codes (spent by this).
 */
async function userCodeIsRight(tx: Tx, user: DashboardUserRow, code: string, now: number): Promise<boolean> {
  const secret = await tx.dashboard.twoStepSecret(user.id);
  if (!secret) return false;
  const step = matchingStep(secret, code, now, user.totp_last_step);
  if (step !== undefined) return tx.dashboard.acceptTotpStep(user.id, step);
  return (
    recoveryCodeKey(code) !== undefined && tx.dashboard.useRecoveryCode(user.id, recoveryCodeHash(code), now)
  );
}

async function ownersMust(tx: Tx, user: DashboardUserRow): Promise<boolean> {
  if (user.role !== 'owner') return false;
  return (await tx.accounts.account(user.account_id))?.owners_need_two_step === 1;
}

/** The user as stored now (their page may follow a change of it), and their recovery codes left: one read. */
export async function twoStepStatus(
  deps: Deps,
  userId: string,
): Promise<{ user: DashboardUserRow; codesLeft: number } | undefined> {
  return deps.store.read(async (tx) => {
    const user = await tx.dashboard.user(userId);
    return user && { user, codesLeft: await tx.dashboard.recoveryCodesLeft(userId) };
  });
}

/**
 * An owner requires (or stops requiring) two-step sign-in of every owner of the account. To
 * require it, they must have it on themselves; the sessions of owners without it end, and they
 * turn it on at their next sign-in.
 */
export async function requireOfOwners(
  deps: Deps,
  signedIn: SignedIn,
  required: boolean,
): Promise<{ ok: true; signedOut: number } | { ok: false; problem: 'own_first' }> {
  if (required && signedIn.user.totp_enabled_at === null) return { ok: false, problem: 'own_first' };
  const signedOut = await write(deps, setRequirement, {
    accountId: signedIn.account.id,
    required,
    now: deps.clock.now(),
  });
  return { ok: true, signedOut };
}

const setRequirement = defineUnit(
  import.meta.url,
  'dashboard.require-two-step',
  async (tx, a: { accountId: string; required: boolean; now: number }): Promise<number> => {
    await tx.dashboard.setOwnersNeedTwoStep(a.accountId, a.required);
    return a.required ? tx.dashboard.revokeOwnersWithoutTwoStep(a.accountId, a.now) : 0;
  },
);

/**
 * For a user who lost both their phone and their recovery codes: an administrator turns
 * two-step sign-in off (`npm run admin -- reset-two-step <email>`) and their sessions end.
 * An owner whose account requires it sets it up again at their next sign-in.
 */
export async function resetTwoStep(store: Store, email: string, now: number) {
  return write(storeAt(store, now), resetUserTwoStep, { email: email.trim().toLowerCase(), now });
}

const resetUserTwoStep = defineUnit(
  import.meta.url,
  'dashboard.reset-two-step',
  async (tx, a: { email: string; now: number }): Promise<DashboardUserRow | undefined> => {
    const user = await tx.dashboard.userByEmail(a.email);
    if (!user) return undefined;
    await tx.dashboard.disableTwoStep(user.id);
    await tx.dashboard.revokeUserSessions(user.id, a.now);
    return user;
  },
);
