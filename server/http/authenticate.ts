import type { RequestHandler } from 'express';
import { authenticate } from '../domain/accounts.js';
import type { Deps } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';

function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  // A malformed Authorization header is a wrong key, not a missing one.
  return match ? match[1] : header === '' ? undefined : '!';
}

/**
 * Resolves `Authorization: Bearer <key>` and `X-API-User` to the calling account and mode, and
 * refuses `test=true` with a live key, so nobody believes they are testing with real money.
 */
export function authenticateCaller(deps: Deps): RequestHandler {
  return async (req, _res, next) => {
    const caller = await authenticate(
      deps.store,
      bearerKey(req.get('authorization')),
      req.get('x-api-user') || undefined,
      deps.clock.now(),
    );
    req.context.caller = caller;
    const test = new URL(req.originalUrl, 'http://x').searchParams.get('test');
    if (test === 'true' && caller.mode === 'live') {
      throw new ApiError(
        400,
        'live_key_in_test_mode',
        'test=true was sent with a live key. Use your test key (sk_test_...) for the sandbox.',
        'test',
      );
    }
    next();
  };
}
