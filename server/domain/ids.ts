import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random base62 text from the system CSPRNG. Bytes of 248 and above are skipped so that every
 * character is equally likely (no modulo bias).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte >= 248) continue;
      out += alphabet[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix =
  | 'acct'
  | 'key'
  | 'wal'
  | 'btx'
  | 'svc'
  | 'pay'
  | 'po'
  | 'tu'
  | 'bulk'
  | 'evt'
  | 'we'
  | 'whd'
  | 'log'
  | 'req'
  | 'cs'
  | 'usr';

/** A public identifier: a type prefix and 24 random base62 characters (about 143 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}
