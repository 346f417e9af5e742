import { randomBytes, randomFillSync } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Appends base62 characters of `bytes` to `out` until it is `length` long; returns how many bytes it used. */
function appendBase62(out: string[], bytes: Uint8Array, from: number, length: number): number {
  let i = from;
  while (out.length < length && i < bytes.length) {
    const byte = bytes[i++] as number;
    // Bytes of 248 and above are skipped so that every character is equally likely (no modulo bias).
    if (byte < 248) out.push(alphabet[byte % 62] as string);
  }
  return i - from;
}

/**
 * Random base62 text, fresh from the system CSPRNG on every call: for secrets (API keys,
 * checkout tokens, passwords), whose bytes are never kept around in a pool.
 */
export function randomBase62(length: number): string {
  const out: string[] = [];
  while (out.length < length) appendBase62(out, randomBytes(length + 8), 0, length);
  return out.join('');
}

/**
 * Public identifiers need unpredictability, not secrecy: they come from a pool of CSPRNG bytes
 * refilled 4 KiB at a time (as `crypto.randomUUID` does), instead of one system call per id.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function pooledBase62(length: number): string {
  const out: string[] = [];
  while (out.length < length) {
    if (poolAt >= pool.length) {
      randomFillSync(pool);
      poolAt = 0;
    }
    poolAt += appendBase62(out, pool, poolAt, length);
  }
  return out.join('');
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
  return `${prefix}_${pooledBase62(24)}`;
}
