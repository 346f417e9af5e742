import type { Response } from 'express';
import type { RenderedJson } from '../domain/lists.js';

/** The success envelope of the seed: `{ status: 'success', data }`. */
export function success<T>(data: T): { status: 'success'; data: T } {
  return { status: 'success', data };
}

export function sendSuccess(res: Response, status: number, data: unknown): void {
  res.status(status).json(success(data));
}

/**
 * Sends a body already rendered to JSON text (a list's page, rendered where it was read): the
 * bytes and headers `res.json` sends for the object it came from. With response validation on
 * (development and tests) it goes through `res.json` instead, which the contract validator
 * checks; test/server/rendered-lists.test.ts checks that both ways answer alike.
 */
export function sendRendered(res: Response, status: number, json: RenderedJson, validated: boolean): void {
  if (validated) res.status(status).json(JSON.parse(json));
  else res.status(status).type('application/json').send(json);
}
