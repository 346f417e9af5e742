/**
 * Attacks on authentication itself: guessing keys from one address, reading the operational
 * metrics without credentials, and finding the live key in the first start's output.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChildServer } from '../support/child-server.js';
import { startTestServer, type TestServer, useTestServer } from '../support/server.js';

/** A GET from a chosen loopback source address (127.0.0.0/8 all reach the listener). */
function getFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('failed authentication is limited per client address', () => {
  const server = useTestServer({ AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_MS: '60000' });

  it('after 3 wrong keys, the address gets 429 in the envelope with Retry-After, even with the right key', async () => {
    const guesser = '127.0.0.2';
    const wrong = {
      authorization: `Bearer sk_test_${'A'.repeat(32)}`,
      'x-api-user': server.test.apiUser,
    };
    for (let i = 0; i < 3; i++) {
      const answer = await getFrom(guesser, `${server.url}/balance`, wrong);
      expect(answer.status).toBe(401);
    }
    const blocked = await getFrom(guesser, `${server.url}/balance`, wrong);
    expect(blocked.status).toBe(429);
    const body = JSON.parse(blocked.body);
    expect(body.error.code).toBe('too_many_failed_authentications');
    expect(body.error.request_id).toBe(blocked.headers['x-request-id']);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // A right guess from that address teaches nothing: it is refused the same way.
    const right = await getFrom(guesser, `${server.url}/balance`, {
      authorization: `Bearer ${server.test.key}`,
      'x-api-user': server.test.apiUser,
    });
    expect(right.status).toBe(429);

    // Another address is not affected.
    const other = await getFrom('127.0.0.3', `${server.url}/balance`, {
      authorization: `Bearer ${server.test.key}`,
      'x-api-user': server.test.apiUser,
    });
    expect(other.status).toBe(200);
  });
});

describe('/metrics is not public', () => {
  it('without METRICS_TOKEN it does not exist; with one, it needs the token', async () => {
    const off = await startTestServer();
    const token = 'a-long-metrics-token-0123456789';
    const on = await startTestServer({ METRICS_TOKEN: token });
    try {
      const metricsOf = (s: TestServer, headers: Record<string, string> = {}) =>
        fetch(s.url.replace(/\/v1$/, '/metrics'), { headers });

      const hidden = await metricsOf(off);
      expect(hidden.status).toBe(404);
      const hiddenBody = await hidden.json();
      expect(hiddenBody.error.code).toBe('route_not_found');
      expect(hiddenBody.error.request_id).toBe(hidden.headers.get('x-request-id'));

      const attempts: Array<Record<string, string>> = [
        {},
        { authorization: 'Bearer wrong-token-0123456789' },
        { authorization: token },
      ];
      for (const headers of attempts) {
        const refused = await metricsOf(on, headers);
        expect(refused.status).toBe(401);
        const text = await refused.text();
        expect(text).not.toContain('http_requests_total');
        expect(JSON.parse(text).error.request_id).toBe(refused.headers.get('x-request-id'));
      }
      // The API keys of an account are not the metrics token either.
      const withApiKey = await metricsOf(on, { authorization: `Bearer ${on.test.key}` });
      expect(withApiKey.status).toBe(401);

      const allowed = await metricsOf(on, { authorization: `Bearer ${token}` });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('http_requests_total');
    } finally {
      await Promise.all([off.close(), on.close()]);
    }
  });
});

describe('the first start', () => {
  it('prints the test key to get going, but never the live key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'first-start-'));
    const child = await startChildServer({ dbPath: join(dir, 'payments.db'), name: 'first start' });
    try {
      await expect.poll(() => child.output(), { timeout: 15_000 }).toContain('PAYMENTS_API_KEY=');
      const output = child.output();
      expect(output).toMatch(/sk_test_[0-9A-Za-z]{32}/);
      expect(output).not.toMatch(/sk_live_/);
      expect(output).toContain('reset-keys');
    } finally {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
