/**
 * `npm run generate:php`: writes the generated half of the PHP library (client/php) from
 * openapi.yaml: a model class per object the API answers (`src/Model/`), a backed enum per enum
 * schema (`src/Enum/`, `ErrorCode` among them) and one method per operation (`src/Operations.php`,
 * a trait of `PaymentsClient`). `npm run generate:php -- --check` writes nothing and fails, naming
 * the files, when the committed ones differ from what the contract gives.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Json, listOperations, listWebhooks, readSpec, refName, resolveRef } from '../lib/openapi.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const phpSourceDir = join(root, 'client', 'php', 'src');
/** The folders whose every file is generated (a file left over from a removed schema is stale). */
const generatedDirs = ['Model', 'Enum'];
const operationsFile = 'Operations.php';

const banner =
  'Generated from openapi.yaml by scripts/clients/generate-php.ts (npm run generate:php): do not edit.';

/** One PHP file: its path under client/php/src and its text. */
export type PhpFiles = Map<string, string>;

/** Every generated file of the PHP library for `document`. */
export function renderPhp(document: Json): PhpFiles {
  const files: PhpFiles = new Map();
  const models = new ModelCollector(document);
  const operations = listOperations(document).map((entry) => renderOperation(document, entry, models));
  for (const webhook of listWebhooks(document)) {
    const schema = resolveRef(document, webhook.operation.requestBody)?.content?.['application/json']?.schema;
    if (schema?.$ref) models.classOf(schema);
  }
  // Every class is collected by now: a class's properties are typed when it is added.
  for (const [name, schema] of models.classes) {
    files.set(`Model/${name}.php`, renderModel(document, models, name, schema));
  }
  for (const [name, schema] of Object.entries<Json>(document.components.schemas)) {
    if (schema.type === 'string' && Array.isArray(schema.enum))
      files.set(`Enum/${name}.php`, renderEnum(name, schema));
  }
  files.set(operationsFile, renderOperations(operations));
  return files;
}

// ---------------------------------------------------------------------------------------------
// Types

/** The PHP type of a schema (for a declaration) and its richer docblock type. */
interface PhpType {
  native: string;
  doc: string;
  /** How a decoded JSON value `expr` becomes this type. */
  convert: (expr: string) => string;
}

/** Collects the model classes: every object schema an answer holds, by component name. */
class ModelCollector {
  readonly classes = new Map<string, Json>();

  constructor(private readonly document: Json) {}

  /** The class for an object schema (a `$ref` to a component, or `name` for an inline one). */
  classOf(schema: Json, name?: string): string {
    const className = schema.$ref ? refName(schema.$ref) : name;
    if (!className) throw new Error('An inline object needs a class name');
    if (!this.classes.has(className)) {
      const resolved = flatten(this.document, schema);
      this.classes.set(className, resolved);
      for (const property of Object.values<Json>(resolved.properties ?? {})) this.typeOf(property);
    }
    return className;
  }

  /** The PHP type of a property's schema; objects with a component of their own become classes. */
  typeOf(schema: Json): PhpType {
    const resolved = flatten(this.document, schema);
    if (schema.$ref && isObject(resolved)) {
      const name = this.classOf(schema);
      return { native: name, doc: name, convert: (e) => `${name}::fromArray(${e})` };
    }
    switch (resolved.type) {
      case 'string':
        return scalar('string');
      case 'integer':
        return scalar('int');
      case 'number':
        return scalar('float');
      case 'boolean':
        return scalar('bool');
      case 'array': {
        const item = this.typeOf(resolved.items ?? {});
        const mapped = item.convert('$item');
        return {
          native: 'array',
          doc: `list<${item.doc}>`,
          convert:
            mapped === '$item' ? (e) => e : (e) => `array_map(static fn (array $item) => ${mapped}, ${e})`,
        };
      }
      case 'object':
        return { native: 'array', doc: this.shapeOf(resolved), convert: (e) => e };
      default:
        return { native: 'mixed', doc: 'mixed', convert: (e) => e };
    }
  }

  /** An inline object as an array shape (`array{currency: string, available: int}`). */
  private shapeOf(schema: Json): string {
    const entries = Object.entries<Json>(schema.properties ?? {});
    const values = schema.additionalProperties;
    // A map (`additionalProperties` a schema, as `Metadata`): its keys are strings, its values that schema's.
    if (entries.length === 0 && values && typeof values === 'object')
      return `array<string, ${this.typeOf(values).doc}>`;
    if (entries.length === 0) return 'array<string, mixed>';
    const required = new Set<string>(schema.required ?? []);
    const fields = entries.map(([key, property]) => {
      const type = this.typeOf(property);
      const nullable = isNullable(this.document, property) ? '|null' : '';
      return `${key}${required.has(key) ? '' : '?'}: ${type.doc}${nullable}`;
    });
    return `array{${fields.join(', ')}}`;
  }
}

