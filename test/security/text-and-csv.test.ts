/**
 * Attack: text that displays differently from what it is (bidi overrides: "gpj.exe" shown as
 * "exe.jpg"), that hides content (NUL, control characters), that is not valid text at all
 * (invalid UTF-8, lone surrogates), or that a spreadsheet runs as a formula when an export
 * is opened.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { csvField } from '../../server/http/csv.js';
import { sandbox } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

describe('names, descriptions and references refuse hidden and disguising characters', () => {
  const server = useTestServer();

  const bad: Array<[string, string]> = [
    ['NUL', 'Shop\u0000admin'],
    ['a newline', 'Shop\nInjected log line'],
    ['an escape sequence', 'Shop\u001b[31mred'],
    ['DEL', 'Shop\u007f'],
    ['a C1 control', 'Shop\u0085'],
    ['a right-to-left override', 'Invoice \u202Efdp.exe'],
    ['a left-to-right isolate', 'Shop\u2066x\u2069'],
  ];

  for (const [what, text] of bad) {
    it(`a service name with ${what} is 400 invalid_text naming the field`, async () => {
      const response = await server.raw('POST', '/services', { body: { name: text, type: 'website' } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_text');
      expect(response.body.error.param).toBe('name');
      expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
    });
  }

  it('descriptions and references, nested ones included, are checked too', async () => {
    const service = await server.raw('POST', '/services', {
      body: { name: 'Fine', description: 'ok\u202E', type: 'website' },
    });
    expect(service.body.error.param).toBe('description');
    const endpoint = await server.raw('POST', '/webhook-endpoints', {
      body: { url: 'http://127.0.0.1:9/x', description: 'x\u0000' },
    });
    expect(endpoint.body.error.code).toBe('invalid_text');
    const bulk = await server.raw('POST', '/payouts/bulk', {
      body: {
        currency: 'XAF',
        items: [
          { amount: 100, recipient_msisdn: sandbox.mtn.succeeds, payout_type: 'withdrawal', reference: 'ok' },
          {
            amount: 100,
            recipient_msisdn: sandbox.mtn.succeeds,
            payout_type: 'withdrawal',
            reference: 'x\u202Ey',
          },
        ],
      },
    });
    expect(bulk.status).toBe(400);
    expect(bulk.body.error.code).toBe('invalid_text');
    expect(bulk.body.error.param).toBe('items[1].reference');
  });

  it('ordinary text in any script is accepted', async () => {
    const response = await server.raw('POST', '/services', {
      body: { name: 'Café Ndolè – مقهى 🍲', description: 'Plats du jour, livrés', type: 'website' },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.name).toBe('Café Ndolè – مقهى 🍲');
  });

  it('a body that is not valid UTF-8 is 400 invalid_text, not silently patched', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name":"Shop'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","type":"website"}'),
    ]);
    const answer = await new Promise<{ status: number; body: string; requestId: unknown }>(
      (resolve, reject) => {
        const req = httpRequest(
          `${server.url}/services`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${server.test.key}`,
              'x-api-user': server.test.apiUser,
              'content-type': 'application/json',
              'content-length': String(bytes.length),
            },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              body += c;
            });
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, body, requestId: res.headers['x-request-id'] }),
            );
          },
        );
        req.on('error', reject);
        req.end(bytes);
      },
    );
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.body);
    expect(body.error.code).toBe('invalid_text');
    expect(body.error.request_id).toBe(answer.requestId);
    const list = await server.raw('GET', '/services');
    expect(list.text).not.toContain('\ufffd');
  });
});

describe('CSV cells never run as formulas', () => {
  it('text starting with = + - @, a tab or a carriage return is prefixed with a quote', () => {
    expect(csvField('=HYPERLINK("http://evil.example","click")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""click"")"`,
    );
    expect(csvField('+1+1')).toBe("'+1+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField(`Payment from ${sandbox.mtn.succeeds}`)).toBe(`Payment from ${sandbox.mtn.succeeds}`);
    // Numbers stay numbers: a debit is still -2500 to a spreadsheet.
    expect(csvField(-2500)).toBe('-2500');
  });
});
