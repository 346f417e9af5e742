/**
 * Every custom rule in redocly.yaml catches what it is written for and explains the fix: a copy
 * of openapi.yaml gets one targeted mistake per rule, and `redocly lint` must fail naming that
 * rule, and only it, with the rule's own message (one `redocly lint --format=json` of every
 * mistaken copy). The contract as it is lints clean.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Document, isNode, parse, parseDocument } from 'yaml';

const root = fileURLToPath(new URL('../../', import.meta.url));
const redocly = join(root, 'node_modules', '.bin', 'redocly');

interface CustomRule {
  message: string;
}

const config = parse(await readFile(join(root, 'redocly.yaml'), 'utf8'));
const customRules = Object.entries<CustomRule>(config.rules).filter(([name]) => name.startsWith('rule/'));

type Path = (string | number)[];

function valueAt(doc: Document, path: Path): unknown {
  const node = doc.getIn(path, true);
  return isNode(node) ? node.toJSON() : node;
}

/** Sets a value that must currently be `expected`, so a renamed spec cannot make a test vacuous. */
function replace(doc: Document, path: Path, expected: unknown, value: unknown): void {
  expect(valueAt(doc, path), `openapi.yaml at ${path.join('.')}`).toEqual(expected);
  doc.setIn(path, doc.createNode(value));
  expect(valueAt(doc, path)).toEqual(value);
}

/** Adds a key that must not exist yet. */
function add(doc: Document, path: Path, value: unknown): void {
  expect(doc.hasIn(path), `openapi.yaml already has ${path.join('.')}`).toBe(false);
  doc.setIn(path, doc.createNode(value));
  expect(valueAt(doc, path)).toEqual(value);
}

/** Deletes a key that must exist. */
function remove(doc: Document, path: Path): void {
  expect(doc.hasIn(path), `openapi.yaml has no ${path.join('.')}`).toBe(true);
  doc.deleteIn(path);
  expect(doc.hasIn(path)).toBe(false);
}

const schemas = ['components', 'schemas'];
const responses = ['components', 'responses'];

/** One mistake per custom rule, each made where nothing else in the spec depends on it. */
const mistakes: Record<string, { mistake: string; make: (doc: Document) => void }> = {
  'rule/operation-id-verb-noun': {
    mistake: 'an operationId is not verb-noun camelCase (payout_create)',
    make: (doc) =>
      replace(doc, ['paths', '/payouts', 'post', 'operationId'], 'createPayout', 'payout_create'),
  },
  'rule/properties-snake-case': {
    mistake: 'a property is camelCase (merchantNote)',
    make: (doc) => add(doc, [...schemas, 'PaymentCreate', 'properties', 'merchantNote'], { type: 'string' }),
  },
  'rule/query-parameters-snake-case': {
    mistake: 'a query parameter is camelCase (createdGte)',
    make: (doc) =>
      replace(doc, ['components', 'parameters', 'CreatedGte', 'name'], 'created_gte', 'createdGte'),
  },
  'rule/money-is-integer-minor-units': {
    mistake: 'an amount is an inline integer instead of a reference to Amount',
    make: (doc) =>
      replace(
        doc,
        [...schemas, 'PaymentCreate', 'properties', 'amount'],
        { $ref: '#/components/schemas/Amount' },
        { type: 'integer', format: 'int64', minimum: 1 },
      ),
  },
  'rule/no-float-formats': {
    mistake: 'a property is a double',
    make: (doc) =>
      add(doc, [...schemas, 'PaymentCreate', 'properties', 'fee_rate'], { type: 'number', format: 'double' }),
  },
  'rule/error-responses-use-envelope': {
    mistake: 'an error response has an inline schema',
    make: (doc) =>
      replace(
        doc,
        [...responses, 'NotFound', 'content', 'application/json', 'schema'],
        { $ref: '#/components/schemas/ErrorResponse' },
        { type: 'object' },
      ),
  },
  'rule/responses-have-headers': {
    mistake: 'a response has no headers',
    make: (doc) => remove(doc, [...responses, 'NotFound', 'headers']),
  },
  'rule/responses-carry-request-id': {
    mistake: 'a response has headers but not X-Request-Id',
    make: (doc) => remove(doc, [...responses, 'TooManyRequests', 'headers', 'X-Request-Id']),
  },
  'rule/list-operations-paginate': {
    mistake: 'a list operation has no parameters',
    make: (doc) => remove(doc, ['paths', '/api-keys', 'get', 'parameters']),
  },
};

