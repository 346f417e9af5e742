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
  | 'bb'
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

/**
 * The creation millisecond as 8 base62 characters, zero-padded: the alphabet is in ASCII order,
 * so text order is time order (for the next 6,800 years). Kept for the millisecond it was made in.
 */
let stampAt = -1;
let stamp = '';
function timeStamp(ms: number): string {
  if (ms !== stampAt) {
    const out = new Array<string>(8);
    let rest = ms;
    for (let i = 7; i >= 0; i--) {
      out[i] = alphabet[rest % 62] as string;
      rest = Math.floor(rest / 62);
    }
    stampAt = ms;
    stamp = out.join('');
  }
  return stamp;
}

/**
 * A public identifier: a type prefix, the creation millisecond (8 base62 characters) and 16
 * random base62 characters (about 95 bits, more than a UUIDv7's 74). Ids made later sort later,
 * as UUIDv7 and ULID do, so each new row's index entry lands at the right edge of the id index
 * instead of on a random page: a batch of inserts writes a few pages rather than one per row
 * (docs/performance.md). Nothing may read meaning into the order; `created_at` is the time.
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${timeStamp(now)}${pooledBase62(16)}`;
}
