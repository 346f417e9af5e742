import { hash as digest, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ApiKey } from '../../generated/openapi.js';
import type { ApiKeyRow, KeyRole, Mode, NewAccountRow, WalletRow } from '../storage/rows.js';
import type { Store, Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound, permissionDenied } from './errors.js';
import { newId, randomBase62 } from './ids.js';
import { maxWorkingKeys, permissionsOf } from './key-roles.js';
import type { VerifiedKeys } from './verified-keys.js';
import { type Answer, storeAt, write } from './write.js';

const keyPattern = /^sk_(live|test)_[0-9A-Za-z]{32}$/;

/**
 * Keys are 190 random bits, so a plain SHA-256 is a safe one-way store for them. As base64 text
 * in one call (crypto.hash, cheaper than createHash and toString; docs/performance.md): authentication
 * needs the text on every request, as its cache's key, and the bytes only on a cache miss.
 */
function keyDigest(key: string): string {
  return digest('sha256', key, 'base64');
}

/** The bytes stored for a key (api_keys.key_hash). */
function hashKey(key: string): Buffer {
  return Buffer.from(keyDigest(key), 'base64');
}

function newSecretKey(mode: Mode): string {
  return `sk_${mode}_${randomBase62(32)}`;
}

/** A key's row as it is inserted: the database adds the rest. */
type NewKeyRow = Omit<ApiKeyRow, 'seq' | 'expires_at' | 'revoked_at'>;

/**
 * A new key: its secret, shown once, and the row that keeps only its hash. Chosen before the
 * unit that stores it runs, since a unit may run more than once (server/storage/unit.ts).
 */
interface NewKey {
  secret: string;
  row: NewKeyRow;
}

function newKey(accountId: string, mode: Mode, now: number, role: KeyRole = 'full'): NewKey {
  const secret = newSecretKey(mode);
  return {
    secret,
    row: {
      id: newId('key'),
      account_id: accountId,
      mode,
      key_hash: hashKey(secret),
      last4: secret.slice(-4),
      role,
      created_at: now,
    },
  };
}

export interface NewAccount {
  accountId: string;
  apiUser: string;
  testKey: string;
  liveKey: string;
}

/**
 * Creates an account with its API user, a test and a live key, and a wallet per mode. The keys
 * are returned once and only their hashes are kept.
 *
 * @example
 * const { apiUser, testKey } = await createAccount(store, { name: 'Boutique Akwa' }, Date.now());
 */
export async function createAccount(
  store: Store,
  input: { name: string; defaultCurrency?: string },
  now: number,
): Promise<NewAccount> {
  const account = newAccount(input, now);
  await write(storeAt(store, now), insertAccount, { ...account.rows, onlyFirst: false });
  return account.created;
}

/**
 * The first start's sandbox account: created only when the database has no account yet, in the
 * same transaction as that check, so instances starting together on one PostgreSQL database
 * create one between them (the loser of the race is re-run and finds it). Undefined when an
 * account already existed.
 */
export async function createFirstAccount(
  store: Store,
  input: { name: string },
  now: number,
): Promise<NewAccount | undefined> {
  const account = newAccount(input, now);
  const created = await write(storeAt(store, now), insertAccount, { ...account.rows, onlyFirst: true });
  return created ? account.created : undefined;
}

interface AccountRows {
  account: NewAccountRow;
  wallets: WalletRow[];
  keys: NewKeyRow[];
}

/** A new account's rows, and what its creator is shown once (the keys' secrets stay here). */
function newAccount(
  input: { name: string; defaultCurrency?: string },
  now: number,
): { rows: AccountRows; created: NewAccount } {
  const accountId = newId('acct');
  const apiUser = randomUUID();
  const testKey = newKey(accountId, 'test', now);
  const liveKey = newKey(accountId, 'live', now);
  return {
    rows: {
      account: {
        id: accountId,
        name: input.name,
        api_user: apiUser,
        default_currency: input.defaultCurrency ?? 'XAF',
        // Cameroon's: the dashboard shows times in it (decision 0036).
        time_zone: 'Africa/Douala',
        created_at: now,
      },
      wallets: (['test', 'live'] as const).map((mode) => ({ id: newId('wal'), account_id: accountId, mode })),
      keys: [testKey.row, liveKey.row],
    },
    created: { accountId, apiUser, testKey: testKey.secret, liveKey: liveKey.secret },
  };
}

