/**
 * `npm run generate:python`: writes the Python library's contract modules from openapi.yaml:
 * `client/python/momo_payments/models.py` (every schema as a `TypedDict` or a type alias, enums
 * as `Literal` aliases with their values as tuples, `ERROR_CODES`) and `_operations.py` (one
 * method per operation, one auto-paging `iter_*` method per list operation). `--check` writes
 * nothing and exits 1 when a committed file differs from what the spec gives (`npm run
 * check:generated` runs it).
 *
 * @example
 * npx tsx scripts/clients/generate-python.ts          # write both files
 * npx tsx scripts/clients/generate-python.ts --check  # fail when they are stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Json, listOperations, readSpec, refName, resolveRef } from '../lib/openapi.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packageDir = join(root, 'client', 'python', 'momo_payments');
export const pythonModelsPath = join(packageDir, 'models.py');
export const pythonOperationsPath = join(packageDir, '_operations.py');

const header = (
  what: string,
) => `# Generated from openapi.yaml by scripts/clients/generate-python.ts (npm run generate:python):
# do not edit. ${what}
`;

const pythonKeywords = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** `createPayment` -> `create_payment`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** `payment_method` -> `PaymentMethod`. */
function pascalCase(name: string): string {
  return name.replace(/(^|[_-])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}

/** `PaymentStatus` -> `PAYMENT_STATUS_VALUES`. */
function valuesConstant(name: string): string {
  return `${snakeCase(name).toUpperCase()}_VALUES`;
}

/** A Python string literal (JSON's escapes are Python's for these strings). */
const str = (value: string) => JSON.stringify(value);

function literal(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  return str(String(value));
}

function comment(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  return text
    .trim()
    .split('\n')
    .map((line) => `${indent}# ${line}`.trimEnd());
}

function docstring(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  const lines = text.trim().replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').split('\n');
  if (lines.length === 1) return [`${indent}"""${lines[0]}"""`];
  return [`${indent}"""${lines[0]}`, ...lines.slice(1).map((l) => `${indent}${l}`.trimEnd()), `${indent}"""`];
}

interface TypedDictSpec {
  name: string;
  description: string | undefined;
  fields: Array<{ name: string; type: string; required: boolean; description: string | undefined }>;
}

/** An object whose keys are free and whose values share a schema (`Metadata`): a `dict`, not a TypedDict. */
function isMap(schema: Json): boolean {
  return (
    schema.type === 'object' &&
    !schema.properties &&
    !schema.allOf &&
    typeof schema.additionalProperties === 'object' &&
    schema.additionalProperties !== null
  );
}

/** Turns the contract's schemas into Python type expressions, collecting the TypedDicts it needs. */
class SchemaTypes {
  readonly dicts: TypedDictSpec[] = [];
  private readonly taken: Set<string>;

  constructor(private readonly document: Json) {
    this.taken = new Set(Object.keys(document.components.schemas));
  }

  /** The Python type of `schema`; inline objects become TypedDicts named after where they are. */
  typeOf(schema: Json, contextName: string): string {
    if (schema.$ref) return refName(schema.$ref);
    const base = this.baseType(schema, contextName);
    return schema.nullable && !base.endsWith('| None') ? `${base} | None` : base;
  }

  private baseType(schema: Json, contextName: string): string {
    if (schema.enum) {
      const values = schema.enum.filter((v: unknown) => v !== null).map(literal);
      const nullable = schema.enum.includes(null);
      return `Literal[${values.join(', ')}]${nullable ? ' | None' : ''}`;
    }
    if (isMap(schema)) return `dict[str, ${this.typeOf(schema.additionalProperties, `${contextName}Value`)}]`;
    if (schema.allOf || schema.type === 'object' || schema.properties) {
      const name = contextName;
      if (this.taken.has(name) && !this.document.components.schemas[name]) {
        throw new Error(`Two inline schemas would both be named ${name}`);
      }
      this.taken.add(name);
      this.addTypedDict(name, schema);
      return name;
    }
    switch (schema.type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'array':
        return `list[${this.typeOf(schema.items, `${contextName}Item`)}]`;
      default:
        throw new Error(`No Python type for schema ${JSON.stringify(schema)} (${contextName})`);
    }
  }

  /** A component schema that is an object: its TypedDict. */
  addTypedDict(name: string, schema: Json): void {
    const parts: Json[] = schema.allOf
      ? schema.allOf.map((p: Json) => resolveRef(this.document, p))
      : [schema];
    const required = new Set<string>(parts.flatMap((p) => p.required ?? []));
    const fields: TypedDictSpec['fields'] = [];
    for (const part of parts) {
      if (part.additionalProperties && part.additionalProperties !== false) {
        throw new Error(`${name}: additionalProperties maps are not generated yet`);
      }
      for (const [field, property] of Object.entries<Json>(part.properties ?? {})) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field) || pythonKeywords.has(field)) {
          throw new Error(`${name}.${field} is not a Python identifier`);
        }
        const description: string | undefined = property.description;
        fields.push({
          name: field,
          type: this.typeOf(property, `${name}${pascalCase(field)}`),
          required: required.has(field),
          description,
        });
      }
    }
    this.dicts.push({ name, description: schema.description, fields });
  }
}