const workDirs: string[] = [];
const redoclyEnv = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

/** A folder with a copy of redocly.yaml and the given specs, as `npm run lint:spec` sees them. */
async function lintFolder(specs: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lint-rules-'));
  workDirs.push(dir);
  await copyFile(join(root, 'redocly.yaml'), join(dir, 'redocly.yaml'));
  for (const [file, text] of Object.entries(specs)) await writeFile(join(dir, file), text);
  return dir;
}

/** Runs `redocly` with `args` in `dir`: its exit code and everything it printed. */
async function redoclyIn(
  dir: string,
  args: string[],
): Promise<{ code: number; stdout: string; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(redocly, args, { cwd: dir, env: redoclyEnv });
    return { code: 0, stdout, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, output: stdout + stderr };
  }
}

/** The rules a lint report blames, from its "Error was generated by the <rule> rule." lines. */
function blamedRules(output: string): Set<string> {
  return new Set(
    [...output.matchAll(/(?:Error|Warning) was generated by the (\S+) rule\./g)].map((m) => m[1] ?? ''),
  );
}

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{
    ruleId: string;
    severity: string;
    message: string;
    location: Array<{ source: { ref: string } }>;
  }>;
}

/**
 * `redocly lint --format=json a.yaml b.yaml ...` prints one JSON report per file, one after the
 * other, in the order the files were given: split at the top level.
 */
function reports(stdout: string): LintReport[] {
  const found: LintReport[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < stdout.length; i++) {
    const c = stdout[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' && --depth === 0) found.push(JSON.parse(stdout.slice(start, i + 1)) as LintReport);
  }
  return found;
}

describe('lint rules of redocly.yaml', () => {
  let specText: string;
  /** Each custom rule's mistaken copy of the spec, linted by one `redocly lint` of them all. */
  const reportFor = new Map<string, LintReport>();

  beforeAll(async () => {
    specText = await readFile(join(root, 'openapi.yaml'), 'utf8');
    const specs: Record<string, string> = {};
    for (const [name] of customRules) {
      const mistake = mistakes[name];
      if (!mistake) continue;
      const doc = parseDocument(specText);
      mistake.make(doc);
      specs[`${name.replace('rule/', '')}.yaml`] = doc.toString();
    }
    const files = Object.keys(specs);
    const dir = await lintFolder(specs);
    // One process for every mistake: each `redocly lint` start costs about a CPU-second.
    const { stdout, output } = await redoclyIn(dir, ['lint', '--format=json', ...files]);
    const all = reports(stdout);
    expect(all.length, output.slice(-4000)).toBe(files.length);
    files.forEach((file, i) => {
      const report = all[i] as LintReport;
      // Reports come in the order of the files: a problem names its file.
      for (const problem of report.problems) expect(problem.location[0]?.source.ref).toContain(file);
      reportFor.set(`rule/${file.replace(/\.yaml$/, '')}`, report);
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(workDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('finds custom rules, each with its message, to try', () => {
    expect(customRules.length).toBeGreaterThan(0);
    for (const [name, rule] of customRules) expect(typeof rule.message, name).toBe('string');
  });

  it('pass on openapi.yaml as it is (exit 0)', async () => {
    const dir = await lintFolder({ 'openapi.yaml': specText });
    const { code, output } = await redoclyIn(dir, ['lint']);
    expect(blamedRules(output)).toEqual(new Set());
    expect(code).toBe(0);
  });

  for (const [name, rule] of customRules) {
    const mistake = mistakes[name];
    const when = mistake?.mistake ?? 'the mistake it catches is made (none written yet)';
    it(`${name} fails with its message when ${when}`, () => {
      expect(mistake, `no mistake for ${name} in lint-rules.test.ts: add one`).toBeDefined();
      const report = reportFor.get(name);
      expect(report, `no lint report for ${name}`).toBeDefined();
      expect(report?.totals.errors).toBeGreaterThan(0);
      expect(new Set(report?.problems.map((p) => p.ruleId))).toEqual(new Set([name]));
      for (const problem of report?.problems ?? []) expect(problem.message).toContain(rule.message);
    });
  }
});
