import type { Response } from 'express';
import type { RenderedJson } from '../domain/lists.js';

export type { RenderedJson };

/** The success envelope of the seed: `{ status: 'success', data }`. */
export function success<T>(data: T): { status: 'success'; data: T } {
  return { status: 'success', data };
}

export function sendSuccess(res: Response, status: number, data: unknown): void {
  if (throughResJson(res)) res.status(status).json(success(data));
  else sendJsonText(res, status, JSON.stringify(success(data)));
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
 * test/server/sent-json.test.ts checks that both answer alike.
 */
function sendJsonText(res: Response, status: number, json: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  if (res.req.method === 'HEAD') res.end();
  else res.end(json);
}

/**
 * Sends a body already rendered to JSON text (a list's page, rendered where it was read): the
 * bytes and headers `res.json` sends for the object it came from. With response validation on
 * (development and tests) it goes through `res.json` instead, which the contract validator
 * checks; test/server/rendered-lists.test.ts checks that both ways answer alike.
 */
export function sendRendered(res: Response, status: number, json: RenderedJson): void {
  if (throughResJson(res)) res.status(status).json(JSON.parse(json));
  else sendJsonText(res, status, json);
}
