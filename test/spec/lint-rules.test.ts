/**
 * Every custom rule in redocly.yaml catches what it is written for and explains the fix: a copy
 * of openapi.yaml gets one targeted mistake per rule, and `redocly lint` must fail naming that
 * rule, and only it, with the rule's own message. The contract as it is lints clean.
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

/** Lints `spec` as openapi.yaml beside a copy of redocly.yaml, as `npm run lint:spec` does. */
async function lint(spec: string): Promise<{ code: number; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'lint-rules-'));
  workDirs.push(dir);
  await copyFile(join(root, 'redocly.yaml'), join(dir, 'redocly.yaml'));
  await writeFile(join(dir, 'openapi.yaml'), spec);
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  try {
    const { stdout, stderr } = await promisify(execFile)(redocly, ['lint'], { cwd: dir, env });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

/** The rules a lint report blames, from its "Error was generated by the <rule> rule." lines. */
function blamedRules(output: string): Set<string> {
  return new Set(
    [...output.matchAll(/(?:Error|Warning) was generated by the (\S+) rule\./g)].map((m) => m[1] ?? ''),
  );
}

describe('lint rules of redocly.yaml', () => {
  let specText: string;

  beforeAll(async () => {
    specText = await readFile(join(root, 'openapi.yaml'), 'utf8');
  });

  afterAll(async () => {
    await Promise.all(workDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('finds custom rules, each with its message, to try', () => {
    expect(customRules.length).toBeGreaterThan(0);
    for (const [name, rule] of customRules) expect(typeof rule.message, name).toBe('string');
  });

  it('pass on openapi.yaml as it is (exit 0)', async () => {
    const { code, output } = await lint(specText);
    expect(blamedRules(output)).toEqual(new Set());
    expect(code).toBe(0);
  });

  for (const [name, rule] of customRules) {
    const mistake = mistakes[name];
    const when = mistake?.mistake ?? 'the mistake it catches is made (none written yet)';
    it.concurrent(`${name} fails with its message when ${when}`, async ({ expect }) => {
      expect(mistake, `no mistake for ${name} in lint-rules.test.ts: add one`).toBeDefined();
      const doc = parseDocument(specText);
      mistake?.make(doc);
      const { code, output } = await lint(doc.toString());
      expect(code).not.toBe(0);
      expect(blamedRules(output)).toEqual(new Set([name]));
      expect(output).toContain(rule.message);
    });
  }
});
