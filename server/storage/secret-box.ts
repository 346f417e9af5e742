import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { parseSecretsKey } from '../secrets-key.js';

/**
 * Seals secrets the server must be able to read back (webhook signing secrets) before they
 * reach the database: AES-256-GCM under a key-encryption key that never lives in the database
 * (docs/decisions/0007-secrets-at-rest.md). A copy of the SQLite file, its WAL or a backup
 * holds only ciphertext; the row id is bound as associated data, so a sealed value copied onto
 * another row does not open.
 *
 * Stored form: `v1.<iv base64url>.<ciphertext+tag base64url>`.
 */
export interface SecretBox {
  seal(plaintext: string, rowId: string): string;
  open(sealed: string, rowId: string): string;
  isSealed(value: string): boolean;
}

const PREFIX = 'v1.';

/**
 * How many opened secrets a box remembers. Each webhook record reads its endpoint again (and
 * opened its secret: AES-GCM, visible on the writer thread while a backlog drains;
 * docs/performance.md).
 * A sealed value is never changed in place (a rotation seals a new one with a new IV), so the
 * same stored text and row always open to the same secret, and a rotated or deleted one is
 * simply no longer asked for. Bounded: the oldest is forgotten first.
 */
const openedKept = 256;

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new RangeError('the secrets encryption key must be 32 bytes');
  const openedBefore = new Map<string, string>();
  const decrypt = (sealed: string, rowId: string): string => {
    const [version, ivText, bodyText] = sealed.split('.');
    if (`${version}.` !== PREFIX || !ivText || !bodyText) {
      throw new Error('a stored secret is not sealed: was the database written by an older version?');
    }
    const body = Buffer.from(bodyText, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
    decipher.setAAD(Buffer.from(rowId, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - 16));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString(
      'utf8',
    );
  };
  return {
    seal(plaintext, rowId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(rowId, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${PREFIX}${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, rowId) {
      const memo = `${rowId} ${sealed}`;
      const known = openedBefore.get(memo);
      if (known !== undefined) return known;
      // Decrypted (and authenticated) first: a value that does not open is never remembered.
      const plaintext = decrypt(sealed, rowId);
      if (openedBefore.size >= openedKept) openedBefore.delete(openedBefore.keys().next().value as string);
      openedBefore.set(memo, plaintext);
      return plaintext;
    },
    isSealed(value) {
      return value.startsWith(PREFIX);
    },
  };
}

/** Where development keeps its generated key: beside the database, never inside it. */
export function secretsKeyFilePath(databasePath: string): string {
  return `${databasePath}.secrets-key`;
}

/**
 * The key-encryption key: SECRETS_ENCRYPTION_KEY when set (required in production, checked by
 * loadConfig), otherwise, outside production, a key generated once into a 0600 file beside
 * the database and read back on later starts.
 */
export function resolveSecretsKey(configured: Buffer | undefined, databasePath: string): Buffer {
  if (configured) return configured;
  const path = secretsKeyFilePath(databasePath);
  if (existsSync(path)) {
    const key = parseSecretsKey(readFileSync(path, 'utf8'));
    if (!key)
      throw new Error(`${path} does not hold a 32-byte hex key; restore it or set SECRETS_ENCRYPTION_KEY.`);
    return key;
  }
  // Written aside and linked into place: a second process starting on the same database at the
  // same moment either wins the link or reads the winner's complete file, never a partial one.
  const key = randomBytes(32);
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    chmodSync(temporary, 0o600);
    linkSync(temporary, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return resolveSecretsKey(undefined, databasePath);
  } finally {
    unlinkSync(temporary);
  }
  return key;
}
