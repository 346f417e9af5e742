import type { ErrorRequestHandler, Request } from 'express';
import type { Logger } from 'pino';
import type { ErrorCode } from '../../generated/openapi.js';
import type { Deps } from '../domain/context.js';
import { ApiError, fromStorage } from '../domain/errors.js';
import { childForRequest } from '../observability/logger.js';
import { sendJson } from './envelope.js';
import { maxJsonDepth } from './json-body.js';
import { loggedPath, restoreHead } from './routing.js';
import { isValidatorError, requestValidationError } from './validation-errors.js';

/** SQLite refusing to work (locked too long, read-only, disk full, I/O): retryable, nothing moved. */
const unavailableSqliteCodes =
  /^SQLITE_(BUSY|LOCKED|READONLY|FULL|IOERR|CANTOPEN|PROTOCOL|NOLFS|THREAD_ENDED)/;

/**
 * PostgreSQL out of reach or refusing work, with the transaction rolled back: connection
 * exceptions (08), insufficient resources (53: too many connections, disk full), shutting down
 * or starting (57P01-57P03), a statement over DATABASE_STATEMENT_TIMEOUT_MS (57014), a race
 * still lost when the retries' budget ran out (40001, 40P01, 55P03 lock timeout:
 * server/storage/postgres/store.ts), a read-only server (25006); and the socket errors of a
 * database that went away.
 */
const unavailablePostgresCodes =
  /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123]|57014|40001|40P01|55P03|25006|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND)$/;
/** node-postgres's own errors, which carry no code. */
const unavailablePostgresMessages =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** True when the database (either engine) could not do the work: retryable, nothing moved. */
export function databaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string')
    return unavailableSqliteCodes.test(code) || unavailablePostgresCodes.test(code);
  return err instanceof Error && unavailablePostgresMessages.test(err.message);
}

/** Body-parser's errors, which carry a `type`. */
function bodyParserError(err: { type?: unknown; status?: unknown }): ApiError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new ApiError(400, 'malformed_json', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new ApiError(413, 'payload_too_large', 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'unsupported_media_type', 'Send the body as UTF-8 application/json.');
    case 'entity.too.deep':
      return new ApiError(
        400,
        'too_deeply_nested',
        `The request body nests objects and arrays more than ${maxJsonDepth} levels deep.`,
      );
    case 'entity.not.utf8':
      return new ApiError(400, 'invalid_text', 'The request body is not valid UTF-8.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new ApiError(400, 'malformed_json', 'The request body could not be read.');
    default:
      return undefined;
  }
}

/**
 * A 4xx raised by Node, `send` (static files) or another piece of Express machinery, as an
 * http-errors object: answered in the envelope with a stable code, never as a 500. A 403 from
 * `send` (a dotfile, a path escaping the folder) is a 404: it does not confirm that anything
 * is there.
 */
function clientErrorOf(err: { status?: unknown; statusCode?: unknown }): ApiError | undefined {
  const status = typeof err.status === 'number' ? err.status : err.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  switch (status) {
    case 403:
    case 404:
      return new ApiError(404, 'route_not_found', 'No such path in this API.');
    case 405:
      return new ApiError(405, 'method_not_allowed', 'This path does not accept this method.');
    case 413:
      return new ApiError(413, 'payload_too_large', 'The request body is too large.');
    case 415:
      return new ApiError(415, 'unsupported_media_type', 'Send the body as UTF-8 application/json.');
    case 431:
      return new ApiError(431, 'headers_too_large', 'The request headers are too large.');
    default:
      return new ApiError(status, 'malformed_request', 'The request could not be understood.');
  }
}

function bodyIsEmpty(req: Request): boolean {
  const length = req.get('content-length');
  return (
    !req.get('content-type') && (length === undefined || length === '0') && !req.get('transfer-encoding')
  );
}

function toApiError(err: unknown, req: Request, bodyLimit: number): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (typeof err !== 'object' || err === null) return undefined;
  const storageRefusal = fromStorage(err);
  if (storageRefusal) return storageRefusal;
  const parserError = bodyParserError(err as { type?: unknown });
  if (parserError) {
    return parserError.code === 'payload_too_large'
      ? new ApiError(413, 'payload_too_large', `The request body exceeds ${bodyLimit} bytes.`)
      : parserError;
  }
  if (isValidatorError(err)) {
    const responseProblem = err.errors?.some(
      (e) => e.path.startsWith('/response') || e.path.startsWith('.response'),
    );
    if (responseProblem || err.status >= 500) return undefined;
    if (err.status === 404) return new ApiError(404, 'route_not_found', 'No such path in this API.');
    if (err.status === 405)
      return new ApiError(405, 'method_not_allowed', 'This path does not accept this method.');
    if (err.status === 415) {
      // No body at all is a missing body (the seed's 400), not a body of the wrong type.
      return bodyIsEmpty(req)
        ? new ApiError(400, 'missing_field', 'A JSON request body is required.')
        : new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.');
    }
    if (err.status === 413)
      return new ApiError(413, 'payload_too_large', `The request body exceeds ${bodyLimit} bytes.`);
    return requestValidationError(err, req.context.textProblems);
  }
  const clientError = clientErrorOf(err as { status?: unknown; statusCode?: unknown });
  if (clientError) return clientError;
  if (databaseUnavailable(err)) {
    return new ApiError(
      503,
      'service_unavailable',
      'The service is temporarily unavailable; nothing was changed. Retry shortly.',
      { cause: err },
    );
  }
  return undefined;
}

/**
 * The most problems an answer lists: a body of 64 KiB can hold thousands, and the answer stays
 * small whatever was sent. `details_total` says how many there were.
 */
const maxErrorDetails = 50;

function errorBody(
  requestId: string,
  code: ErrorCode,
  message: string,
  param?: string,
  details?: readonly unknown[],
) {
  return {
    status: 'error' as const,
    error: {
      code,
      message,
      request_id: requestId,
      ...(param !== undefined ? { param } : {}),
      ...(details !== undefined
        ? { details: details.slice(0, maxErrorDetails), details_total: details.length }
        : {}),
    },
  };
}

/**
 * The one place errors become responses: every failure gets the error envelope with a stable
 * code and the request id. Unknown errors are logged with their cause and answered as a plain
 * 500 that shows nothing of them.
 */
export function handleErrors(deps: Deps, logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = req.context?.requestId ?? 'req_unknown';
    restoreHead(req);
    const apiError = toApiError(err, req, deps.config.bodyLimitBytes);
    const status = apiError?.status ?? 500;
    const code: ErrorCode = apiError?.code ?? 'internal_error';
    if (!apiError || status >= 500) {
      // A 503 is an expected, retryable state of the storage; anything else is a bug.
      const log = childForRequest(logger, requestId);
      const fields = { err, method: req.method, path: loggedPath(req.originalUrl) };
      if (status === 503) log.warn(fields, 'request refused: storage unavailable');
      else log.error(fields, 'request failed');
    }
    req.context.errorCode = code;
    if (res.headersSent) {
      res.end();
      return;
    }
    const message = apiError?.message ?? 'Something went wrong on our side. Nothing is shown of it here.';
    if (status === 503) res.setHeader('Retry-After', '1');
    for (const [name, value] of Object.entries(apiError?.headers ?? {})) res.setHeader(name, value);
    sendJson(
      res,
      status,
      JSON.stringify(errorBody(requestId, code, message, apiError?.param, apiError?.details)),
    );
  };
}
