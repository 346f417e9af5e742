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
