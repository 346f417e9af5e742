/**
 * A deliberate contract breach for the suite's self-check, injected from the test side: loaded
 * with `node --import` before server/main.ts, it wraps Express's `res.json` in the server's
 * process. The server's code is untouched, and nothing of this ships: without
 * `CONTRACT_FAULT`, it changes nothing.
 */
import express from 'express';
import { faults } from './faults.js';

const fault = process.env.CONTRACT_FAULT;
if (fault !== undefined && !(fault in faults)) throw new Error(`Unknown CONTRACT_FAULT ${fault}`);

function sandboxMode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sandboxMode);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === 'mode' && v === 'test' ? 'sandbox' : sandboxMode(v)]),
    );
  }
  return value;
}

if (fault) {
  const json = express.response.json;
  express.response.json = function faultyJson(this: express.Response, body: unknown) {
    if (fault === 'field' && this.statusCode < 300) return json.call(this, sandboxMode(body));
    if (
      fault === 'status' &&
      this.statusCode === 201 &&
      this.req.method === 'POST' &&
      this.req.originalUrl.split('?')[0] === '/v1/services'
    ) {
      this.status(200);
    }
    return json.call(this, body);
  };
  console.warn(`CONTRACT_FAULT=${fault}: ${faults[fault]}`);
}
