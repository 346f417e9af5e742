import type { Tx } from './repositories/index.js';

// How errors cross between threads lives apart (thread-errors.ts): storage's own error classes
// register there without importing the repositories, whose types this module needs.
export { crossesThreads, type ErrorData, errorFromData, errorToData } from './thread-errors.js';

/**
 * A unit of work: the only way anything writes (docs/decisions/0021-one-write-path.md). It gets
 * the transaction's repositories and plain data, and returns plain data (both copied by the
 * structured clone algorithm), so the engine can run it where it chooses: the SQLite store on its
 * writer thread, PostgreSQL's store in place on a pooled connection. Like every unit of work it
 * has no effect outside `tx` (PostgreSQL may run it again after a serialization failure).
 *
 * A unit is defined at the top level of its module and names that module (`import.meta.url`):
 * a thread that has not loaded the module yet imports it before running the unit, so there is no
 * list of units to keep, and none to forget.
 *
 * @example
 * export const renameService = defineUnit(import.meta.url, 'services.rename',
 *   (tx, a: { id: string; name: string }) => tx.services.rename(a.id, a.name));
 * await store.run(renameService, { id: 'svc_1', name: 'Shop' });
 */
export interface Unit<A, R> extends Definition {
  run(tx: Tx, args: A): Promise<R>;
}

/** Where a unit or a rendering is defined: the module that defines it, and its name there. */
export interface Definition {
  readonly module: string;
  readonly name: string;
}

const units = new Map<string, Unit<never, unknown>>();

export function defineUnit<A, R>(
  module: string,
  name: string,
  run: (tx: Tx, args: A) => Promise<R>,
): Unit<A, R> {
  return define(units, { module, name, run }, 'unit of work');
}

/**
 * A pure function of a unit's result, known by name for the same reason as a unit: an operation
 * renders its response inside its unit's transaction (server/domain/write.ts), so on SQLite on
 * the writer thread, and a list's page where it is read, on the reader thread.
 */
export interface Rendering<T, C> extends Definition {
  render(result: T, context: C): unknown;
  /**
   * For a response that reveals a secret: the id of what it created. Only that id is stored
   * under the Idempotency-Key, never the response, so a replay cannot reveal the secret again.
   */
  withhold?: ((result: T) => string) | undefined;
}

const renderings = new Map<string, Rendering<never, never>>();

export function defineRendering<T, C>(
  module: string,
  name: string,
  render: (result: T, context: C) => unknown,
  options: { withhold?: (result: T) => string } = {},
): Rendering<T, C> {
  return define(renderings, { module, name, render, withhold: options.withhold }, 'rendering');
}

function define<D extends Definition>(registry: Map<string, unknown>, definition: D, kind: string): D {
  if (registry.has(definition.name)) throw new Error(`a ${kind} named ${definition.name} is defined twice`);
  registry.set(definition.name, definition);
  return definition;
}

/** Only a unit's module and name cross between threads. */
export function refOf({ module, name }: Definition): Definition {
  return { module, name };
}

/** The unit `ref` names, its module imported first when this thread has not loaded it yet. */
export async function findUnit(ref: Definition): Promise<Unit<unknown, unknown>> {
  return (await find(units, ref, 'unit of work')) as Unit<unknown, unknown>;
}

/** The rendering `ref` names, its module imported first when this thread has not loaded it yet. */
export async function findRendering(ref: Definition): Promise<Rendering<unknown, unknown>> {
  return (await find(renderings, ref, 'rendering')) as Rendering<unknown, unknown>;
}

async function find(registry: Map<string, unknown>, ref: Definition, kind: string): Promise<unknown> {
  if (!registry.has(ref.name)) await import(ref.module);
  const found = registry.get(ref.name);
  if (!found)
    throw new Error(
      `no ${kind} named ${ref.name} in ${ref.module}: is it defined at the module's top level?`,
    );
  return found;
}