/**
 * Writes an account, its wallets and keys; with `onlyFirst`, only when the database has no
 * account yet. Whether it wrote them.
 */
const insertAccount = defineUnit(
  import.meta.url,
  'accounts.insert',
  async (tx, a: AccountRows & { onlyFirst: boolean }): Promise<boolean> => {
    if (a.onlyFirst && (await tx.accounts.firstAccount())) return false;
    await tx.accounts.insertAccount(a.account);
    for (const wallet of a.wallets) await tx.accounts.insertWallet(wallet);
    for (const key of a.keys) await tx.accounts.insertKey(key);
    return true;
  },
);

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function keyIsLive(row: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now: number): boolean {
  if (row.revoked_at !== null && row.revoked_at <= now) return false;
  return row.expires_at === null || row.expires_at > now;
}

/**
 * Resolves the bearer key and the API user header to a caller. Keys are found by their hash;
 * the API user is compared in constant time. With `verified`, a key found before is not looked
 * up again while no key changed since (`Store.keysVersion`).
 */
export async function authenticate(
  store: Store,
  bearerKey: string | undefined,
  apiUser: string | undefined,
  now: number,
  verified?: VerifiedKeys,
): Promise<Caller> {
  if (!bearerKey) {
    throw new ApiError(401, 'missing_api_key', 'Send your secret key as Authorization: Bearer <key>.');
  }
  if (!apiUser)
    throw new ApiError(401, 'missing_api_user', 'Send your API user id in the X-API-User header.');
  // Built only when needed: an Error captures a stack trace, which is not free on every request.
  const invalidKey = () =>
    new ApiError(401, 'invalid_api_key', 'The API key is invalid, revoked or expired.');
  const invalidApiUser = () =>
    new ApiError(401, 'invalid_api_user', 'The X-API-User header does not match the API key.');
  if (!keyPattern.test(bearerKey)) throw invalidKey();
  const cacheKey = keyDigest(bearerKey);
  // Read before the lookup: a key change committed after it moves the version, so what this
  // lookup finds is never trusted past that change.
  const version = verified ? store.keysVersion() : null;
  const hit = version === null ? undefined : verified?.get(cacheKey, version);
  if (hit) {
    if (!keyIsLive({ revoked_at: hit.revokedAt, expires_at: hit.expiresAt }, now)) throw invalidKey();
    if (!sameText(hit.apiUser, apiUser)) throw invalidApiUser();
    return hit.caller;
  }
  const found = await store.read(async (tx) => {
    const key = await tx.accounts.keyByHash(hashKey(bearerKey));
    if (!key || !keyIsLive(key, now)) throw invalidKey();
    const account = await tx.accounts.account(key.account_id);
    const wallet = await tx.accounts.wallet(key.account_id, key.mode);
    if (!account || !wallet) throw invalidKey();
    const caller: Caller = {
      accountId: account.id,
      mode: key.mode,
      keyId: key.id,
      walletId: wallet.id,
      defaultCurrency: account.default_currency,
      role: key.role,
      permissions: permissionsOf(key.role),
    };
    return { caller, apiUser: account.api_user, expiresAt: key.expires_at, revokedAt: key.revoked_at };
  });
  if (version !== null) verified?.set(cacheKey, { ...found, version });
  if (!sameText(found.apiUser, apiUser)) throw invalidApiUser();
  return found.caller;
}

export function keyStatus(row: ApiKeyRow, now: number): ApiKey['status'] {
  if (!keyIsLive(row, now)) return 'revoked';
  return row.expires_at !== null ? 'expiring' : 'active';
}

