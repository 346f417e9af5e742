import type { Caller, IdempotencyIntent } from '../domain/context.js';

/** What the middleware learns about a request, for the ones after it and for the call log. */
export interface RequestContext {
  requestId: string;
  startedAt: bigint;
  caller?: Caller;
  idempotency?: Pick<IdempotencyIntent<unknown>, 'key' | 'fingerprint'>;
  errorCode?: string;
  /** The signed-in dashboard user, whose actions the call log records with their id. */
  dashboardUserId?: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    context: RequestContext;
  }
}
