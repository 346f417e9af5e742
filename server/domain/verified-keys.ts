import type { Caller } from './context.js';

/** What a successful lookup of one key found, and the key version it was found under. */
export interface VerifiedKey {
  caller: Caller;
  /** The account's API user, which X-API-User must match. */
  apiUser: string;
  /** The key's end (grace period or revocation), checked against the clock on every use. */
  expiresAt: number | null;
  revokedAt: number | null;
  /** `Store.keysVersion()` as read before the lookup. */
  version: number;
}

/**
 * Keys this process has verified, by the SHA-256 of the key (never the key itself), so that a
 * request does not look its key up in the database again. An entry is trusted only while the
 * store's key version is the one read before its lookup: any rotation or revocation, here or in
 * another process or instance, moves the version and every entry stops counting at once. A
 * key's own end (a grace period running out) is checked against the clock on each use.
 * Failures are never cached. At most `max` entries; the oldest goes first.
 *
 * @example
 * const keys = new VerifiedKeys();
 * const hit = keys.get(hash, store.keysVersion());
 */
export class VerifiedKeys {
  readonly #entries = new Map<string, VerifiedKey>();

  constructor(private readonly max = 10_000) {}

  get(hash: string, version: number): VerifiedKey | undefined {
    const entry = this.#entries.get(hash);
    if (entry && entry.version !== version) {
      this.#entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  set(hash: string, entry: VerifiedKey): void {
    this.#entries.delete(hash);
    if (this.#entries.size >= this.max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(hash, entry);
  }

  get size(): number {
    return this.#entries.size;
  }
}