/**
 * Replaces every key of one mode of an account with a single new one, revoking the old ones at
 * once: what an operator does from the admin CLI when a key has leaked.
 */
export async function resetKeys(store: Store, apiUser: string, mode: Mode, now: number): Promise<string> {
  const account = await store.read((tx) => tx.accounts.accountByApiUser(apiUser));
  if (!account) throw new Error(`No account has the API user ${apiUser}.`);
  const key = newKey(account.id, mode, now);
  await write(storeAt(store, now), replaceKeys, { key: key.row, now });
  return key.secret;
}

/** Revokes every key of the new key's account and mode, and inserts the new key. */
const replaceKeys = defineUnit(
  import.meta.url,
  'keys.replace-all',
  async (tx, a: { key: NewKeyRow; now: number }): Promise<void> => {
    await tx.accounts.revokeAllKeys(a.key.account_id, a.key.mode, a.now);
    await tx.accounts.insertKey(a.key);
  },
);

/** Only an active key manages keys: one in its grace period is on its way out. */
async function requireActiveCaller(tx: Tx, caller: Caller, now: number): Promise<void> {
  const key = await tx.accounts.key(caller.keyId);
  if (!key || !keyIsLive(key, now)) {
    throw new ApiError(401, 'invalid_api_key', 'The API key is invalid, revoked or expired.');
  }
  if (key.expires_at !== null) {
    throw new ApiError(
      403,
      'key_not_active',
      'This key is in its grace period; only an active key can rotate or revoke keys.',
    );
  }
}

export interface Rotation {
  secretKey: string;
  apiKey: ApiKeyRow;
  previousKey: ApiKeyRow;
}

/**
 * The rules of a rotation, whoever asks for it: the new key has the old one's role, and never
 * past the role's working keys (two full keys).
 */
async function rotateInTx(tx: Tx, a: RotationArgs, keyId: string): Promise<Rotation> {
  const { caller, gracePeriodSeconds, now } = a;
  const old = await tx.accounts.key(keyId);
  if (!old) throw new Error('the key to rotate vanished inside its transaction');
  const others = (await tx.accounts.workingKeys(caller.accountId, caller.mode, now)).filter(
    (key) => key.id !== keyId && key.role === old.role,
  );
  const afterwards = others.length + 1 + (gracePeriodSeconds > 0 ? 1 : 0);
  const max = maxWorkingKeys(old.role);
  if (afterwards > max) {
    throw new ApiError(
      409,
      'too_many_active_keys',
      `This mode already has ${max} working ${old.role} keys; revoke ${others.map((k) => k.id).join(', ')} ` +
        'first, or rotate with grace_period_seconds 0.',
    );
  }
  await tx.accounts.insertKey({ ...a.key.row, role: old.role });
  const endsAt = now + gracePeriodSeconds * 1000;
  await tx.accounts.retireKey(keyId, endsAt, gracePeriodSeconds === 0 ? now : null);
  const apiKey = await tx.accounts.key(a.key.row.id);
  const previousKey = await tx.accounts.key(keyId);
  if (!apiKey || !previousKey) throw new Error('rotated keys vanished inside their transaction');
  return { secretKey: a.key.secret, apiKey, previousKey };
}

/**
 * The rules of a revocation, whoever asks for it: never the last working full key of the mode
 * (restricted keys cannot manage keys, so they could not replace it).
 */
async function revokeInTx(tx: Tx, caller: Caller, id: string, now: number): Promise<ApiKeyRow> {
  const key = await ownKey(tx, caller, id);
  if (!keyIsLive(key, now)) return key;
  const working = (await tx.accounts.workingKeys(caller.accountId, caller.mode, now)).filter(
    (other) => other.role === 'full',
  );
  if (key.role === 'full' && working.length <= 1) {
    throw new ApiError(
      409,
      'last_active_key',
      `${id} is the last working key of this mode; rotate instead of revoking it.`,
      { param: 'id' },
    );
  }
  await tx.accounts.revokeKey(id, now);
  return (await tx.accounts.key(id)) as ApiKeyRow;
}

