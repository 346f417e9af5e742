/**
 * The assertion every refused request is held to: the contract's error envelope with the
 * expected status and code, valid against the contract's `ErrorResponse`, carrying the
 * response's request id, and nothing internal (stack frames, file positions, SQL).
 */
import { expect } from 'vitest';
import type { RawReply } from './api.js';
import { schemaErrors, spec } from './spec.js';

const errorSchema = spec.components.schemas.ErrorResponse;

/** Stack frames, file positions and SQL: none of it may reach an integrator. */
const internals =
  /\n\s+at\s|\bat \S+ \(|\.(?:ts|js|cjs|mjs):\d+|node_modules|SQLITE|\bSELECT\b|\bINSERT INTO\b|\bUPDATE \w+ SET\b|\bDELETE FROM\b|"stack"/i;

export function expectApiError(response: RawReply, status: number, code: string) {
  expect({ status: response.status, code: response.body?.error?.code }, response.text).toEqual({
    status,
    code,
  });
  expect(schemaErrors(errorSchema, response.body), response.text).toEqual([]);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_[0-9A-Za-z]{24}$/);
  expect(response.body.error.request_id).toBe(requestId);
  expect(response.text).not.toMatch(internals);
}
