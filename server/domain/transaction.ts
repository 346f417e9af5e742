import type { Mode } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { crossesThreads, defineUnit, renderingNamed, type Unit, unitNamed } from '../storage/unit.js';
import type { Caller, Deps, IdempotencyIntent, NamedIdempotencyIntent } from './context.js';

export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/** What is stored instead of a response that revealed a secret (see `IdempotencyIntent.withhold`). */
export interface WithheldResponse {
  secret_withheld: { id: string };
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
crossesThreads(IdempotencyRace);

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
      const body = intent.withhold
        ? ({ secret_withheld: { id: intent.withhold(result) } } satisfies WithheldResponse)
        : intent.render(result);
      await saveResponse(tx, caller.accountId, caller.mode, intent, body, now);
    }
    return result;
  });
}

/**
 * `commit` for a named unit of work (server/storage/unit.ts), which the SQLite store runs on its
 * writer thread: `args` is plain data, and an idempotent POST's response is rendered there by a
 * named rendering, inside the same transaction.
 */
export async function commitUnit<A, R>(
  deps: Deps,
  caller: Caller,
  intent: NamedIdempotencyIntent | undefined,
  unit: Unit<A, R>,
  args: A,
  now: number,
): Promise<R> {
  if (!intent) return deps.store.run(unit, args);
  const idempotent = { unit: unit.name, args, accountId: caller.accountId, mode: caller.mode, intent, now };
  return deps.store.run(idempotentUnit, idempotent) as Promise<R>;
}

/** A named unit, then its rendered response stored under its Idempotency-Key. */
const idempotentUnit = defineUnit(
  'transaction.idempotent',
  async (
    tx,
    a: {
      unit: string;
      args: unknown;
      accountId: string;
      mode: Mode;
      intent: NamedIdempotencyIntent;
      now: number;
    },
  ) => {
    const result = await unitNamed(a.unit).run(tx, a.args);
    const body = renderingNamed(a.intent.rendering).render(result, a.intent.context);
    await saveResponse(tx, a.accountId, a.mode, a.intent, body, a.now);
    return result;
  },
);

async function saveResponse(
  tx: Tx,
  accountId: string,
  mode: Mode,
  intent: { key: string; fingerprint: string; status: number },
  body: unknown,
  now: number,
): Promise<void> {
  const saved = await tx.idempotency.save(
    accountId,
    mode,
    intent.key,
    {
      fingerprint: intent.fingerprint,
      status_code: intent.status,
      body: JSON.stringify(body),
      created_at: now,
    },
    now - idempotencyWindowMs,
  );
  if (!saved) throw new IdempotencyRace(intent.key);
}
