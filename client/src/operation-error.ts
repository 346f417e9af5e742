import type { components } from './contract.js';
import type { ErrorEnvelope } from './errors.js';
import { operationErrorCodes } from './operation-errors.js';
import { requestIdOf } from './request-id.js';

type ErrorCode = components['schemas']['ErrorCode'];
type Table = typeof operationErrorCodes;

/** A path of the contract that documents error responses. */
export type ErrorPath = keyof Table;
/** A method of `P` (lower case, as in the contract). */
export type ErrorMethod<P extends ErrorPath> = keyof Table[P];

interface Common {
  message: string;
  requestId: string | undefined;
  /** The field or parameter at fault, when there is one. */
  param: string | undefined;
  /** The error envelope as received, when the body was one. */
  envelope: ErrorEnvelope | undefined;
}

type Statuses<P extends ErrorPath, M extends ErrorMethod<P>> = Table[P][M];

/** A documented error of operation `M P`: its status, and the codes that status carries. */
export type DocumentedError<P extends ErrorPath, M extends ErrorMethod<P>> = {
  [S in keyof Statuses<P, M>]: Common & {
    documented: true;
    status: S;
    code: Statuses<P, M>[S] extends readonly (infer Code)[] ? Code : ErrorCode;
  };
}[keyof Statuses<P, M>];

/** An answer the contract does not list for the operation (a proxy's 502, say). */
export interface UndocumentedError extends Common {
  documented: false;
  status: number;
  code: string | undefined;
}

/** What `operationError` returns for a failed call of `M P`. */
export type OperationError<P extends ErrorPath, M extends ErrorMethod<P>> =
  | DocumentedError<P, M>
  | UndocumentedError;

function envelopeOf(body: unknown): ErrorEnvelope | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null || typeof (error as { code?: unknown }).code !== 'string') {
    return undefined;
  }
  return body as ErrorEnvelope;
}

/**
 * The error of a failed call, narrowed to what the contract documents for that operation: once
 * `documented` and `status` are checked, `code` is one of the codes that status carries (for
 * example only `insufficient_balance` for a 403 of `POST /payouts`). Returns `undefined` when the
 * call succeeded. An answer the contract does not list for the operation (or a code it does not
 * list for that status) is `documented: false`.
 *
 * @example
 * ```ts
 * const result = await client.POST('/payouts', { body });
 * const failure = operationError('/payouts', 'post', result);
 * if (failure?.documented && failure.status === 422) {
 *   // failure.code: 'wallet_not_found' | 'self_transfer'
 *   console.log(`recipient unusable: ${failure.code}`);
 * }
 * ```
 */
export function operationError<P extends ErrorPath, M extends ErrorMethod<P>>(
  path: P,
  method: M,
  result: { error?: unknown; response: Response },
): OperationError<P, M> | undefined {
  if (result.error === undefined && result.response.ok) return undefined;
  const status = result.response.status;
  const envelope = envelopeOf(result.error);
  const code = envelope?.error.code;
  const statuses = operationErrorCodes[path][method] as Record<number, readonly string[] | null>;
  const listed = statuses[status];
  const documented = listed !== undefined && code !== undefined && (listed === null || listed.includes(code));
  return {
    documented,
    status,
    code,
    message: envelope?.error.message ?? `HTTP ${status}`,
    requestId: envelope?.error.request_id ?? requestIdOf(result.response),
    param: envelope?.error.param,
    envelope,
  } as OperationError<P, M>;
}