function renderTypedDict(spec: TypedDictSpec): string[] {
  const field = (f: TypedDictSpec['fields'][number]) => [
    ...comment(f.description, '    '),
    `    ${f.name}: ${f.type}`,
  ];
  const required = spec.fields.filter((f) => f.required);
  const optional = spec.fields.filter((f) => !f.required);
  const doc = docstring(spec.description, '    ');
  if (optional.length === 0) {
    return [`class ${spec.name}(TypedDict):`, ...doc, ...required.flatMap(field), ''];
  }
  if (required.length === 0) {
    return [`class ${spec.name}(TypedDict, total=False):`, ...doc, ...optional.flatMap(field), ''];
  }
  // Required and optional keys in one TypedDict without typing.NotRequired (Python 3.11+): the
  // required ones in a base class, the optional ones in a subclass with total=False.
  return [
    `class _${spec.name}Required(TypedDict):`,
    ...required.flatMap(field),
    '',
    '',
    `class ${spec.name}(_${spec.name}Required, total=False):`,
    ...doc,
    ...optional.flatMap(field),
    '',
  ];
}

/** The source of models.py for `document`. */
export function renderModels(document: Json): string {
  const types = new SchemaTypes(document);
  const aliases: string[] = [];
  for (const [name, raw] of Object.entries<Json>(document.components.schemas)) {
    if ((raw.allOf || raw.type === 'object') && !isMap(raw)) {
      types.addTypedDict(name, raw);
      continue;
    }
    aliases.push(`${name}: TypeAlias = ${types.typeOf(raw, name)}`, ...docstring(raw.description, ''));
    if (raw.enum) {
      const values = raw.enum.filter((v: unknown) => v !== null).map(literal);
      aliases.push(
        `${valuesConstant(name)}: tuple[${name}, ...] = (${values.join(', ')}${values.length === 1 ? ',' : ''})`,
      );
    }
    aliases.push('');
  }
  return `${header('The schemas of the contract: objects as TypedDicts (plain dicts at run time,\n# fields spelled as the API spells them), the others as type aliases, enums as Literal\n# aliases with their values as tuples.')}
"""The Payments and Payouts API's schemas, generated from its contract (openapi.yaml ${document.info.version})."""

from __future__ import annotations

from typing import Literal, TypeAlias, TypedDict

${aliases.join('\n')}
${types.dicts.map((d) => renderTypedDict(d).join('\n')).join('\n\n')}

ERROR_CODES: frozenset[str] = frozenset(${valuesConstant('ErrorCode')})
"""Every error code of the contract's catalogue (\`error.code\` of an error answer)."""

__all__ = [
${[
  ...Object.keys(document.components.schemas).flatMap((name) => {
    const schema = document.components.schemas[name];
    return schema.enum && !schema.allOf && schema.type !== 'object' ? [name, valuesConstant(name)] : [name];
  }),
  'ERROR_CODES',
]
  .map((n) => `    ${str(n)},`)
  .join('\n')}
]
`;
}

interface Param {
  name: string;
  type: string;
  required: boolean;
}

interface OperationShape {
  method: string;
  path: string;
  name: string;
  summary: string;
  description: string | undefined;
  pathParams: Param[];
  query: Param[];
  body: { type: string; required: boolean } | undefined;
  idempotent: boolean;
  /** The type of the success envelope's `data`, or `str` for a text answer. */
  returns: string;
  text: boolean;
  /** The media type of a text answer. */
  accept: string | undefined;
  /** The body is an XML document, sent as it is. */
  xml: boolean;
  /** The type of one item when the answer is a page of a list. */
  item: string | undefined;
}

