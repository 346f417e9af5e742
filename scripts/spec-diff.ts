/**
 * `npm run spec:diff -- <git ref>`: what changed in the contract between `<ref>:openapi.yaml`
 * and the work tree's openapi.yaml, breaking changes flagged. Offline: git and the two files.
 *
 *   npm run spec:diff -- main                  the work tree against main
 *   npm run spec:diff -- HEAD~3 --head x.yaml  x.yaml against openapi.yaml three commits ago
 *   npm run spec:diff -- --base a.yaml --head b.yaml
 *
 * Exit status: 0 when nothing breaks, 1 when something does, 2 when the inputs cannot be read.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { parse } from 'yaml';
import type { Json } from './lib/openapi.js';
import { diffSpecs } from './spec-diff/compare.js';
import { formatReport } from './spec-diff/report.js';

export { type Change, type ChangeKind, diffSpecs } from './spec-diff/compare.js';
export { formatReport } from './spec-diff/report.js';

const usage = `Usage: npm run spec:diff -- <git ref> [--head <file>]
       npm run spec:diff -- --base <file> [--head <file>]
Compares the contract at <git ref> (openapi.yaml) or in --base with the work tree's openapi.yaml
(or --head), lists the changes and exits 1 when any of them breaks integrators.`;

/** The command line is wrong: say why, then how to use it. */
class UsageError extends Error {}

/** An input cannot be read or is not an OpenAPI 3 document. */
class InputError extends Error {}

function parseSpec(text: string, name: string): Json {
  let document: Json;
  try {
    document = parse(text);
  } catch (error) {
    throw new InputError(`${name} is not valid YAML: ${(error as Error).message}`);
  }
  if (typeof document?.openapi !== 'string' || !document.openapi.startsWith('3.')) {
    throw new InputError(`${name} is not an OpenAPI 3 document`);
  }
  return document;
}

async function readFromFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

async function readFromGit(ref: string, cwd: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)('git', ['show', `${ref}:./openapi.yaml`], {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new InputError(`Cannot read openapi.yaml at git ref ${ref}: ${stderr || (error as Error).message}`);
  }
}

function diffInputs(base: Json, head: Json) {
  try {
    return diffSpecs(base, head);
  } catch (error) {
    // An unresolvable or circular reference: a broken input, not a breaking change.
    throw new InputError(`Cannot compare the contracts: ${(error as Error).message}`);
  }
}

export interface SpecDiffResult {
  exitCode: 0 | 1 | 2;
  output: string;
}

interface Inputs {
  help: boolean;
  ref?: string;
  base?: string;
  head?: string;
}

const options = {
  base: { type: 'string' },
  head: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseCommandLine(args: string[]): Inputs {
  let values: { base?: string; head?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, allowPositionals: true, options }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { help: true };
  const [ref, ...extra] = positionals;
  if (extra.length > 0 || (ref === undefined) === (values.base === undefined)) {
    throw new UsageError('Give either one git ref or --base <file>.');
  }
  return { help: false, ref, base: values.base, head: values.head };
}

/**
 * Runs the command on its arguments (without `node` and the script), in `cwd`.
 *
 * @example
 * ```ts
 * const { exitCode, output } = await runSpecDiff(['main']);
 * ```
 */
export async function runSpecDiff(args: string[], cwd: string = process.cwd()): Promise<SpecDiffResult> {
  try {
    const inputs = parseCommandLine(args);
    if (inputs.help) return { exitCode: 0, output: usage };
    const baseName = inputs.ref !== undefined ? `${inputs.ref}:openapi.yaml` : (inputs.base ?? '');
    const headName = inputs.head ?? 'the work tree (openapi.yaml)';
    const baseText =
      inputs.ref !== undefined
        ? await readFromGit(inputs.ref, cwd)
        : await readFromFile(resolve(cwd, baseName));
    const headText = await readFromFile(resolve(cwd, inputs.head ?? 'openapi.yaml'));
    const changes = diffInputs(parseSpec(baseText, baseName), parseSpec(headText, headName));
    return {
      exitCode: changes.some((c) => c.breaking) ? 1 : 0,
      output: formatReport(changes, baseName, headName),
    };
  } catch (error) {
    if (error instanceof UsageError) return { exitCode: 2, output: `${error.message}\n\n${usage}` };
    if (error instanceof InputError) return { exitCode: 2, output: error.message };
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { exitCode, output } = await runSpecDiff(process.argv.slice(2));
  (exitCode === 2 ? console.error : console.log)(output);
  process.exitCode = exitCode;
}
