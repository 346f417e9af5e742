/**
 * An OpenAPI 3.0 document as plain data, for the scripts that read it (docs build, spec diff):
 * local `$ref` resolution and a walk over its operations and webhooks.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is arbitrary YAML, walked structurally
export type Json = any;

export const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
export type HttpMethod = (typeof httpMethods)[number];

export interface OperationEntry {
  method: HttpMethod;
  /** The path template (`/payments/{id}`), or the event name of a webhook. */
  path: string;
  /** True for an `x-webhooks` entry: a request we send, not one we receive. */
  webhook: boolean;
  operation: Json;
  /** Path-level and operation-level parameters, references resolved; the operation's win. */
  parameters: Json[];
}

/** Parses an OpenAPI document from a YAML (or JSON) file. */
export function readSpec(path: string): Json {
  return parse(readFileSync(path, 'utf8'));
}

/** The name of the component a local `$ref` points at (`#/components/schemas/Payment` -> `Payment`). */
export function refName(ref: string): string {
  return ref.split('/').pop() ?? ref;
}

/** Follows a local `$ref` (and the refs it lands on); other values come back unchanged. */
export function resolveRef(document: Json, value: Json, seen: Set<string> = new Set()): Json {
  if (!value || typeof value !== 'object' || typeof value.$ref !== 'string') return value;
  const ref: string = value.$ref;
  if (!ref.startsWith('#/')) throw new Error(`Only local references are supported, not ${ref}`);
  if (seen.has(ref)) throw new Error(`Circular reference ${ref}`);
  let node: Json = document;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (node === undefined) throw new Error(`Unresolvable reference ${ref}`);
  return resolveRef(document, node, new Set([...seen, ref]));
}

function mergeParameters(document: Json, pathLevel: Json[] = [], operationLevel: Json[] = []): Json[] {
  const byKey = new Map<string, Json>();
  for (const raw of [...pathLevel, ...operationLevel]) {
    const parameter = resolveRef(document, raw);
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

function entriesOf(document: Json, items: Json, webhook: boolean): OperationEntry[] {
  const result: OperationEntry[] = [];
  for (const [path, rawItem] of Object.entries<Json>(items ?? {})) {
    const item = resolveRef(document, rawItem);
    for (const method of httpMethods) {
      const operation = item?.[method];
      if (!operation) continue;
      const parameters = mergeParameters(document, item.parameters, operation.parameters);
      result.push({ method, path, webhook, operation, parameters });
    }
  }
  return result;
}

/** Every operation under `paths`, in document order. */
export function listOperations(document: Json): OperationEntry[] {
  return entriesOf(document, document.paths, false);
}

/** Every webhook under `x-webhooks` (3.0) or `webhooks` (3.1), in document order. */
export function listWebhooks(document: Json): OperationEntry[] {
  return entriesOf(document, document['x-webhooks'] ?? document.webhooks, true);
}
