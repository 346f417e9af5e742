import type { Tx } from '../storage/store.js';
import type { Caller, Deps, IdempotencyIntent } from './context.js';

export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/** What is stored instead of a response that revealed a secret (see `IdempotencyIntent.withhold`). */
export interface WithheldResponse {
  secret_withheld: { id: string };
}

/**
 * Deletes the idempotency records older than the 24-hour window, at most once an hour. A
 * record past the window is never replayed anyway; this keeps the table from growing.
 */
export function idempotencyPurger(deps: Deps): () => Promise<number> {
  let lastPurge = Number.NEGATIVE_INFINITY;
  return async () => {
    const now = deps.clock.now();
    if (now - lastPurge < 3_600_000) return 0;
    lastPurge = now;
    return deps.store.transact(async (tx) => tx.idempotency.purge(now - idempotencyWindowMs));
  };
}

/**
 * Thrown (rolling the transaction back) when another request with the same Idempotency-Key
 * committed between our look-up and our commit. The HTTP layer then replays that response.
 */
export class IdempotencyRace extends Error {
  constructor(readonly key: string) {
    super('Another request with this Idempotency-Key committed first.');
    this.name = 'IdempotencyRace';
  }
}

/**
 * Runs `work` as one transaction and, for an idempotent POST, stores its rendered response in
 * that same transaction.
 */
export async function commit<T>(
  deps: Deps,
  caller: Caller,
  intent: IdempotencyIntent<T> | undefined,
  work: (tx: Tx, now: number) => Promise<T>,
): Promise<T> {
  const now = deps.clock.now();
  return deps.store.transact(async (tx) => {
    const result = await work(tx, now);
    if (intent) {
      const saved = await tx.idempotency.save(
        caller.accountId,
        caller.mode,
        intent.key,
        {
          fingerprint: intent.fingerprint,
          status_code: intent.status,
          body: JSON.stringify(
            intent.withhold
              ? ({ secret_withheld: { id: intent.withhold(result) } } satisfies WithheldResponse)
              : intent.render(result),
          ),
          created_at: now,
        },
        now - idempotencyWindowMs,
      );
      if (!saved) throw new IdempotencyRace(intent.key);
    }
    return result;
  });
}
