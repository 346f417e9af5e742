import type { RequestHandler } from 'express';
import { newId } from '../domain/ids.js';
import './request-context.js';

/** Gives every request an id, echoed in `X-Request-Id` and in every error body. */
export const assignRequestId: RequestHandler = (req, res, next) => {
  const requestId = newId('req');
  req.context = { requestId, startedAt: process.hrtime.bigint() };
  res.setHeader('X-Request-Id', requestId);
  next();
};
