import type { RequestHandler } from 'express';
import { authenticate } from '../domain/accounts.js';
import type { Deps } from '../domain/context.js';
import { ApiError } from '../domain/errors.js';

/**
 * The key of `Authorization: Bearer <key>`. Another scheme (`Basic ...`) carries no API key at
 * all, so it is a missing key, as the contract's error table says; a Bearer header whose key is
 * malformed is a wrong key.
 */
function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  if (!/^Bearer(?:\s|$)/i.test(header)) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : '!';
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** API users are UUIDs, and a UUID's hex digits have no case (RFC 9562): compare them lowered. */
function apiUserOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return uuid.test(header) ? header.toLowerCase() : header;
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
      apiUserOf(req.get('x-api-user')),
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
