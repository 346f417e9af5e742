/**
 * `npm run build`: compiles the server (and the docs builder it loads) to dist/ with tsc
 * (server/tsconfig.build.json), then stamps dist/ so `npm start` knows it is current. Plain
 * JavaScript on purpose: `npm start` runs it without a TypeScript loader.
 *
 *   npm run build                       # compile now
 *   node scripts/build.mjs --if-stale   # only when a source is newer than the last build
 *
 * `npm ci` runs it as `prepare` (with --if-possible: an install without dev dependencies has no
 * tsc, and then `npm start` says how to build).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const root = dirname(dirname(fileURLToPath(import.meta.url)));
const stamp = join(root, 'dist', '.build-stamp');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
/** What the compiled server is made of: a change to any of them makes dist/ stale. */
const sources = [
  'server',
  'scripts/docs',
  'scripts/lib',
  'generated',
  'tsconfig.json',
  'package-lock.json',
  'openapi.yaml',
];

/** The newest modification time under `path`, in ms (TypeScript files, JSON configs, the contract). */
function newest(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return /\.(ts|json|yaml)$/.test(path) ? info.mtimeMs : 0;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** True when dist/ is missing or older than a source. */
export function isStale() {
  const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return sources.some((source) => newest(join(root, source)) > built);
}

/** Compiles to dist/ and stamps it; throws with tsc's output when compiling fails. */
export function build() {
  if (!existsSync(tsc)) {
    throw new Error(
      'TypeScript is not installed: run `npm ci` (with dev dependencies), then `npm run build`.',
    );
  }
  const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'server', 'tsconfig.build.json')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`tsc failed to compile the server:\n${run.stdout}${run.stderr}`);
  writeParsedContract();
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

/**
 * openapi.yaml parsed, as JSON, with the SHA-256 of the text it came from: a process that starts
 * a server reads it in 3 ms where parsing the YAML takes 320 (server/http/contract.ts, which
 * falls back to the YAML whenever the digest differs, so a stale copy is never used).
 *
 * The document is checked here against the OpenAPI schema, with the contract validator's own
 * checker, and the copy says so (`checked`): a server that loads it skips that check, which
 * cost 0.25 CPU-s of every start (a server that parses the YAML itself still makes it). A
 * contract that fails it fails the build, and no copy is written.
 */
function writeParsedContract() {
  const copy = parsedContract(readFileSync(join(root, 'openapi.yaml'), 'utf8'));
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'dist', 'openapi.json'), JSON.stringify(copy));
}

/**
 * The copy of a contract's `text` that the build writes: parsed, with the text's SHA-256, once
 * checked against the OpenAPI schema. Throws, naming what is wrong, when the check fails.
 */
export function parsedContract(text) {
  const document = parse(text);
  const problems = openApiSchemaProblems(document);
  if (problems.length > 0) {
    throw new Error(
      `openapi.yaml does not follow the OpenAPI ${document?.openapi} schema:\n${JSON.stringify(problems.slice(0, 10), null, 2)}`,
    );
  }
  return { sha256: createHash('sha256').update(text).digest('hex'), checked: true, document };
}

/** What express-openapi-validator would refuse in `document` at start-up (validateApiSpec). */
function openApiSchemaProblems(document) {
  const require = createRequire(import.meta.url);
  const {
    OpenAPISchemaValidator,
  } = require('express-openapi-validator/dist/framework/openapi.schema.validator.js');
  return new OpenAPISchemaValidator({ version: document?.openapi, validateApiSpec: true }).validate(document)
    .errors;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  const ifPossible = process.argv.includes('--if-possible');
  try {
    if (ifPossible && !existsSync(tsc)) {
      console.error('build: TypeScript is not installed; skipped (npm start will say how to build).');
    } else if (!ifStale || isStale()) {
      const started = performance.now();
      build();
      console.error(`build: dist/ compiled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
