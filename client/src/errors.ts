import type { components } from './contract.js';

/** The error envelope of every non-2xx response, as the contract defines it. */
export type ErrorEnvelope = components['schemas']['ErrorResponse'];

/** Why the client refused its options. */
export type ConfigErrorCode = 'invalid_option' | 'live_key_in_sandbox' | 'live_key_in_browser';

/**
 * Thrown by `createPaymentsClient` when its options are unusable or unsafe, before any request
 * is sent.
 */
export class PaymentsConfigError extends Error {
  override readonly name = 'PaymentsConfigError';

  constructor(
    readonly code: ConfigErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Thrown by a call when no HTTP response arrived (connection refused or reset, DNS failure,
 * timeout), after every retry was spent. HTTP errors are never thrown: they are returned as
 * `error`.
 */
export class PaymentsConnectionError extends Error {
  override readonly name = 'PaymentsConnectionError';

  constructor(
    message: string,
    /** How many attempts were made, the first one included. */
    readonly attempts: number,
    /** Whether the last attempt ended because it took longer than `timeoutMs`. */
    readonly timedOut: boolean,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Thrown by helpers that cannot return `{ data, error }`, such as `paginate`, when the API answers
 * with an error. It carries the typed envelope and the request id.
 */
export class PaymentsApiError extends Error {
  override readonly name = 'PaymentsApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The stable error code, or `undefined` when the body was not the contract's envelope. */
  readonly code: components['schemas']['ErrorCode'] | undefined;
  /** The `X-Request-Id` of the failed call; quote it to support. */
  readonly requestId: string | undefined;

  constructor(
    readonly response: Response,
    /** The parsed body: the error envelope when the server honours the contract. */
    readonly body: unknown,
  ) {
    const envelope = isErrorEnvelope(body) ? body : undefined;
    const requestId = envelope?.error.request_id ?? response.headers.get('X-Request-Id') ?? undefined;
    super(
      `${response.status} ${envelope?.error.code ?? response.statusText}: ${envelope?.error.message ?? 'no error envelope'}` +
        (requestId ? ` (request ${requestId})` : ''),
    );
    this.status = response.status;
    this.code = envelope?.error.code;
    this.requestId = requestId;
  }
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const { error } = body;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string';
}

/** Why `verifyWebhook` rejected a delivery. */
export type WebhookVerificationFailure =
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'malformed_payload';

/** Thrown by `verifyWebhook` when a delivery cannot be trusted; `reason` says why. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}
