import express from 'express';
import { utf8Only } from './text-fields.js';

/**
 * Parses JSON bodies up to `limitBytes`. Malformed JSON and oversized bodies become errors the
 * error handler turns into `malformed_json` and `payload_too_large`; a body of another type is
 * left unparsed for the contract validator to refuse (`unsupported_media_type`).
 */
export function jsonBody(limitBytes: number) {
  return express.json({
    limit: limitBytes,
    strict: true,
    type: ['application/json', 'application/*+json'],
    verify: utf8Only,
  });
}
