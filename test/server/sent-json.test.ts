/**
 * `sendSuccess` and `sendJson` (server/http/envelope.ts) write the JSON text themselves
 * in production, where Express's `res.json` went through `res.send`; with response validation
 * on they still call `res.json`. Both ways must answer alike:
 * the same status, headers and bytes, for every method that reaches them, for bodies with
 * every kind of character, and for conditional requests.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, sendSuccess, success } from '../../server/http/envelope.js';

const bodies: Record<string, unknown> = {
  payment: { id: 'pay_0123456789ABCDEFabcdefgh', amount: 2500, currency: 'XAF', refunded: null, paid: true },
  text: { reference: 'order "7" é ☕ \u2028 \u2029 </script> & <b>', emoji: '👩🏽‍💻', tab: '\t\n' },
  nested: { items: [{ a: [1, 2.5, -3e21] }, [], {}], has_more: false, next_cursor: null },
  empty: {},
  list: [],
};

let origin: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.all('/express/:name/:status', (req, res) => {
    res.status(Number(req.params.status)).json(success(bodies[req.params.name]));
  });
  app.all('/success/:name/:status', (req, res) => {
    sendSuccess(res, Number(req.params.status), bodies[req.params.name]);
  });
  app.all('/rendered/:name/:status', (req, res) => {
    sendJson(res, Number(req.params.status), JSON.stringify(success(bodies[req.params.name])));
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

async function answer(path: string, method: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${origin}${path}`, { method, headers });
  return {
    status: response.status,
    headers: [...(response.headers as unknown as Iterable<[string, string]>)].filter(
      ([name]) => name !== 'date',
    ),
    bytes: Buffer.from(await response.arrayBuffer()).toString('hex'),
  };
}

describe('JSON written directly answers as res.json does', () => {
  for (const name of Object.keys(bodies)) {
    for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE']) {
      it(`${method} of the ${name} body`, async () => {
        for (const status of [200, 201, 202]) {
          const expected = await answer(`/express/${name}/${status}`, method);
          expect(expected.status).toBe(status);
          expect(await answer(`/success/${name}/${status}`, method)).toEqual(expected);
          expect(await answer(`/rendered/${name}/${status}`, method)).toEqual(expected);
        }
      });
    }
  }

  it('a conditional GET gets the answer Express gives it', async () => {
    for (const headers of <Array<Record<string, string>>>[
      { 'if-none-match': '*' },
      { 'if-none-match': '"abc"' },
      { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
    ]) {
      const expected = await answer('/express/payment/200', 'GET', headers);
      expect(await answer('/success/payment/200', 'GET', headers)).toEqual(expected);
      expect(await answer('/rendered/payment/200', 'GET', headers)).toEqual(expected);
    }
  });
});