function operationShape(document: Json, entry: ReturnType<typeof listOperations>[number]): OperationShape {
  const types = new SchemaTypes(document);
  const { operation } = entry;
  const name = snakeCase(operation.operationId);
  const param = (p: Json): Param => ({
    name: p.name,
    type: types.typeOf(p.schema, pascalCase(p.name)),
    required: Boolean(p.required),
  });
  const pathParams = entry.parameters.filter((p) => p.in === 'path').map(param);
  // test=true is the client's sandbox switch, not a per-call argument.
  const query = entry.parameters.filter((p) => p.in === 'query' && p.name !== 'test').map(param);
  for (const p of [...pathParams, ...query]) {
    if (pythonKeywords.has(p.name)) throw new Error(`${name}: parameter ${p.name} is a Python keyword`);
  }
  const idempotent = entry.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  const requestBody = operation.requestBody ? resolveRef(document, operation.requestBody) : undefined;
  // A document sent as it is (a bank's camt.054 statement) is a str, sent as application/xml.
  const xml = requestBody !== undefined && !requestBody.content['application/json'];
  const body = requestBody
    ? {
        type: xml
          ? 'str'
          : types.typeOf(requestBody.content['application/json'].schema, `${pascalCase(name)}Body`),
        required: Boolean(requestBody.required),
      }
    : undefined;
  const [, success] =
    Object.entries<Json>(operation.responses).find(([status]) => /^2\d\d$/.test(status)) ?? [];
  const content = resolveRef(document, success)?.content ?? {};
  let returns = 'None';
  let item: string | undefined;
  const textType = Object.keys(content).find(
    (type) => type.startsWith('text/') || type === 'application/xml',
  );
  const text = !content['application/json'] && textType !== undefined;
  if (text) returns = 'str';
  else if (content['application/json']) {
    const envelope = resolveRef(document, content['application/json'].schema);
    const envelopeName = refName(content['application/json'].schema.$ref ?? '');
    const data = envelope.properties.data;
    returns = data.$ref ? refName(data.$ref) : `${envelopeName}Data`;
    const page = resolveRef(document, data);
    if (page.properties?.items && page.properties?.has_more && page.properties?.next_cursor) {
      item = refName(page.properties.items.items.$ref);
    }
  }
  if (types.dicts.length > 0) throw new Error(`${name}: inline object parameters are not generated yet`);
  return {
    method: entry.method.toUpperCase(),
    path: entry.path,
    name,
    summary: operation.summary,
    description: operation.description,
    pathParams,
    query,
    body,
    idempotent,
    returns,
    text,
    accept: textType,
    xml,
    item,
  };
}

function signature(op: OperationShape, { paging }: { paging: boolean }): string {
  const positional = ['self', ...op.pathParams.map((p) => `${p.name}: ${p.type}`)];
  if (op.body)
    positional.push(op.body.required ? `body: ${op.body.type}` : `body: ${op.body.type} | None = None`);
  const keywords = [
    ...op.query
      .filter((p) => !(paging && p.name === 'cursor'))
      .sort((a, b) => Number(b.required) - Number(a.required))
      .map((p) => (p.required ? `${p.name}: ${p.type}` : `${p.name}: ${p.type} | None = None`)),
    ...(op.idempotent ? ['idempotency_key: str | None = None'] : []),
  ];
  const all = keywords.length > 0 ? [...positional, '*', ...keywords] : positional;
  return all.join(', ');
}

function callArguments(op: OperationShape, { paging }: { paging: boolean }): string {
  const args = [str(op.method), str(op.path)];
  if (op.pathParams.length > 0)
    args.push(`path_params={${op.pathParams.map((p) => `${str(p.name)}: ${p.name}`).join(', ')}}`);
  const query = op.query.filter((p) => !(paging && p.name === 'cursor'));
  if (query.length > 0) args.push(`query={${query.map((p) => `${str(p.name)}: ${p.name}`).join(', ')}}`);
  if (paging) return args.join(', ');
  if (op.body) args.push('body=body');
  if (op.idempotent) args.push('idempotency_key=idempotency_key');
  if (op.text)
    args.push(op.accept === 'text/csv' ? 'text=True' : `text=True, accept=${str(op.accept ?? '')}`);
  if (op.xml) args.push('xml=True');
  return args.join(', ');
}

