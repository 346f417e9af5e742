/**
 * When to ask a live operator again about a pending request: often at first (customers
 * approve within seconds), then less and less (a quarter of its age), at most every
 * `maxDelayMs`, never after its expiry (the expiry is looked at on time), and never before a
 * pause the operator asked for (a 429's Retry-After). The sandbox operator answers in the
 * process and is asked every poll. See docs/decisions/0035-operator-environments-as-they-are.md.
 */
export function nextStatusCheck(o: {
  now: number;
  /** When the request was sent. */
  sentAt: number;
  expiresAt: number;
  pollMs: number;
  maxDelayMs?: number;
  retryAfterMs?: number | undefined;
}): number {
  const age = Math.max(0, o.now - o.sentAt);
  const delay = Math.min(o.maxDelayMs ?? 60_000, Math.max(o.pollMs, age / 4));
  const at = o.now + delay;
  const capped = Math.min(at, Math.max(o.expiresAt, o.now + o.pollMs));
  return Math.max(capped, o.now + (o.retryAfterMs ?? 0));
}
