import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../paths.js';

/** openapi.yaml, the contract the server honours. */
export const specPath = join(projectRoot, 'openapi.yaml');

/** A contract as loaded, and whether the build checked it against the OpenAPI schema. */
export interface LoadedContract {
  document: unknown;
  checked: boolean;
}

let loaded: LoadedContract | undefined;

/** The parsed contract that `npm run build` leaves beside the compiled server (scripts/build.mjs). */
const parsedPath = join(projectRoot, 'dist', 'openapi.json');

/**
 * openapi.yaml parsed once per process: the validator, the route table and the docs page all
 * read it. Parsing the YAML is a large part of a start, so the copy that the build parsed to
 * JSON is read instead when it came from the same text (the SHA-256 of openapi.yaml matches;
 * docs/performance.md); otherwise, or without a build, the YAML is parsed. Read-only: callers that change
 * it must copy it first.
 *
 * @example
 * const servers = (contractDocument() as { servers?: Array<{ url: string }> }).servers;
 */
export function contractDocument(): unknown {
  return loadedContract().document;
}

/**
 * True when the contract is the build's copy, which the build checked against the OpenAPI
 * schema (scripts/build.mjs): the contract validator need not check it again at start-up.
 */
export function contractCheckedByBuild(): boolean {
  return loadedContract().checked;
}

function loadedContract(): LoadedContract {
  loaded ??= parseContract(readFileSync(specPath, 'utf8'));
  return loaded;
}

/** `text` (openapi.yaml's) parsed: the build's copy at `builtPath` if it came from this text. */
export function parseContract(text: string, builtPath = parsedPath): LoadedContract {
  const sha256 = createHash('sha256').update(text).digest('hex');
  try {
    const built = JSON.parse(readFileSync(builtPath, 'utf8')) as {
      sha256?: unknown;
      checked?: unknown;
      document?: unknown;
    };
    if (built.sha256 === sha256 && built.document) {
      return { document: built.document, checked: built.checked === true };
    }
  } catch {
    // No build yet, or an unreadable one: the YAML is the source anyway.
  }
  // Loaded only here: with the build's copy a server never loads the YAML parser's modules.
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return { document: parse(text), checked: false };
}