function methodDoc(op: OperationShape, extra: string): string[] {
  const first = `${op.summary.replace(/\.$/, '')} (\`${op.method} ${op.path}\`).`;
  return docstring(
    [first, '', ...(op.description ? [op.description.trim()] : []), ...(extra ? ['', extra] : [])].join('\n'),
    '        ',
  );
}

/** The source of _operations.py for `document`. */
export function renderOperations(document: Json): string {
  const ops = listOperations(document).map((entry) => operationShape(document, entry));
  const used = new Set<string>();
  const collect = (type: string) => {
    for (const name of type.replace(/"[^"]*"/g, '').match(/\b[A-Z][A-Za-z0-9]*\b/g) ?? []) used.add(name);
  };
  for (const op of ops) {
    for (const p of [...op.pathParams, ...op.query]) collect(p.type);
    if (op.body) collect(op.body.type);
    collect(op.returns);
    if (op.item) collect(op.item);
  }
  used.delete('None');
  const usesLiteral = used.delete('Literal');
  const methods: string[] = [];
  const withResponse: string[] = [];
  for (const op of ops) {
    const call = `self._transport.request(${callArguments(op, { paging: false })})`;
    methods.push(
      `    def ${op.name}(${signature(op, { paging: false })}) -> ${op.returns}:`,
      ...methodDoc(op, ''),
      op.returns === 'None' ? `        ${call}` : `        return cast(${str(op.returns)}, ${call}.data)`,
      '',
    );
    if (op.item && op.method === 'GET' && op.name.startsWith('list_')) {
      const iterName = op.name.replace(/^list_/, 'iter_');
      methods.push(
        `    def ${iterName}(${signature(op, { paging: true })}) -> Iterator[${op.item}]:`,
        ...methodDoc(
          op,
          `Every item, page after page: each page's \`next_cursor\` is sent as \`cursor\` while\n\`has_more\` is true. Stop early with \`break\`; a failed page raises its \`APIError\`.`,
        ),
        `        return cast(${str(`Iterator[${op.item}]`)}, self._transport.paginate(${callArguments(op, { paging: true })}))`,
        '',
      );
    }
    withResponse.push(
      `    def ${op.name}(${signature(op, { paging: false })}) -> ApiResponse[${op.returns}]:`,
      ...docstring(
        `\`${op.method} ${op.path}\`, answered with its status, headers and request id.`,
        '        ',
      ),
      `        return cast(${str(`ApiResponse[${op.returns}]`)}, ${call})`,
      '',
    );
  }
  const imports = [...used].sort();
  return `${header('One method per operation of the contract.')}
"""The contract's operations as methods: \`Operations\` answers each call's \`data\`,
\`OperationsWithResponse\` the whole \`ApiResponse\` (status, headers, request id)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ${usesLiteral ? 'Literal, cast' : 'cast'}

from ._transport import ApiResponse, Transport
from .models import (
${imports.map((n) => `    ${n},`).join('\n')}
)


class Operations:
    """Every operation of the API; a failed call raises its \`APIError\` subclass."""

    _transport: Transport

${methods.join('\n').trimEnd()}


class OperationsWithResponse:
    """The same operations, each answering an \`ApiResponse\`: \`data\`, \`status\`, \`headers\`, \`request_id\`."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

${withResponse.join('\n').trimEnd()}
`;
}

const outputs = (document: Json) => [
  { path: pythonModelsPath, source: renderModels(document) },
  { path: pythonOperationsPath, source: renderOperations(document) },
];

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const document = readSpec(join(root, 'openapi.yaml'));
  if (process.argv.includes('--check')) {
    const stale = outputs(document).filter(({ path, source }) => {
      try {
        return readFileSync(path, 'utf8') !== source;
      } catch {
        return true;
      }
    });
    if (stale.length > 0) {
      console.error(
        `${stale.map(({ path }) => relative(root, path)).join(', ')} stale: run npm run generate:python and commit it`,
      );
      process.exit(1);
    }
  } else {
    for (const { path, source } of outputs(document)) {
      writeFileSync(path, source);
      console.log(`${relative(root, path)} written`);
    }
  }
}
