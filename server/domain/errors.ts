import type { ErrorCode } from '../../generated/openapi.js';
import { crossesThreads } from '../storage/unit.js';

/**
 * The one error type of the service: an HTTP status, a stable code from the contract's
 * catalogue, a message for humans and, when one field is at fault, its name. Thrown anywhere;
 * turned into the error envelope in one place (server/http/error-handler.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly details?: Array<{ param: string; code?: ErrorCode; message: string }>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
  }
}
crossesThreads(ApiError);

export const notFound = (kind: string, id: string) =>
  new ApiError(404, 'resource_not_found', `No ${kind} ${id} exists in this account and mode.`);
