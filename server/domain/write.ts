import type { IdempotencyRow, Mode } from '../storage/rows.js';
import type { Store } from '../storage/store.js';
import {
  crossesThreads,
  type Definition,
  defineUnit,
  findRendering,
  findUnit,
  type Rendering,
  refOf,
  type Unit,
} from '../storage/unit.js';
import type { Deps } from './context.js';
import { ApiError } from './errors.js';

/** How long a response stays stored under its Idempotency-Key. */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/**
 * How an API operation answers a write: its status and the rendering of its response, declared
 * once per operation beside its route (server/http/operation-router.ts), and, when the request
 * carries an Idempotency-Key, the key. The domain passes it, untouched, to the one `write` whose
 * result the operation answers with.
 */
export interface Answer<R> {
  status: number;
  rendering: Rendering<R, unknown>;
  context: unknown;
  idempotency: IdempotencyKey | undefined;
  /** The response as JSON text, rendered in the write's transaction: set by `write`. */
  text?: string;
}

/** An Idempotency-Key as the caller's account and mode own it, and the request it was sent with. */
export interface IdempotencyKey {
  accountId: string;
  mode: Mode;
  key: string;
  /** A hash of the method, path and canonical body (server/http/idempotency.ts). */
  fingerprint: string;
}

/**
 * The request was already answered under its Idempotency-Key: the stored response, to be sent
 * again as it is (server/http/operation-router.ts). Not an error: nothing was written.
 */
export class AlreadyAnswered extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super('This request was already answered under its Idempotency-Key.');
    this.name = 'AlreadyAnswered';
  }
}

/** What is stored instead of a response that revealed a secret (`Rendering.withhold`). */
interface WithheldResponse {
  secret_withheld: { id: string };
}

/**
 * Thrown in the unit (rolling its work back) when its save finds the Idempotency-Key taken: a
 * retry, or another request with the key that committed first. `write` runs the unit once
 * more, looking the key up first, and that run finds the stored response.
 */
class IdempotencyRace extends Error {
  constructor() {
    super('Another request with this Idempotency-Key committed first.');
    this.name = 'IdempotencyRace';
  }
}
crossesThreads(IdempotencyRace);

/**
 * The one way the domain writes: runs `unit` as one transaction, wherever the engine runs
 * writes (server/storage/store.ts). Given the operation's `answer`, the same transaction runs
 * the unit, renders the response once and stores it under the request's Idempotency-Key;
 * `answer.text` is that response, which the operation sends as it is. A request already
 * answered under its key throws `AlreadyAnswered` (its stored response) and changes nothing;
 * the key used with another request is a 409.
 *
 * The key is not looked up before the work: nearly every request is new, and its save finds a
 * live record by the key's uniqueness (docs/performance.md). A save that finds one rolls the
 * work back, and the unit runs again looking the key up first. A unit that fails may be a
 * retry whose first attempt succeeded (a payout refused now that its own debit is spent): its
 * error yields to the stored response, if there is one.
 *
 * @example
 * const payout = await write(deps, insertPayout, { caller, plan, now }, answer);
 */
export async function write<A, R>(
  deps: Pick<Deps, 'store' | 'clock'>,
  unit: Unit<A, R>,
  args: A,
  answer?: Answer<R>,
): Promise<R> {
  if (!answer) return deps.store.run(unit, args);
  const answeredArgs: AnsweredArgs = {
    unit: refOf(unit),
    args,
    rendering: refOf(answer.rendering),
    context: answer.context,
    status: answer.status,
    idempotency: answer.idempotency,
    lookUpFirst: false,
    now: deps.clock.now(),
  };
  let outcome: AnsweredOutcome;
  try {
    outcome = await deps.store.run(answered, answeredArgs);
  } catch (error) {
    if (error instanceof IdempotencyRace) {
      outcome = await deps.store.run(answered, { ...answeredArgs, lookUpFirst: true });
    } else {
      throw (await storedFor(deps, answeredArgs)) ?? error;
    }
  }
  if ('stored' in outcome) throw storedAnswer(outcome.stored);
  answer.text = outcome.text;
  return outcome.value as R;
}

/** What is stored under the request's key, as what the request gets instead of its error. */
async function storedFor(deps: Pick<Deps, 'store'>, a: AnsweredArgs): Promise<Error | undefined> {
  const key = a.idempotency;
  if (!key) return undefined;
  const notBefore = a.now - idempotencyWindowMs;
  const stored = await deps.store
    .read((tx) => tx.idempotency.find(key.accountId, key.mode, key.key, notBefore))
    .catch(() => undefined);
  return stored && storedAnswer(storedUnder(key, stored));
}

/** A store whose clock stands at `now`: `write`'s `deps` for a caller that has no other. */
export function storeAt(store: Store, now: number): Pick<Deps, 'store' | 'clock'> {
  return { store, clock: { now: () => now } };
}

interface AnsweredArgs {
  unit: Definition;
  args: unknown;
  rendering: Definition;
  context: unknown;
  status: number;
  idempotency: IdempotencyKey | undefined;
  /** Look the key up before the work (after a save found the key taken). */
  lookUpFirst: boolean;
  now: number;
}

type AnsweredOutcome = { value: unknown; text: string } | { stored: Stored };

/** A unit, its response rendered once, and stored under the request's Idempotency-Key. */
const answered = defineUnit(
  import.meta.url,
  'write.answered',
  async (tx, a: AnsweredArgs): Promise<AnsweredOutcome> => {
    const key = a.idempotency;
    const notBefore = a.now - idempotencyWindowMs;
    if (key && a.lookUpFirst) {
      const stored = await tx.idempotency.find(key.accountId, key.mode, key.key, notBefore);
      if (stored) return { stored: storedUnder(key, stored) };
    }
    const value = await (await findUnit(a.unit)).run(tx, a.args);
    const rendering = await findRendering(a.rendering);
    const text = JSON.stringify(rendering.render(value, a.context));
    if (key) {
      const body = rendering.withhold
        ? JSON.stringify({ secret_withheld: { id: rendering.withhold(value) } } satisfies WithheldResponse)
        : text;
      const record = { fingerprint: key.fingerprint, status_code: a.status, body, created_at: a.now };
      if (!(await tx.idempotency.save(key.accountId, key.mode, key.key, record, notBefore))) {
        throw new IdempotencyRace();
      }
    }
    return { value, text };
  },
);

type Stored = { status: number; body: string; sameRequest: boolean };

/** A stored record as the request under its key sees it. */
function storedUnder(key: IdempotencyKey, record: IdempotencyRow): Stored {
  return {
    status: record.status_code,
    body: record.body,
    sameRequest: record.fingerprint === key.fingerprint,
  };
}

/** What a request finds stored under its Idempotency-Key: its answer, or why it gets none. */
function storedAnswer(stored: Stored): Error {
  if (!stored.sameRequest) {
    return new ApiError(
      409,
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request.',
    );
  }
  if (stored.body.startsWith('{"secret_withheld"')) {
    const { id } = (JSON.parse(stored.body) as WithheldResponse).secret_withheld;
    return new ApiError(
      409,
      'secret_not_replayed',
      `This request already succeeded and created ${id}. Its secret was shown once, in the first ` +
        'response, and is not kept: a retry cannot show it again. To get a new secret, rotate ' +
        'with a new Idempotency-Key.',
      { param: 'Idempotency-Key', headers: { 'Idempotent-Replayed': 'true', 'Cache-Control': 'no-store' } },
    );
  }
  return new AlreadyAnswered(stored.status, stored.body);
}