function scalar(native: string): PhpType {
  return { native, doc: native, convert: (e) => e };
}

/** A schema with its `$ref` followed and its `allOf` parts merged into one object. */
function flatten(document: Json, schema: Json): Json {
  const resolved = resolveRef(document, schema) ?? {};
  if (!Array.isArray(resolved.allOf)) return resolved;
  const parts = resolved.allOf.map((part: Json) => flatten(document, part));
  return {
    type: 'object',
    description: resolved.description ?? parts[0]?.description,
    required: parts.flatMap((part: Json) => part.required ?? []),
    properties: Object.assign({}, ...parts.map((part: Json) => part.properties ?? {})),
  };
}

function isObject(schema: Json): boolean {
  return schema.type === 'object' && schema.properties !== undefined;
}

function isNullable(document: Json, schema: Json): boolean {
  return schema.nullable === true || resolveRef(document, schema)?.nullable === true;
}

// ---------------------------------------------------------------------------------------------
// Models and enums

function renderModel(document: Json, models: ModelCollector, name: string, schema: Json): string {
  const required = new Set<string>(schema.required ?? []);
  const properties = Object.entries<Json>(schema.properties ?? {}).map(([key, property]) => {
    const type = models.typeOf(property);
    const nullable = !required.has(key) || isNullable(document, property);
    const resolved = resolveRef(document, property);
    const description = property.description ?? resolved?.description ?? '';
    const enumName =
      property.$ref && resolved?.type === 'string' && resolved.enum ? refName(property.$ref) : null;
    const docType = `${type.doc}${nullable ? '|null' : ''}`;
    const notes = [
      oneLine(description),
      enumName ? `One of the values of {@see \\MomoPayments\\Enum\\${enumName}}.` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const value = `$data['${key}']`;
    const read = nullable
      ? type.convert(value) === value
        ? `${value} ?? null`
        : `isset(${value}) ? ${type.convert(value)} : null`
      : type.convert(value);
    return {
      declaration: `        /** @var ${docType} ${notes} */\n        public readonly ${nullable ? `?${type.native}`.replace('?mixed', 'mixed') : type.native} $${key},`,
      read: `            ${key}: ${read},`,
    };
  });
  return `<?php

declare(strict_types=1);

namespace MomoPayments\\Model;

/**
 * ${wrap(oneLine(schema.description ?? `The \`data\` of an answer of the API.`), ' * ')}
 *
 * ${banner}
 */
final class ${name}
{
    public function __construct(
${properties.map((p) => p.declaration).join('\n')}
    ) {
    }

    /**
     * Builds the model from the API's JSON, decoded as an associative array. Fields the contract
     * does not (yet) know are ignored.
     *
     * @param array<string, mixed> $data
     */
    public static function fromArray(array $data): self
    {
        return new self(
${properties.map((p) => p.read).join('\n')}
        );
    }
}
`;
}

function renderEnum(name: string, schema: Json): string {
  const values: string[] = schema.enum.filter((value: unknown) => typeof value === 'string');
  const cases = values.map((value) => `    case ${caseName(value)} = '${value}';`);
  return `<?php

declare(strict_types=1);

namespace MomoPayments\\Enum;

/**
 * ${wrap(oneLine(schema.description ?? name), ' * ')}
 *
 * Models hold these values as strings, so that a value the API adds later never breaks a
 * deployed integration: compare with \`${name}::${caseName(values[0] ?? '')}->value\`, or read one with
 * \`${name}::tryFrom($value)\`.
 *
 * ${banner}
 */
