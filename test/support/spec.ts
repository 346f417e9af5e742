/**
 * The contract as data, for tests: openapi.yaml parsed once, with helpers to walk its
 * operations and to validate values against its schemas with Ajv (OpenAPI 3.0 `nullable`
 * translated to JSON Schema).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { parse } from 'yaml';

export const specPath = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: the spec is arbitrary YAML, walked structurally
export type Json = any;

export const spec: Json = parse(readFileSync(specPath, 'utf8'));

const httpMethods = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface Operation {
  method: (typeof httpMethods)[number];
  path: string;
  operationId: string;
  operation: Json;
  /** Path-level and operation-level parameters, references resolved. */
  parameters: Json[];
}

/** Resolves a local `$ref` (`#/components/...`) once; returns other values unchanged. */
export function resolve(value: Json): Json {
  if (value && typeof value === 'object' && typeof value.$ref === 'string') {
    const parts = (value.$ref as string).replace(/^#\//, '').split('/');
    let node: Json = spec;
    for (const part of parts) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new Error(`Unresolvable $ref ${value.$ref}`);
    return resolve(node);
  }
  return value;
}

/** Every operation under `paths`, in document order. */
export function operations(): Operation[] {
  const result: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(spec.paths)) {
    for (const method of httpMethods) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolve);
      result.push({ method, path, operationId: operation.operationId, operation, parameters });
    }
  }
  return result;
}

export function findOperation(operationId: string): Operation {
  const found = operations().find((o) => o.operationId === operationId);
  if (!found) throw new Error(`No operation ${operationId} in openapi.yaml`);
  return found;
}

/**
 * Turns an OpenAPI 3.0 schema (with `$ref`s into components) into a self-contained JSON
 * Schema: `nullable` becomes a `null` type, references are inlined as `definitions`.
 */
export function toJsonSchema(schema: Json): Json {
  const convert = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(convert);
    if (!node || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string') {
      return { $ref: `#/definitions/${(node.$ref as string).split('/').pop()}` };
    }
    const out: Json = {};
    for (const [key, value] of Object.entries<Json>(node)) {
      if (key === 'nullable' || key === 'example' || key === 'examples' || key === 'discriminator') continue;
      if (key === 'properties') {
        out.properties = Object.fromEntries(Object.entries<Json>(value).map(([k, v]) => [k, convert(v)]));
      } else out[key] = convert(value);
    }
    if (node.nullable === true) {
      if (typeof node.type === 'string') out.type = [node.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      if (!node.type) return { anyOf: [out, { type: 'null' }] };
    }
    return out;
  };
  const definitions = Object.fromEntries(
    Object.entries<Json>(spec.components.schemas).map(([name, s]) => [name, convert(s)]),
  );
  return { ...convert(schema), definitions };
}

const ajv = new Ajv({ allErrors: true, strict: false });
// ajv-formats is CommonJS: under NodeNext its plugin is the default export's `default`.
formats.default(ajv);
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });

const cache = new Map<Json, ValidateFunction>();

/** Validates `value` against an OpenAPI schema; returns Ajv's errors as readable lines. */
export function schemaErrors(schema: Json, value: unknown): string[] {
  const validate = cache.get(schema) ?? ajv.compile(toJsonSchema(schema));
  cache.set(schema, validate);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
}
