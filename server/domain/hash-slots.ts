/**
 * A small bound on password hashes running at once in this process. scrypt takes tens of
 * megabytes and a libuv thread for about a tenth of a second; a burst of sign-ins would queue
 * behind it without bound and slow every request that needs a thread (file reads, DNS). At most
 * `running` hashes run, at most `waiting` more wait their turn, and any beyond are refused at
 * once, so the caller answers 503 quickly (docs/decisions/0031-dashboard-sign-in-and-passwords.md).
 *
 * @example
 * const slots = new HashSlots(2, 8);
 * const outcome = await slots.run(() => scrypt(...));
 * if (outcome === busy) answer503();
 */
export const busy: unique symbol = Symbol('busy');

export class HashSlots {
  #running = 0;
  readonly #queue: Array<() => void> = [];

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  /** Runs `work` in a slot, or answers `busy` at once when every slot and place in line is taken. */
  async run<T>(work: () => Promise<T>): Promise<T | typeof busy> {
    if (this.#running >= this.running) {
      if (this.#queue.length >= this.waiting) return busy;
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    } else {
      this.#running += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.#queue.shift();
      // The slot passes straight to the next in line; the count stays.
      if (next) next();
      else this.#running -= 1;
    }
  }
}
