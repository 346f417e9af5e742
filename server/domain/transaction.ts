import type { Tx } from '../storage/store.js';
import type { Caller, Deps } from './context.js';
import { type Answer, answerInClosure } from './write.js';

/**
 * TEMPORARY, removed before this change lands: the closures not yet turned into units of work.
 * Runs `work` as one transaction on the calling thread, answering like `write`.
 */
export async function commit<T>(
  deps: Deps,
  _caller: Caller,
  answer: Answer<T> | undefined,
  work: (tx: Tx, now: number) => Promise<T>,
): Promise<T> {
  const now = deps.clock.now();
  return answerInClosure(deps, answer, now, (tx) => work(tx, now));
}
