import type { Caller } from '../domain/context.js';
import type { ApiErrorDetail } from '../domain/errors.js';

/** What the middleware learns about a request, for the ones after it and for the call log. */
interface RequestContext {
  requestId: string;
  startedAt: bigint;
  caller?: Caller;
  errorCode?: string;
  /** The contract's path template the request matched (`/payments/{id}`). */
  route?: string;
  /** A HEAD request the contract validator is seeing as GET. */
  headAsGet?: boolean;
  /** The signed-in dashboard user, whose actions the call log records with their id. */
  dashboardUserId?: string;
  /** The text problems of the JSON body, answered with the contract validator's (text-fields.ts). */
  textProblems?: ApiErrorDetail[];
}

declare module 'express-serve-static-core' {
  interface Request {
    context: RequestContext;
  }
}