enum ${name}: string
{
${cases.join('\n')}
}
`;
}

/** `mtn_momo` -> `MtnMomo`, `payment.completed` -> `PaymentCompleted`, `XAF` -> `XAF`. */
function caseName(value: string): string {
  const name = value
    .split(/[^0-9A-Za-z]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
  return /^[0-9]/.test(name) ? `V${name}` : name;
}

// ---------------------------------------------------------------------------------------------
// Operations

function renderOperation(
  document: Json,
  entry: ReturnType<typeof listOperations>[number],
  models: ModelCollector,
): string {
  const { operation, path } = entry;
  const id: string = operation.operationId;
  const httpMethod = entry.method.toUpperCase();
  const pathParams = entry.parameters.filter((p: Json) => p.in === 'path');
  const queryParams = entry.parameters.filter((p: Json) => p.in === 'query' && p.name !== 'test');
  const idempotent = entry.parameters.some((p: Json) => p.in === 'header' && p.name === 'Idempotency-Key');
  const requestBody = resolveRef(document, operation.requestBody);
  const bodySchema = requestBody?.content?.['application/json']?.schema;
  // A document sent as it is (a bank's camt.054 statement): a string, sent as application/xml.
  const xmlBody = !bodySchema && requestBody?.content?.['application/xml'] !== undefined;

  const [status, rawResponse] =
    Object.entries<Json>(operation.responses).find(([code]) => /^2\d\d$/.test(code)) ?? [];
  if (!status) throw new Error(`${id} documents no success response`);
  const response = resolveRef(document, rawResponse);
  const json = response.content?.['application/json']?.schema;
  const text = !json && Object.keys(response.content ?? {}).length > 0;

  let returnType: string;
  let returnDoc: string;
  let body: string;
  const args = [`'${httpMethod}'`, pathExpression(path)];
  const call = (extra: string[]) => `$this->send(${[...args, ...extra].join(', ')})`;
  const queryArg = queryParams.length > 0 ? '$query' : '[]';
  const bodyArg = bodySchema ? '$body' : xmlBody ? '$xml' : 'null';
  const keyArg = idempotent ? '$idempotencyKey' : 'null';
  const sendArgs = trimDefaults([queryArg, bodyArg, keyArg]);

  if (text) {
    returnType = 'string';
    returnDoc = `string The ${Object.keys(response.content)[0]} body, as sent.`;
    body = `return ${call(sendArgs)}->body;`;
  } else {
    const dataSchema = flatten(document, json).properties?.data;
    const data = flatten(document, dataSchema);
    const list = data.properties?.items && data.properties?.has_more && data.properties?.next_cursor;
    if (list) {
      const item = models.classOf(data.properties.items.items);
      returnType = 'Page';
      returnDoc = `Page<Model\\${item}> One page; \`autoPagingIterator()\` walks every page after it.`;
      body = `return $this->page(${[...args, queryArg].join(', ')}, Model\\${item}::fromArray(...));`;
    } else {
      const name = dataSchema.$ref
        ? models.classOf(dataSchema)
        : models.classOf(dataSchema, refName(json.$ref).replace(/Response$/, ''));
      returnType = `Model\\${name}`;
      returnDoc = `Model\\${name}`;
      body = `return Model\\${name}::fromArray($this->data(${call(sendArgs)}));`;
    }
  }

  const params: string[] = pathParams.map((p: Json) => `string $${camel(p.name)}`);
  const docParams: string[] = pathParams.map(
    (p: Json) => `@param string $${camel(p.name)} ${oneLine(p.description ?? '')}`,
  );
  if (bodySchema) {
    const required = requestBody.required === true;
    params.push(required ? 'array $body' : 'array $body = []');
    docParams.push(`@param array<string, mixed> $body ${bodyFields(document, bodySchema)}`);
  }
  if (xmlBody) {
    params.push('string $xml');
    docParams.push('@param string $xml The XML document, sent as `application/xml`.');
  }
  if (queryParams.length > 0) {
    params.push('array $query = []');
    docParams.push(
      `@param array<string, scalar> $query Filters and paging: ${queryParams.map((p: Json) => `\`${p.name}\``).join(', ')}.`,
    );
  }
  if (idempotent) {
    params.push('?string $idempotencyKey = null');
    docParams.push(
      "@param string|null $idempotencyKey Sent as `Idempotency-Key`; by default a new UUID, reused by this call's retries.",
    );
  }

  const errors = Object.entries<Json>(operation.responses)
    .filter(([code]) => /^[45]\d\d$/.test(code))
    .map(([code, raw]) => {
      const codes: string[] | undefined = resolveRef(document, raw)?.['x-error-codes'];
      return `@throws Exception\\${exceptionFor(Number(code))} ${code}${codes ? ` (${codes.join(', ')})` : ''}`;
    });
  const throws = [...new Set(errors)];

  const doc = [
    `${operation.summary}: \`${httpMethod} ${path}\`.`,
    '',
    ...wrap(oneLine(operation.description ?? ''), '').split('\n'),
    '',
    ...docParams,
    `@return ${returnDoc}`,
    ...throws,
    '@throws Exception\\ConnectionException when no answer came after the retries',
  ];
  return `    /**
${doc.map((line) => (line === '' ? '     *' : `     * ${line}`)).join('\n')}
     */
    public function ${id}(${params.join(', ')}): ${returnType}
    {
        ${body}
    }`;
}

