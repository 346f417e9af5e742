import { describe, expect, it } from 'vitest';
import { TokenCache } from '../../server/operators/http-call.js';

describe('an operator access token', () => {
  it('of 60 minutes is fetched again 10 minutes before it expires, not sooner', async () => {
    let now = 0;
    let fetched = 0;
    const cache = new TokenCache(
      async () => ({ value: `token-${++fetched}`, expiresInSeconds: 3600 }),
      () => now,
    );
    expect(await cache.get()).toBe('token-1');
    now = 49 * 60_000;
    expect(await cache.get()).toBe('token-1');
    now = 50 * 60_000;
    expect(await cache.get()).toBe('token-2');
  });
});
