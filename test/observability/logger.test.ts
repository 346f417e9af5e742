import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { childForRequest, createLogger, type LoggerOptions } from '../../server/observability/logger.js';
import { startTestServer } from '../support/server.js';

const liveKey = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
const testKey = 'sk_test_9aB7cD5eF3gH1iJ0kL2mN4oP';
const webhookSecret = 'whsec_8wqXbq1c5tV0pH3nLr2sJm7aKe4fYd9Z';

/** A logger whose output is kept in memory, as raw text and as parsed lines. */
function capture(options: Omit<LoggerOptions, 'destination'> = {}) {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString('utf8');
      callback();
    },
  });
  const logger = createLogger({ ...options, destination });
  return {
    logger,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('writes one JSON object per line with an ISO time, the level as a word and the message', () => {
    const { logger, lines, text } = capture();
    logger.info({ port: 3000 }, 'listening');
    logger.error('boom');

    expect(text().endsWith('\n')).toBe(true);
    const [first, second] = lines();
    expect(first).toMatchObject({ level: 'info', msg: 'listening', port: 3000 });
    expect(new Date(first?.time as string).toISOString()).toBe(first?.time);
    expect(second).toMatchObject({ level: 'error', msg: 'boom' });
  });

  it('never prints a bearer key or a secret, wherever the known fields carry them', () => {
    const { logger, text, lines } = capture();
    logger.info(
      {
        req: {
          method: 'POST',
          url: '/v1/payouts',
          headers: {
            authorization: `Bearer ${liveKey}`,
            'x-api-user': 'a5f1c1f0-0000-4000-8000-000000000001',
          },
        },
      },
      'request',
    );
    logger.info({ authorization: `Bearer ${testKey}` }, 'top-level header');
    logger.info({ headers: { authorization: `Bearer ${testKey}` } }, 'bare headers');
    logger.info(
      { endpoint: { id: 'we_1', url: 'https://shop.example.com/hooks', secret: webhookSecret } },
      'endpoint',
    );
    logger.info({ key: { id: 'key_1', secret_key: liveKey, api_key: testKey } }, 'rotated');
    logger.info({ secret: webhookSecret, secret_key: liveKey, api_key: testKey }, 'top-level secrets');

    const output = text();
    for (const secret of [liveKey, testKey, webhookSecret]) expect(output).not.toContain(secret);
    expect(output).not.toContain('Bearer');

    const [request, , , endpoint, rotated, topLevel] = lines();
    expect(request).toMatchObject({
      req: {
        method: 'POST',
        url: '/v1/payouts',
        headers: { authorization: '[REDACTED]', 'x-api-user': 'a5f1c1f0-0000-4000-8000-000000000001' },
      },
    });
    expect(endpoint).toMatchObject({
      endpoint: { id: 'we_1', url: 'https://shop.example.com/hooks', secret: '[REDACTED]' },
    });
    expect(rotated).toMatchObject({ key: { id: 'key_1', secret_key: '[REDACTED]', api_key: '[REDACTED]' } });
    expect(topLevel).toMatchObject({ secret: '[REDACTED]', secret_key: '[REDACTED]', api_key: '[REDACTED]' });
  });

  it('does not modify the objects it logs', () => {
    const { logger } = capture();
    const endpoint = { secret: webhookSecret };
    logger.info({ endpoint }, 'endpoint');
    expect(endpoint.secret).toBe(webhookSecret);
  });

  it('writes only lines at or above the configured level', () => {
    const { logger, lines } = capture({ level: 'warn' });
    logger.debug('debug');
    logger.info('info');
    logger.warn('warn');
    logger.error('error');
    expect(lines().map((line) => line.msg)).toEqual(['warn', 'error']);
  });

  it('writes nothing at level silent', () => {
    const { logger, text } = capture({ level: 'silent' });
    logger.fatal('fatal');
    expect(text()).toBe('');
  });

  it('names the process on every line when given a name', () => {
    const { logger, lines } = capture({ name: 'webhook-worker' });
    logger.info('tick');
    expect(lines()[0]).toMatchObject({ name: 'webhook-worker' });
  });
});

describe('childForRequest', () => {
  it('puts the request id on every line, including lines of its own children', () => {
    const { logger, lines } = capture();
    const log = childForRequest(logger, 'req_q5dqX7vNK4145OKjI1zsxdZR');
    log.info('start');
    log.child({ component: 'ledger' }).warn('slow');
    logger.info('unrelated');

    const [start, slow, unrelated] = lines();
    expect(start).toMatchObject({ request_id: 'req_q5dqX7vNK4145OKjI1zsxdZR', msg: 'start' });
    expect(slow).toMatchObject({ request_id: 'req_q5dqX7vNK4145OKjI1zsxdZR', component: 'ledger' });
    expect(unrelated).not.toHaveProperty('request_id');
  });

  it('keeps redacting secrets', () => {
    const { logger, text } = capture();
    childForRequest(logger, 'req_1').info(
      { req: { headers: { authorization: `Bearer ${liveKey}` } } },
      'request',
    );
    expect(text()).not.toContain(liveKey);
    expect(text()).toContain('[REDACTED]');
  });
});

describe('the request line of a real server', () => {
  it('is one line per answered request, carrying the X-Request-Id the client saw and no key', async () => {
    const { logger, lines, text } = capture({ level: 'info' });
    const server = await startTestServer({}, { logger });
    try {
      const ok = await server.raw('GET', '/balance');
      const refused = await server.raw('GET', '/balance', {
        as: { apiUser: server.test.apiUser, key: testKey },
      });
      expect([ok.status, refused.status]).toEqual([200, 401]);
      const requests = lines().filter((line) => line.msg === 'request');
      expect(requests).toEqual([
        expect.objectContaining({
          request_id: ok.headers.get('x-request-id'),
          path: '/v1/balance', // the full path, whether a route or the error handler answered
          status: 200,
          operation: 'getBalance',
        }),
        expect.objectContaining({
          request_id: refused.headers.get('x-request-id'),
          path: '/v1/balance',
          status: 401,
          error_code: 'invalid_api_key',
        }),
      ]);
      expect(text()).not.toContain(testKey);
      expect(text()).not.toContain(server.test.key);
    } finally {
      await server.close();
    }
  });
});