/** The exception class a status maps to (mirrors `ApiException::fromResponse`). */
function exceptionFor(status: number): string {
  if (status === 400 || status === 422) return 'ValidationException';
  if (status === 401) return 'AuthenticationException';
  if (status === 403) return 'PermissionException';
  if (status === 404) return 'NotFoundException';
  if (status === 409) return 'ConflictException';
  if (status === 429) return 'RateLimitException';
  if (status >= 500) return 'ServerException';
  return 'ApiException';
}

function bodyFields(document: Json, schema: Json): string {
  const resolved = flatten(document, schema);
  const required = new Set<string>(resolved.required ?? []);
  const fields = Object.keys(resolved.properties ?? {}).map((key) =>
    required.has(key) ? `\`${key}\`` : `\`${key}\`?`,
  );
  const name = schema.$ref ? ` (${refName(schema.$ref)})` : '';
  return `The JSON body${name}: ${fields.join(', ')}.`;
}

function trimDefaults(args: string[]): string[] {
  const defaults = ['[]', 'null', 'null'];
  const result = [...args];
  while (result.length > 0 && result[result.length - 1] === defaults[result.length - 1]) result.pop();
  return result;
}

/** `'/payments/{id}'` as a PHP expression with the path parameters encoded. */
function pathExpression(path: string): string {
  const parts = path.split(/(\{[^}]+\})/).filter(Boolean);
  return parts
    .map((part) => (part.startsWith('{') ? `rawurlencode($${camel(part.slice(1, -1))})` : `'${part}'`))
    .join(' . ');
}

function camel(name: string): string {
  return name.replace(/[_-]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function renderOperations(operations: string[]): string {
  return `<?php

declare(strict_types=1);

namespace MomoPayments;

/**
 * One method per operation of the contract, named by its \`operationId\`. Bodies and queries are
 * arrays spelled as the contract spells them (\`customer_msisdn\`, \`service_id\`); answers are
 * the models of \`MomoPayments\\Model\`.
 *
 * ${banner}
 */
trait Operations
{
    /**
     * @param array<string, scalar> $query
     * @param array<string, mixed>|null $body
     */
    abstract protected function send(string $method, string $path, array $query = [], ?array $body = null, ?string $idempotencyKey = null): Http\\Response;

    /** @return array<string, mixed> The \`data\` of a success envelope. */
    abstract protected function data(Http\\Response $response): array;

    /**
     * @param array<string, scalar> $query
     * @param callable(array<string, mixed>): object $build
     */
    abstract protected function page(string $method, string $path, array $query, callable $build): Page;

${operations.join('\n\n')}
}
`;
}

// ---------------------------------------------------------------------------------------------
// Text

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\*\//g, '*&#47;').trim();
}

/** Wraps `text` at about 96 columns, continuing lines with `prefix`. */
function wrap(text: string, prefix: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + word.length + 1 > 92) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join(`\n${prefix}`);
}

// ---------------------------------------------------------------------------------------------
// Writing and checking

/** The generated files on disk, by path under src/. */
function filesOnDisk(): PhpFiles {
  const files: PhpFiles = new Map();
  for (const dir of generatedDirs) {
    const full = join(phpSourceDir, dir);
    if (!existsSync(full)) continue;
    for (const name of readdirSync(full)) files.set(`${dir}/${name}`, readFileSync(join(full, name), 'utf8'));
  }
  const operations = join(phpSourceDir, operationsFile);
  if (existsSync(operations)) files.set(operationsFile, readFileSync(operations, 'utf8'));
  return files;
}

/** The paths (under src/) that differ between `expected` and what is on disk. */
export function staleFiles(expected: PhpFiles, actual: PhpFiles = filesOnDisk()): string[] {
  const paths = new Set([...expected.keys(), ...actual.keys()]);
  return [...paths].filter((path) => expected.get(path) !== actual.get(path)).sort();
}

function write(files: PhpFiles): void {
  for (const dir of generatedDirs) rmSync(join(phpSourceDir, dir), { recursive: true, force: true });
  for (const [path, text] of files) {
    const full = join(phpSourceDir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = renderPhp(readSpec(join(root, 'openapi.yaml')));
  if (process.argv.includes('--check')) {
    const stale = staleFiles(files);
    if (stale.length > 0) {
      const shown = stale.map((path) => `  ${relative(root, join(phpSourceDir, path))}`).join('\n');
      console.error(
        `The PHP library's generated files are stale:\n${shown}\nRun npm run generate:php and commit them.`,
      );
      process.exit(1);
    }
    console.log(`client/php: ${files.size} generated files are current`);
  } else {
    write(files);
    console.log(`client/php/src: ${files.size} generated files written`);
  }
}
