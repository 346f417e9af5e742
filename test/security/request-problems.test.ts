/**
 * Attack: bodies built to make the answer expensive or to hide problems. A body whose text is
 * bad and whose fields are wrong gets one answer listing both; a body with thousands of problems
 * gets a bounded answer; a body nested thousands of levels deep is a 400 with its own code, never
 * a 500 (a recursive walk over the body once overflowed the stack) and never an error log.
 * Against a real listener, over HTTP, on either engine.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../support/fixtures.js';
import { collectingLogger, errorsSince } from '../support/log-lines.js';
import { rawBytes } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
const { logger, lines } = collectingLogger();

beforeAll(async () => {
  server = await startTestServer({}, { logger });
});
afterAll(() => server.close());

const postJson = (path: string, rawBody: string) =>
  server.raw('POST', path, { rawBody, headers: { 'content-type': 'application/json' } });

describe('every problem of a request, in one answer', () => {
  it('a text problem is listed with the schema problems of the same body, not alone', async () => {
    const response = await server.raw('POST', '/services', {
      body: { name: 'Shop\u202Efdp.exe', type: 'not-a-type', colour: 'red' },
    });
    expect(response.status, response.text).toBe(400);
    const { error } = response.body;
    expect(error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ param: 'name', code: 'invalid_text' }),
        expect.objectContaining({ param: 'type', code: 'invalid_field' }),
        expect.objectContaining({ param: 'colour', code: 'unknown_field' }),
      ]),
    );
    expect(error.details_total).toBe(error.details.length);
    // The top level repeats the most important one (an unknown field before a bad text).
    expect(error).toMatchObject({ code: 'unknown_field', param: 'colour' });
  });

  it('a lone surrogate and a control character in two places are both named', async () => {
    const response = await postJson(
      '/payouts/bulk',
      JSON.stringify({
        currency: 'XAF',
        items: [
          {
            amount: 100,
            recipient_msisdn: sandbox.mtn.succeeds,
            payout_type: 'withdrawal',
            reference: 'a\u0000',
          },
          { amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal', reference: 'ok' },
        ],
      }).replace('"ok"', '"\\udfff"'),
    );
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.details).toEqual([
      expect.objectContaining({ param: 'items[1].reference', code: 'invalid_field' }),
      expect.objectContaining({ param: 'items[0].reference', code: 'invalid_text' }),
    ]);
  });

  it('a body with thousands of problems is answered with the first 50 and their count', async () => {
    // 64 KiB of unknown fields and bad references: thousands of problems, one small answer.
    const item: Record<string, unknown> = { amount: 0, recipient_msisdn: 'x', reference: '\u0001' };
    const items = Array.from({ length: 400 }, () => item);
    const body = JSON.stringify({
      currency: 'XAF',
      items,
      ...Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, 1])),
    });
    expect(Buffer.byteLength(body)).toBeLessThan(65_536);
    const response = await postJson('/payouts/bulk', body);
    expect(response.status, response.text.slice(0, 500)).toBe(400);
    const { error } = response.body;
    expect(error.details).toHaveLength(50);
    expect(error.details_total).toBeGreaterThan(3000);
    expect(Buffer.byteLength(response.text)).toBeLessThan(16_384);
    expect(errorsSince(lines)).toEqual([]);
  });
});

describe('nesting is bounded before anything walks the body', () => {
  const deep = (levels: number, open = '[', close = ']') => `${open.repeat(levels)}${close.repeat(levels)}`;
  const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('10,000 levels, of arrays or objects, at the top or in a field, are 400 too_deeply_nested', async () => {
    const from = lines.length;
    for (const body of [
      deep(10_000),
      deepObject(10_000),
      `{"name":"Shop","type":"website","description":${deep(10_000)}}`,
      `{"name":"Shop","type":"website","metadata":${deepObject(10_000)}}`,
    ]) {
      const response = await postJson('/services', body);
      expect(response.status, response.text).toBe(400);
      expect(response.body.error.code).toBe('too_deeply_nested');
    }
    expect(errorsSince(lines, from)).toEqual([]);
  });

  it('the limit is 32 levels: 33 are refused, 32 go on to the contract checks', async () => {
    const over = await postJson('/services', `{"name":"Shop","type":"website","description":${deep(32)}}`);
    expect(over.body.error.code).toBe('too_deeply_nested');
    const within = await postJson('/services', `{"name":"Shop","type":"website","description":${deep(31)}}`);
    expect(within.status).toBe(400);
    expect(within.body.error).toMatchObject({ code: 'invalid_field', param: 'description' });
    // Brackets inside strings are text, not nesting, escaped quotes and backslashes included.
    const name = `\\"${'['.repeat(40)}\\`;
    const text = await postJson(
      '/services',
      JSON.stringify({ name, description: '{'.repeat(40), type: 'website' }),
    );
    expect(text.status, text.text).toBe(201);
  });

  it('a chunked or gzip body is bounded the same way', async () => {
    const body = `{"name":"Shop","type":"website","description":${deep(10_000)}}`;
    const auth = `Authorization: Bearer ${server.test.key}\r\nX-API-User: ${server.test.apiUser}\r\n`;
    const head = `POST /v1/services HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nConnection: close\r\n`;
    const chunked = await rawBytes(server.service.port, [
      `${head}Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    ]);
    expect(chunked.status, chunked.text).toBe(400);
    expect(chunked.body.error.code).toBe('too_deeply_nested');
    const gzipped = gzipSync(body);
    const compressed = await rawBytes(server.service.port, [
      Buffer.from(`${head}Content-Encoding: gzip\r\nContent-Length: ${gzipped.length}\r\n\r\n`),
      gzipped,
    ]);
    expect(compressed.status, compressed.text).toBe(400);
    expect(compressed.body.error.code).toBe('too_deeply_nested');
  });
});
