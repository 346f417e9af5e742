import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../paths.js';

/** openapi.yaml, the contract the server honours. */
export const specPath = join(projectRoot, 'openapi.yaml');

let parsed: unknown;

/**
 * openapi.yaml parsed once per process: the validator, the route table and the docs page all
 * read it, and parsing 190 KB of YAML costs about 100 ms of start-up each time. Read-only:
 * callers that change it must copy it first.
 *
 * @example
 * const servers = (contractDocument() as { servers?: Array<{ url: string }> }).servers;
 */
export function contractDocument(): unknown {
  parsed ??= parse(readFileSync(specPath, 'utf8'));
  return parsed;
}
