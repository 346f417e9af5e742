/**
 * Date-time query parameters accept an unencoded `:`, and `path=` an unencoded `/`: the
 * contract's own examples, pasted into curl, must work. A value that is still wrong is refused
 * for what it is, not for its characters.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server.js';

const server = useTestServer();

/** Sends the query string exactly as written, as curl does. */
function get(pathAndQuery: string) {
  return server.raw('GET', pathAndQuery);
}

describe('reserved characters in query values', () => {
  it('created_gte and created_lt take the example date-times as written', async () => {
    for (const path of ['/payments', '/payouts', '/topups', '/balance/transactions', '/events', '/logs']) {
      const response = await get(`${path}?created_gte=2026-11-01T00:00:00Z&created_lt=2026-12-01T00:00:00Z`);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
    const report = await get(
      '/reports/balance-transactions?created_gte=2026-11-01T00:00:00Z&created_lt=2026-12-01T00:00:00Z',
    );
    expect(report.status).toBe(200);
  });

  it('path= takes an unencoded path and filters by it', async () => {
    await server.raw('GET', '/balance');
    await server.flushLogs();
    const response = await get('/logs?path=/v1/balance');
    expect(response.status).toBe(200);
    expect(response.body.data.items.length).toBeGreaterThan(0);
    for (const item of response.body.data.items) expect(item.path).toBe('/v1/balance');
  });

  it('a malformed date-time is still refused, as invalid_parameter', async () => {
    const response = await get('/payments?created_gte=2026-13-01T00:00:00Z');
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_parameter', param: 'created_gte' });
  });
});
