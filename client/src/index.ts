/**
 * The TypeScript SDK of the Payments and Payouts API: openapi-fetch typed by the contract, with
 * authentication, sandbox mode, idempotency keys, retries, pagination and webhook verification.
 */
export type * from './contract.js';
export { createPaymentsClient, type PaymentsClient } from './create-client.js';
export {
  type ConfigErrorCode,
  type ErrorEnvelope,
  PaymentsApiError,
  PaymentsConfigError,
  PaymentsConnectionError,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from './errors.js';
export { authMiddleware } from './middleware/auth.js';
export { idempotencyMiddleware } from './middleware/idempotency.js';
export { sandboxMiddleware } from './middleware/sandbox.js';
export {
  type DocumentedError,
  type ErrorMethod,
  type ErrorPath,
  type OperationError,
  operationError,
  type UndocumentedError,
} from './operation-error.js';
export type { PaymentsClientOptions } from './options.js';
export {
  type AutoPagingOptions,
  autoPagingMaxLimit,
  autoPagingToArray,
  type ListInit,
  type ListItem,
  type ListPath,
  paginate,
} from './paginate.js';
export { requestIdOf } from './request-id.js';
export type { RetryOptions } from './retry-policy.js';
export { type Fetch, type RetryingFetchOptions, retryingFetch } from './retrying-fetch.js';
export {
  generateTestHeader,
  type TestHeaderOptions,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventOf,
} from './webhooks.js';