/** A key of the caller's account and mode; any other id is not found. */
async function ownKey(tx: Tx, caller: Caller, id: string): Promise<ApiKeyRow> {
  const key = await tx.accounts.key(id);
  if (!key || key.account_id !== caller.accountId || key.mode !== caller.mode) throw notFound('API key', id);
  return key;
}

/** What a rotation needs: the new key is chosen before its unit runs. */
interface RotationArgs {
  caller: Caller;
  gracePeriodSeconds: number;
  now: number;
  /** Its secret passes through: the rotation's response, rendered in the unit, shows it once. */
  key: NewKey;
}

/**
 * Replaces the caller's key: a new key of the same mode, and the old one retired at once or
 * at the end of the grace period. Only an active key rotates, and never past two working keys
 * (docs/decisions/0008-key-lifecycle.md).
 */
export async function rotateKey(
  deps: Deps,
  caller: Caller,
  gracePeriodSeconds: number,
  answer?: Answer<Rotation>,
): Promise<Rotation> {
  return write(deps, rotateCallerKey, rotationArgs(deps, caller, gracePeriodSeconds), answer);
}

function rotationArgs(deps: Deps, caller: Caller, gracePeriodSeconds: number): RotationArgs {
  const now = deps.clock.now();
  return { caller, gracePeriodSeconds, now, key: newKey(caller.accountId, caller.mode, now) };
}

const rotateCallerKey = defineUnit(
  import.meta.url,
  'keys.rotate-own',
  async (tx, a: RotationArgs): Promise<Rotation> => {
    await requireActiveCaller(tx, a.caller, a.now);
    return rotateInTx(tx, a, a.caller.keyId);
  },
);

/** A new key of the caller's account and mode with the role asked for, shown once. */
export interface Creation {
  secretKey: string;
  apiKey: ApiKeyRow;
}

/**
 * Creates a key of the caller's mode with `role` (docs/decisions/0030-key-roles.md): from an
 * active key over the API, or from the dashboard (`fromDashboard`: a session, no calling key).
 * Never past the role's working keys.
 */
export async function createKey(
  deps: Deps,
  caller: Caller,
  role: KeyRole,
  answer?: Answer<Creation>,
  fromDashboard = false,
): Promise<Creation> {
  const now = deps.clock.now();
  const key = newKey(caller.accountId, caller.mode, now, role);
  return write(deps, insertCallerKey, { caller, now, key, fromDashboard }, answer);
}

const insertCallerKey = defineUnit(
  import.meta.url,
  'keys.create',
  async (tx, a: { caller: Caller; now: number; key: NewKey; fromDashboard: boolean }): Promise<Creation> => {
    if (!a.fromDashboard) await requireActiveCaller(tx, a.caller, a.now);
    const role = a.key.row.role;
    const working = (await tx.accounts.workingKeys(a.caller.accountId, a.caller.mode, a.now)).filter(
      (key) => key.role === role,
    );
    const max = maxWorkingKeys(role);
    if (working.length + 1 > max) {
      throw new ApiError(
        409,
        'too_many_active_keys',
        `This mode already has ${max} working ${role} keys; revoke one first.`,
      );
    }
    await tx.accounts.insertKey(a.key.row);
    const apiKey = await tx.accounts.key(a.key.row.id);
    if (!apiKey) throw new Error('a created key vanished inside its transaction');
    return { secretKey: a.key.secret, apiKey };
  },
);

/**
 * Revokes one key of the caller's account and mode at once. Refused for the last working key
 * of the mode, so no API call can leave the owner without a key.
 */
export async function revokeKey(
  deps: Deps,
  caller: Caller,
  id: string,
  answer?: Answer<ApiKeyRow>,
): Promise<ApiKeyRow> {
  return write(deps, revokeByCaller, { caller, id, now: deps.clock.now() }, answer);
}

