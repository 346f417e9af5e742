import type { Response } from 'express';

/** The success envelope of the seed: `{ status: 'success', data }`. */
export function success<T>(data: T): { status: 'success'; data: T } {
  return { status: 'success', data };
}

export function sendSuccess(res: Response, status: number, data: unknown): void {
  res.status(status).json(success(data));
}
