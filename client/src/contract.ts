/**
 * The contract's types, generated from `openapi.yaml`. Every file of the client imports them from
 * here, and the package build compiles a copy of `generated/openapi.ts` beside the client, so the
 * published package is self-contained.
 */
export type * from '../../generated/openapi.js';

// Names the contract had before its components got names unique across sections (so that other
// generators emit no `Cursor2` or a schema named `Error`); kept so integrators' code still compiles.
import type { components } from '../../generated/openapi.js';
/** @deprecated Use `ErrorResponse`. */
export type Error = components['schemas']['ErrorResponse'];
/** @deprecated Use `ParameterCursorParam`. */
export type ParameterCursor = components['parameters']['CursorParam'];
/** @deprecated Use `RequestBodyPaymentCreateBody`. */
export type RequestBodyPaymentCreate = components['requestBodies']['PaymentCreateBody'];
/** @deprecated Use `HeaderRequestIdHeader`. */
export type HeaderRequestId = components['headers']['RequestIdHeader'];
