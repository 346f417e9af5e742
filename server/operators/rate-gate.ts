/**
 * A shared pace for the calls to one operator product: at most `perSecond` calls start in any
 * second, each caller waiting for its turn, and none before a pause the operator asked for
 * (a 429's Retry-After) is over. MTN publishes 10 requests a second per product; the default
 * pace stays under it (docs/decisions/0035-operator-environments-as-they-are.md).
 */
export class RateGate {
  private lastStart = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  private readonly spacingMs: number;

  constructor(
    perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.spacingMs = 1000 / perSecond;
  }

  /**
   * Resolves when this caller may start its call. Turns are taken when a caller wakes, not
   * when it starts waiting: timers that fire late (a busy event loop) cannot start their calls
   * together, so the calls that start are always at least a spacing apart.
   */
  async pass(): Promise<void> {
    for (;;) {
      const now = this.now();
      const free = Math.max(this.lastStart + this.spacingMs, this.pausedUntil);
      if (now >= free) {
        this.lastStart = now;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, free - now));
    }
  }

  /** The operator asked us to wait (429 Retry-After): no call starts before `until`. */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }
}
