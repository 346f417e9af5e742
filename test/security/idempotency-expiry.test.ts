/**
 * Idempotency records are a copy of past responses: they are kept 24 hours, then forgotten and
 * purged from the database, so the table is not an ever-growing archive of what the API answered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../support/database.js';
import { startTestServer, type TestServer } from '../support/server.js';

const hour = 3_600_000;

/** How many idempotency records the server's database holds, read from outside the server. */
async function storedRecords(server: TestServer): Promise<number> {
  const [row] = await queryRows<{ n: number }>(server, 'SELECT COUNT(*) AS n FROM idempotency_keys');
  return row?.n ?? 0;
}

describe('idempotency records expire after 24 hours and are purged', () => {
  // A server per test: each counts the records of its own requests, in any order.
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.close());

  const createService = (key: string) =>
    server.raw('POST', '/services', {
      body: { name: 'Idempotent shop', type: 'website' },
      headers: { 'idempotency-key': key },
    });

  it('within 24 hours a retry replays the first answer; the record stays through a retention pass', async () => {
    const first = await createService('expiry-1');
    expect(first.status).toBe(201);
    server.clock.advance(23 * hour);
    await server.purgeExpired();
    expect(await storedRecords(server)).toBe(1);
    const again = await createService('expiry-1');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.service_id).toMatch(/^svc_/);
    expect(again.body.data.service_id).toBe(first.body.data.service_id);
  });

  it('after 24 hours the record is purged from the database, and the key starts a new request', async () => {
    const first = await createService('expiry-2');
    expect(first.status, first.text).toBe(201);
    server.clock.advance(24 * hour + 1);
    await server.purgeExpired();
    expect(await storedRecords(server)).toBe(0);
    const again = await createService('expiry-2');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.data.service_id).not.toBe(first.body.data.service_id);
  });
});
