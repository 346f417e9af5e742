import type { Tx } from './repositories/index.js';

/**
 * A unit of work known by name: it gets the transaction's repositories and plain data, and
 * returns plain data (both copied by the structured clone algorithm), so the SQLite store can
 * run it on its writer or reader thread (sqlite/thread-program.ts), where a closure over a
 * request could not go, and PostgreSQL's store runs it in place. Like every unit of work it has
 * no effect outside `tx` (PostgreSQL may run it again after a serialization failure).
 *
 * A unit is defined once, at the top level of a module that `server/units.ts` imports, so the
 * threads know it by the same name (docs/decisions/0003-storage-boundary.md).
 *
 * @example
 * export const renameService = defineUnit('services.rename', (tx, a: { id: string; name: string }) =>
 *   tx.services.rename(a.id, a.name));
 * await store.run(renameService, { id: 'svc_1', name: 'Shop' });
 */
export interface Unit<A, R> {
  readonly name: string;
  run(tx: Tx, args: A): Promise<R>;
}

const units = new Map<string, Unit<never, unknown>>();

export function defineUnit<A, R>(name: string, run: (tx: Tx, args: A) => Promise<R>): Unit<A, R> {
  if (units.has(name)) throw new Error(`a unit of work named ${name} is defined twice`);
  const unit = { name, run };
  units.set(name, unit);
  return unit;
}

/** The unit of that name; throws when no module imported here defined it. */
export function unitNamed(name: string): Unit<unknown, unknown> {
  const unit = units.get(name);
  if (!unit) throw new Error(`no unit of work named ${name}: is its module imported by server/units.ts?`);
  return unit as Unit<unknown, unknown>;
}

/**
 * A pure function of a unit's result, known by name for the same reason: an idempotent POST's
 * response is rendered inside the unit's transaction (server/domain/transaction.ts), so on
 * SQLite on the writer thread.
 */
export interface Rendering<T, C> {
  readonly name: string;
  render(result: T, context: C): unknown;
}

const renderings = new Map<string, Rendering<never, never>>();

export function defineRendering<T, C>(
  name: string,
  render: (result: T, context: C) => unknown,
): Rendering<T, C> {
  if (renderings.has(name)) throw new Error(`a rendering named ${name} is defined twice`);
  const rendering = { name, render };
  renderings.set(name, rendering);
  return rendering;
}

export function renderingNamed(name: string): Rendering<unknown, unknown> {
  const rendering = renderings.get(name);
  if (!rendering) throw new Error(`no rendering named ${name}: is its module imported by server/units.ts?`);
  return rendering as Rendering<unknown, unknown>;
}

/**
 * Errors cross between threads as plain data. One of a class registered here comes back as an
 * instance of that class with its fields (an `ApiError` keeps its status and code, and reaches
 * the error handler as if thrown on the main thread); any other as an `Error` with its name,
 * message and own fields (a SQLite error keeps its `code`, which the error handler reads).
 */
// biome-ignore lint/suspicious/noExplicitAny: any error class, whatever its constructor takes
const errorClasses = new Map<string, new (...args: any[]) => Error>();

// biome-ignore lint/suspicious/noExplicitAny: see errorClasses
export function crossesThreads(errorClass: new (...args: any[]) => Error): void {
  errorClasses.set(errorClass.name, errorClass);
}

export interface ErrorData {
  name: string;
  message: string;
  stack?: string | undefined;
  fields: Record<string, unknown>;
}

export function errorToData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key !== 'cause' && isPlain(value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

export function errorFromData(data: ErrorData): Error {
  const errorClass = errorClasses.get(data.name);
  const error: Error = Object.create((errorClass ?? Error).prototype);
  Object.defineProperties(error, {
    message: { value: data.message, writable: true, configurable: true },
    stack: { value: data.stack, writable: true, configurable: true },
  });
  Object.assign(error, data.fields);
  if (error.name !== data.name)
    Object.defineProperty(error, 'name', { value: data.name, writable: true, configurable: true });
  return error;
}

function isPlain(value: unknown): boolean {
  return typeof value !== 'function' && typeof value !== 'symbol';
}
