import type { ApiPermission, ErrorCode } from '../../generated/openapi.js';
import { InvalidCursor } from '../storage/pagination.js';
import { crossesThreads } from '../storage/unit.js';

/**
 * The one error type of the service: an HTTP status, a stable code from the contract's
 * catalogue, a message for humans and, when one field is at fault, its name. Thrown anywhere;
 * turned into the error envelope in one place (server/http/error-handler.ts).
 */
export class ApiError extends Error {
  /** The request field at fault, when there is one (`amount`, `items[2].recipient_msisdn`). */
  readonly param: string | undefined;
  /** Every problem of the request, when there are several (validation). */
  readonly details: ApiErrorDetail[] | undefined;
  /** Headers the error response carries besides the usual ones. */
  readonly headers: Record<string, string> | undefined;

  /**
   * @example
   * throw new ApiError(422, 'service_inactive', 'The service svc_1 takes no payments.', { param: 'service_id' });
   */
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.param = options.param;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export interface ApiErrorDetail {
  param: string;
  code?: ErrorCode;
  message: string;
  /** The permission a refused caller lacks (`permission_denied`). */
  permission?: ApiPermission;
}

export interface ApiErrorOptions {
  param?: string | undefined;
  details?: ApiErrorDetail[] | undefined;
  headers?: Record<string, string> | undefined;
  /** What caused it, for the logs (never shown to the caller). */
  cause?: unknown;
}
crossesThreads(ApiError);

/**
 * The caller may not do this: their key's role (or their dashboard role) does not grant
 * `permission`. The message and the one detail name it (docs/decisions/0030-key-roles.md).
 */
export function permissionDenied(permission: ApiPermission, message: string): ApiError {
  return new ApiError(403, 'permission_denied', message, {
    param: 'Authorization',
    details: [{ param: 'Authorization', code: 'permission_denied', message, permission }],
  });
}

export const notFound = (kind: string, id: string) =>
  new ApiError(404, 'resource_not_found', `No ${kind} ${id} exists in this account and mode.`);

/**
 * A storage refusal that is the caller's mistake, as the API answers it: the error handlers of
 * the API and of the dashboard both ask here. Undefined for anything else.
 */
export function fromStorage(err: unknown): ApiError | undefined {
  if (err instanceof InvalidCursor) {
    return new ApiError(400, 'invalid_parameter', 'The cursor is not one this API returned.', {
      param: 'cursor',
    });
  }
  return undefined;
}