const revokeByCaller = defineUnit(
  import.meta.url,
  'keys.revoke-by-key',
  async (tx, a: { caller: Caller; id: string; now: number }): Promise<ApiKeyRow> => {
    await requireActiveCaller(tx, a.caller, a.now);
    return revokeInTx(tx, a.caller, a.id, a.now);
  },
);

/**
 * Rotates the key a signed-in dashboard user picked (the dashboard acts with a session, not a
 * key, so there is no calling key to check): the same rules as `rotateKey` on that key.
 */
export async function rotateKeyById(
  deps: Deps,
  caller: Caller,
  keyId: string,
  gracePeriodSeconds: number,
  roles: readonly KeyRole[],
): Promise<Rotation> {
  return write(deps, rotatePickedKey, { ...rotationArgs(deps, caller, gracePeriodSeconds), keyId, roles });
}

/** A key of the caller's the dashboard user may manage: its role is one of `roles`. */
async function pickedKey(tx: Tx, caller: Caller, id: string, roles: readonly KeyRole[]): Promise<ApiKeyRow> {
  const key = await ownKey(tx, caller, id);
  if (!roles.includes(key.role)) throw keyRoleRefused(key.role);
  return key;
}

/** A dashboard user whose role may not manage keys of `role` (a developer, a full key). */
export function keyRoleRefused(role: KeyRole): ApiError {
  return permissionDenied('keys:manage', `Your role may not manage ${role} keys. Ask an owner.`);
}

const rotatePickedKey = defineUnit(
  import.meta.url,
  'keys.rotate-picked',
  async (tx, a: RotationArgs & { keyId: string; roles: readonly KeyRole[] }): Promise<Rotation> => {
    if (!keyIsLive(await pickedKey(tx, a.caller, a.keyId, a.roles), a.now)) {
      throw new ApiError(409, 'invalid_field', 'This key is already revoked.', { param: 'key_id' });
    }
    return rotateInTx(tx, a, a.keyId);
  },
);

/** Revokes the key a signed-in dashboard user picked: the same rules as `revokeKey`. */
export async function revokeKeyById(
  deps: Deps,
  caller: Caller,
  keyId: string,
  roles: readonly KeyRole[],
): Promise<ApiKeyRow> {
  return write(deps, revokePickedKey, { caller, id: keyId, now: deps.clock.now(), roles });
}

const revokePickedKey = defineUnit(
  import.meta.url,
  'keys.revoke-picked',
  async (
    tx,
    a: { caller: Caller; id: string; now: number; roles: readonly KeyRole[] },
  ): Promise<ApiKeyRow> => {
    await pickedKey(tx, a.caller, a.id, a.roles);
    return revokeInTx(tx, a.caller, a.id, a.now);
  },
);

export async function listKeys(
  deps: Deps,
  caller: Caller,
  page: { limit: number; cursor?: string | undefined },
) {
  return deps.store.read(async (tx) => tx.accounts.listKeys(caller.accountId, caller.mode, page));
}

/** The IANA time zones an account may show its times in: those this runtime knows. */
export function timeZones(): string[] {
  return Intl.supportedValuesOf('timeZone');
}

/**
 * Sets the time zone the account's dashboard shows times in (decision 0036); refused unless it
 * is one of `timeZones()`.
 */
export async function setTimeZone(deps: Deps, accountId: string, timeZone: string): Promise<void> {
  if (!timeZones().includes(timeZone)) {
    throw new ApiError(400, 'invalid_field', 'Choose a time zone from the list.', { param: 'time_zone' });
  }
  await write(deps, updateTimeZone, { accountId, timeZone });
}

const updateTimeZone = defineUnit(
  import.meta.url,
  'accounts.set-time-zone',
  async (tx, a: { accountId: string; timeZone: string }): Promise<void> =>
    tx.accounts.setTimeZone(a.accountId, a.timeZone),
);
