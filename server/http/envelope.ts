import type { Response } from 'express';

/** The success envelope of the seed: `{ status: 'success', data }`. */
export function success<T>(data: T): { status: 'success'; data: T } {
  return { status: 'success', data };
}

/**
 * The one way the API sends JSON: `json` is the body's text, rendered once (by a write, a list's
 * read, `sendSuccess` or the error handler), sent with the status, headers and bytes `res.json`
 * would send for it. With response validation on (development and tests) it goes through
 * `res.json` instead, which the contract validator wraps to check the response;
 * test/server/rendered-lists.test.ts and sent-json.test.ts check that both ways answer alike.
 */
export function sendJson(res: Response, status: number, json: string): void {
  if (throughResJson(res)) res.status(status).json(JSON.parse(json));
  else sendJsonText(res, status, json);
}

/** `{ status: 'success', data }`, rendered here and sent by `sendJson`. */
export function sendSuccess(res: Response, status: number, data: unknown): void {
  sendJson(res, status, JSON.stringify(success(data)));
}

/**
 * When a response must go through `res.json` after all: the contract validator checks this
 * one (it wraps `res.json` on the response itself: response validation, development and tests).
 */
function throughResJson(res: Response): boolean {
  return Object.hasOwn(res, 'json');
}

/**
 * Sends JSON text with the status, headers and bytes `res.json` sends for it (no ETag: the
 * app turns them off), without its steps for other kinds of body: choosing and parsing a
 * Content-Type, copying the text into a Buffer, a second write for the body (docs/performance.md).
 */
function sendJsonText(res: Response, status: number, json: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  if (res.req.method === 'HEAD') res.end();
  else res.end(json);
}
