/**
 * What changed between two versions of an OpenAPI 3.0 contract, and which changes break
 * integrators. Descriptions, summaries and examples are not compared: only what a client sends
 * and receives.
 *
 * The rule of thumb: a request (what clients send) may accept more but not less; a response
 * (what clients read) may add but not remove or retype. Webhook payloads are read by clients, so
 * they follow the response rules.
 */
import {
  type Json,
  listOperations,
  listWebhooks,
  type OperationEntry,
  refName,
  resolveRef,
} from '../lib/openapi.js';

export type ChangeKind =
  | 'operation-removed'
  | 'operation-added'
  | 'operation-id-changed'
  | 'operation-deprecated'
  | 'webhook-removed'
  | 'webhook-added'
  | 'security-changed'
  | 'parameter-removed'
  | 'parameter-added'
  | 'required-parameter-added'
  | 'parameter-became-required'
  | 'parameter-became-optional'
  | 'request-body-added'
  | 'request-body-removed'
  | 'request-body-became-required'
  | 'media-type-removed'
  | 'media-type-added'
  | 'request-field-removed'
  | 'request-field-renamed'
  | 'request-field-added'
  | 'required-field-added'
  | 'field-became-required'
  | 'field-became-optional'
  | 'response-field-removed'
  | 'response-field-renamed'
  | 'response-field-added'
  | 'response-field-became-optional'
  | 'type-changed'
  | 'enum-narrowed'
  | 'enum-widened'
  | 'constraint-tightened'
  | 'constraint-loosened'
  | 'success-status-removed'
  | 'success-status-changed'
  | 'status-removed'
  | 'status-added'
  | 'response-header-removed'
  | 'response-header-added';

export interface Change {
  kind: ChangeKind;
  breaking: boolean;
  /** `POST /payments`, or `webhook payment.completed`. */
  operation: string;
  /** What changed, naming the field, parameter, status or header. */
  message: string;
}

type Direction = 'request' | 'response';

/** The two documents compared, base first: references resolve in their own document. */
type Documents = readonly [base: Json, head: Json];

interface SchemaScope {
  direction: Direction;
  operation: string;
  /** Pairs of references already being compared, so that recursive schemas end. */
  comparing: Set<string>;
  changes: Change[];
}

function record(scope: SchemaScope, kind: ChangeKind, breaking: boolean, message: string): void {
  scope.changes.push({ kind, breaking, operation: scope.operation, message });
}

function operationKey(entry: OperationEntry): string {
  const path = entry.webhook ? entry.path : entry.path.replace(/\{[^}]+\}/g, '{}');
  return `${entry.webhook ? 'webhook' : 'path'} ${entry.method} ${path}`;
}

function operationLabel(entry: OperationEntry): string {
  return entry.webhook ? `webhook ${entry.path}` : `${entry.method.toUpperCase()} ${entry.path}`;
}

function list(values: unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

/** A schema with its `allOf` members folded in (properties and `required` merged). */
function flatten(document: Json, raw: Json): Json {
  const schema = resolveRef(document, raw) ?? {};
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: Json = { ...schema, allOf: undefined, properties: { ...(schema.properties ?? {}) } };
  const required = new Set<string>(schema.required ?? []);
  for (const member of schema.allOf) {
    const part = flatten(document, member);
    for (const [key, value] of Object.entries<Json>(part)) {
      if (key === 'properties') Object.assign(merged.properties, value);
      else if (key === 'required') for (const name of value) required.add(name);
      else if (merged[key] === undefined) merged[key] = value;
    }
  }
  merged.required = [...required];
  return merged;
}

function typeOf(schema: Json): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (schema.properties || schema.additionalProperties !== undefined) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function isObjectLike(schema: Json): boolean {
  return typeOf(schema) === 'object' || Array.isArray(schema.allOf);
}

/**
 * What a schema is called in messages: the component a reference names (so that a change to a
 * shared schema is reported once, under the name the reviewer edited), else its field path.
 */
function labelFor(raw: Json, inherited: string): string {
  return typeof raw?.$ref === 'string' ? refName(raw.$ref) : inherited;
}

function field(label: string, name: string): string {
  return label ? `${label}.${name}` : name;
}

const lowerBounds = ['minimum', 'minLength', 'minItems', 'minProperties'] as const;
const upperBounds = ['maximum', 'maxLength', 'maxItems', 'maxProperties'] as const;

/** Compares the constraints that narrow or widen the values a schema allows. */
function compareConstraints(base: Json, head: Json, label: string, scope: SchemaScope): void {
  const tightened: string[] = [];
  const loosened: string[] = [];
  const describe = (key: string) => `${key} ${base[key] ?? 'none'} -> ${head[key] ?? 'none'}`;
  for (const key of lowerBounds) {
    if (base[key] === head[key]) continue;
    if (head[key] !== undefined && (base[key] === undefined || head[key] > base[key]))
      tightened.push(describe(key));
    else loosened.push(describe(key));
  }
  for (const key of upperBounds) {
    if (base[key] === head[key]) continue;
    if (head[key] !== undefined && (base[key] === undefined || head[key] < base[key]))
      tightened.push(describe(key));
    else loosened.push(describe(key));
  }
  for (const key of ['exclusiveMinimum', 'exclusiveMaximum', 'uniqueItems'] as const) {
    if (Boolean(base[key]) !== Boolean(head[key])) (head[key] ? tightened : loosened).push(describe(key));
  }
  if (base.pattern !== head.pattern) {
    (head.pattern === undefined ? loosened : tightened).push(
      `pattern ${base.pattern ?? 'none'} -> ${head.pattern ?? 'none'}`,
    );
  }
  if (base.multipleOf !== head.multipleOf) tightened.push(describe('multipleOf'));
  if (base.format !== head.format && (base.format === undefined || head.format === undefined)) {
    (head.format === undefined ? loosened : tightened).push(describe('format'));
  }
  if (isObjectLike(base) && (base.additionalProperties === false) !== (head.additionalProperties === false)) {
    (head.additionalProperties === false ? tightened : loosened).push(
      head.additionalProperties === false ? 'unknown fields now refused' : 'unknown fields now accepted',
    );
  }
  const request = scope.direction === 'request';
  if (tightened.length > 0) {
    record(
      scope,
      'constraint-tightened',
      request,
      `${scope.direction} \`${label}\` narrowed: ${tightened.join('; ')}`,
    );
  }
  if (loosened.length > 0) {
    record(
      scope,
      'constraint-loosened',
      false,
      `${scope.direction} \`${label}\` widened: ${loosened.join('; ')}`,
    );
  }
}

function compareEnums(base: Json, head: Json, label: string, scope: SchemaScope): void {
  if (!Array.isArray(base.enum) && !Array.isArray(head.enum)) return;
  const request = scope.direction === 'request';
  const key = (value: unknown) => JSON.stringify(value);
  if (!Array.isArray(head.enum)) {
    record(
      scope,
      'enum-widened',
      false,
      `${scope.direction} \`${label}\` is no longer limited to ${list(base.enum)}`,
    );
    return;
  }
  const before = new Set((base.enum ?? []).map(key));
  const after = new Set(head.enum.map(key));
  const removed = Array.isArray(base.enum) ? base.enum.filter((v: unknown) => !after.has(key(v))) : [];
  const added = Array.isArray(base.enum) ? head.enum.filter((v: unknown) => !before.has(key(v))) : [];
  if (!Array.isArray(base.enum) || removed.length > 0) {
    record(
      scope,
      'enum-narrowed',
      request,
      Array.isArray(base.enum)
        ? `${scope.direction} enum \`${label}\` lost ${list(removed)}`
        : `${scope.direction} \`${label}\` is now limited to ${list(head.enum)}`,
    );
  }
  if (added.length > 0) {
    record(
      scope,
      'enum-widened',
      false,
      `${scope.direction} enum \`${label}\` gained ${list(added)}${request ? '' : ' (clients must accept values they do not know)'}`,
    );
  }
}

/** Pairs a removed property with an added one of the very same schema: a rename. */
function findRenames(base: Json, head: Json, removed: string[], added: string[]): Map<string, string> {
  const renames = new Map<string, string>();
  const same = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);
  for (const name of removed) {
    const candidates = added.filter((a) => same(base.properties[name], head.properties[a]));
    const others = removed.filter((r) =>
      candidates.some((c) => same(base.properties[r], head.properties[c])),
    );
    const only = candidates[0];
    if (candidates.length === 1 && others.length === 1 && only !== undefined) renames.set(name, only);
  }
  return renames;
}

function compareProperties(
  base: Json,
  head: Json,
  label: string,
  scope: SchemaScope,
  documents: Documents,
): void {
  const request = scope.direction === 'request';
  const hidden = request ? 'readOnly' : 'writeOnly';
  const visible = (schema: Json, document: Json) =>
    Object.keys(schema.properties ?? {}).filter(
      (name) => !resolveRef(document, schema.properties[name])?.[hidden],
    );
  const baseNames = visible(base, documents[0]);
  const headNames = visible(head, documents[1]);
  const baseRequired = new Set<string>(base.required ?? []);
  const headRequired = new Set<string>(head.required ?? []);
  const removed = baseNames.filter((n) => !headNames.includes(n));
  const added = headNames.filter((n) => !baseNames.includes(n));
  const renames = findRenames(base, head, removed, added);

  for (const name of removed) {
    const path = field(label, name);
    const renamed = renames.get(name);
    if (renamed !== undefined) {
      const kind = request ? 'request-field-renamed' : 'response-field-renamed';
      record(scope, kind, true, `${scope.direction} field \`${path}\` renamed to \`${renamed}\``);
    } else if (request) {
      record(
        scope,
        'request-field-removed',
        true,
        `request field \`${path}\` removed (clients still sending it are refused)`,
      );
    } else {
      record(scope, 'response-field-removed', true, `response field \`${path}\` removed`);
    }
  }
  for (const name of added.filter((n) => ![...renames.values()].includes(n))) {
    const path = field(label, name);
    if (!request) record(scope, 'response-field-added', false, `new response field \`${path}\``);
    else if (headRequired.has(name))
      record(scope, 'required-field-added', true, `new required request field \`${path}\``);
    else record(scope, 'request-field-added', false, `new optional request field \`${path}\``);
  }
  for (const name of baseNames.filter((n) => headNames.includes(n))) {
    const path = field(label, name);
    const was = baseRequired.has(name);
    const is = headRequired.has(name);
    if (!was && is) {
      const message = request
        ? `request field \`${path}\` became required`
        : `response field \`${path}\` is now always present`;
      record(scope, 'field-became-required', request, message);
    } else if (was && !is) {
      if (request) record(scope, 'field-became-optional', false, `request field \`${path}\` became optional`);
      else
        record(scope, 'response-field-became-optional', true, `response field \`${path}\` may now be absent`);
    }
    compareSchema(base.properties[name], head.properties[name], path, scope, documents);
  }
}

function compareSchema(
  baseRaw: Json,
  headRaw: Json,
  label: string,
  scope: SchemaScope,
  documents: Documents,
): void {
  if (baseRaw === undefined || headRaw === undefined) return;
  const pair = `${baseRaw.$ref ?? ''}|${headRaw.$ref ?? ''}`;
  if (pair !== '|' && scope.comparing.has(pair)) return;
  const inner: SchemaScope =
    pair === '|' ? scope : { ...scope, comparing: new Set([...scope.comparing, pair]) };
  const base = flatten(documents[0], baseRaw);
  const head = flatten(documents[1], headRaw);
  const name = labelFor(headRaw, labelFor(baseRaw, label));

  const baseType = typeOf(base);
  const headType = typeOf(head);
  if (baseType !== undefined && headType !== undefined && baseType !== headType) {
    record(
      scope,
      'type-changed',
      true,
      `type of ${scope.direction} \`${name}\` changed from ${baseType} to ${headType}`,
    );
    return;
  }
  if (base.format !== undefined && head.format !== undefined && base.format !== head.format) {
    record(
      scope,
      'type-changed',
      true,
      `format of ${scope.direction} \`${name}\` changed from ${base.format} to ${head.format}`,
    );
  }
  if (Boolean(base.nullable) !== Boolean(head.nullable)) {
    const nowNullable = Boolean(head.nullable);
    if (scope.direction === 'response' && nowNullable) {
      record(scope, 'type-changed', true, `response \`${name}\` may now be null`);
    } else {
      const tightened = !nowNullable;
      record(
        scope,
        tightened ? 'constraint-tightened' : 'constraint-loosened',
        tightened && scope.direction === 'request',
        `${scope.direction} \`${name}\` ${nowNullable ? 'now accepts' : 'no longer accepts'} null`,
      );
    }
  }
  compareEnums(base, head, name, scope);
  compareConstraints(base, head, name, scope);
  if (isObjectLike(base) || isObjectLike(head)) compareProperties(base, head, name, inner, documents);
  if (base.items || head.items) compareSchema(base.items, head.items, `${name}[]`, inner, documents);
  for (const combiner of ['oneOf', 'anyOf'] as const) {
    const before: Json[] = base[combiner] ?? [];
    const after: Json[] = head[combiner] ?? [];
    for (let i = 0; i < Math.min(before.length, after.length); i += 1) {
      compareSchema(before[i], after[i], `${name} (${combiner} ${i + 1})`, inner, documents);
    }
    if (before.length !== after.length && before.length > 0) {
      const fewer = after.length < before.length;
      record(
        scope,
        fewer ? 'constraint-tightened' : 'constraint-loosened',
        fewer && scope.direction === 'request',
        `${scope.direction} \`${name}\` now has ${after.length} alternatives instead of ${before.length} (${combiner})`,
      );
    }
  }
}

function compareContent(
  base: Json,
  head: Json,
  where: string,
  scope: SchemaScope,
  documents: Documents,
): void {
  const baseContent = base?.content ?? {};
  const headContent = head?.content ?? {};
  for (const type of Object.keys(baseContent)) {
    if (!(type in headContent)) {
      record(
        scope,
        'media-type-removed',
        true,
        `${where} no longer ${scope.direction === 'request' ? 'accepts' : 'returns'} ${type}`,
      );
      continue;
    }
    compareSchema(baseContent[type]?.schema, headContent[type]?.schema, 'body', scope, documents);
  }
  for (const type of Object.keys(headContent).filter((t) => !(t in baseContent))) {
    record(
      scope,
      'media-type-added',
      false,
      `${where} now ${scope.direction === 'request' ? 'accepts' : 'returns'} ${type}`,
    );
  }
}

function parameterKey(parameter: Json): string {
  const name = String(parameter.name);
  return `${parameter.in}:${parameter.in === 'header' ? name.toLowerCase() : name}`;
}

function parameterLabel(parameter: Json): string {
  if (parameter.in === 'query') return `?${parameter.name}`;
  if (parameter.in === 'path') return `{${parameter.name}}`;
  return `${parameter.name} ${parameter.in}`;
}

function compareParameters(
  base: OperationEntry,
  head: OperationEntry,
  scope: SchemaScope,
  documents: Documents,
): void {
  const headByKey = new Map(head.parameters.map((p) => [parameterKey(p), p]));
  const baseByKey = new Map(base.parameters.map((p) => [parameterKey(p), p]));
  for (const [key, before] of baseByKey) {
    const after = headByKey.get(key);
    const label = parameterLabel(before);
    if (!after) {
      // An unknown query or path parameter is refused; an extra header is ignored.
      record(scope, 'parameter-removed', before.in !== 'header', `parameter \`${label}\` removed`);
      continue;
    }
    if (!before.required && after.required)
      record(scope, 'parameter-became-required', true, `parameter \`${label}\` became required`);
    if (before.required && !after.required)
      record(scope, 'parameter-became-optional', false, `parameter \`${label}\` became optional`);
    compareSchema(before.schema, after.schema, label, scope, documents);
  }
  for (const [key, after] of headByKey) {
    if (baseByKey.has(key)) continue;
    const label = parameterLabel(after);
    if (after.required)
      record(scope, 'required-parameter-added', true, `new required parameter \`${label}\``);
    else record(scope, 'parameter-added', false, `new optional parameter \`${label}\``);
  }
}

function compareRequestBody(
  base: OperationEntry,
  head: OperationEntry,
  scope: SchemaScope,
  documents: Documents,
): void {
  const before = resolveRef(documents[0], base.operation.requestBody);
  const after = resolveRef(documents[1], head.operation.requestBody);
  if (!before && !after) return;
  if (!after) {
    record(scope, 'request-body-removed', true, 'the request body was removed');
    return;
  }
  if (!before) {
    if (after.required) record(scope, 'request-body-added', true, 'a request body is now required');
    else record(scope, 'request-body-added', false, 'an optional request body was added');
    return;
  }
  if (!before.required && after.required)
    record(scope, 'request-body-became-required', true, 'the request body became required');
  compareContent(before, after, 'the request body', scope, documents);
}

function effectiveSecurity(document: Json, entry: OperationEntry): Json[] {
  return entry.operation.security ?? (entry.webhook ? [] : (document.security ?? []));
}

function compareSecurity(
  base: OperationEntry,
  head: OperationEntry,
  scope: SchemaScope,
  documents: Documents,
): void {
  const describe = (requirements: Json[]) =>
    requirements.length === 0
      ? 'none'
      : requirements
          .map((r) => Object.keys(r).sort().join(' + ') || 'none')
          .sort()
          .join(' or ');
  const before = describe(effectiveSecurity(documents[0], base));
  const after = describe(effectiveSecurity(documents[1], head));
  if (before === after) return;
  const onlyLoosened = after === 'none' || after.split(' or ').includes('none');
  record(scope, 'security-changed', !onlyLoosened, `authentication changed from ${before} to ${after}`);
}

function compareResponses(
  base: OperationEntry,
  head: OperationEntry,
  scope: SchemaScope,
  documents: Documents,
): void {
  const before: Json = base.operation.responses ?? {};
  const after: Json = head.operation.responses ?? {};
  const isSuccess = (status: string) => /^2/.test(status);
  const removedSuccess = Object.keys(before).filter((s) => isSuccess(s) && !(s in after));
  const addedSuccess = Object.keys(after).filter((s) => isSuccess(s) && !(s in before));
  if (removedSuccess.length > 0 && addedSuccess.length > 0) {
    record(
      scope,
      'success-status-changed',
      true,
      `success status ${list(removedSuccess)} changed to ${list(addedSuccess)}`,
    );
  } else {
    for (const status of removedSuccess)
      record(scope, 'success-status-removed', true, `success status ${status} removed`);
    for (const status of addedSuccess) record(scope, 'status-added', false, `new success status ${status}`);
  }
  for (const status of Object.keys(before).filter((s) => !isSuccess(s) && !(s in after))) {
    record(scope, 'status-removed', false, `status ${status} is no longer documented`);
  }
  for (const status of Object.keys(after).filter((s) => !isSuccess(s) && !(s in before))) {
    record(scope, 'status-added', false, `new status ${status}`);
  }
  for (const status of Object.keys(before).filter((s) => s in after)) {
    const was = resolveRef(documents[0], before[status]);
    const is = resolveRef(documents[1], after[status]);
    const headerNames = (response: Json) => Object.keys(response?.headers ?? {}).map((h) => h.toLowerCase());
    const wasHeaders = headerNames(was);
    const isHeaders = headerNames(is);
    for (const header of Object.keys(was?.headers ?? {}).filter(
      (h) => !isHeaders.includes(h.toLowerCase()),
    )) {
      record(
        scope,
        'response-header-removed',
        true,
        `response ${status} no longer sends the ${header} header`,
      );
    }
    for (const header of Object.keys(is?.headers ?? {}).filter(
      (h) => !wasHeaders.includes(h.toLowerCase()),
    )) {
      record(scope, 'response-header-added', false, `response ${status} now sends the ${header} header`);
    }
    compareContent(was, is, `response ${status}`, scope, documents);
  }
}

/** A webhook's payload is a request we send and clients read: it follows the response rules. */
function compareWebhookPayload(
  base: OperationEntry,
  head: OperationEntry,
  scope: SchemaScope,
  documents: Documents,
): void {
  const before = resolveRef(documents[0], base.operation.requestBody);
  const after = resolveRef(documents[1], head.operation.requestBody);
  compareContent(before, after, 'the payload', { ...scope, direction: 'response' }, documents);
}

function compareOperation(
  base: OperationEntry,
  head: OperationEntry,
  documents: Documents,
  changes: Change[],
): void {
  const scope: SchemaScope = {
    direction: 'request',
    operation: operationLabel(head),
    comparing: new Set(),
    changes,
  };
  if (base.operation.operationId !== head.operation.operationId) {
    changes.push({
      kind: 'operation-id-changed',
      breaking: false,
      operation: scope.operation,
      message: `operationId ${base.operation.operationId} renamed to ${head.operation.operationId}`,
    });
  }
  if (!base.operation.deprecated && head.operation.deprecated) {
    changes.push({
      kind: 'operation-deprecated',
      breaking: false,
      operation: scope.operation,
      message: 'deprecated',
    });
  }
  if (head.webhook) {
    compareWebhookPayload(base, head, scope, documents);
    return;
  }
  compareSecurity(base, head, scope, documents);
  compareParameters(base, head, scope, documents);
  compareRequestBody(base, head, scope, documents);
  compareResponses(base, head, { ...scope, direction: 'response' }, documents);
}

/**
 * Every contract change from `base` to `head`, breaking ones flagged.
 *
 * @example
 * ```ts
 * const changes = diffSpecs(readSpec('old.yaml'), readSpec('openapi.yaml'));
 * if (changes.some((c) => c.breaking)) process.exitCode = 1;
 * ```
 */
export function diffSpecs(base: Json, head: Json): Change[] {
  const documents: Documents = [base, head];
  const changes: Change[] = [];
  const baseEntries = [...listOperations(base), ...listWebhooks(base)];
  const headEntries = [...listOperations(head), ...listWebhooks(head)];
  const headByKey = new Map(headEntries.map((e) => [operationKey(e), e]));
  const baseKeys = new Set(baseEntries.map(operationKey));
  for (const before of baseEntries) {
    const after = headByKey.get(operationKey(before));
    const label = operationLabel(before);
    if (after) compareOperation(before, after, documents, changes);
    else if (before.webhook) {
      changes.push({
        kind: 'webhook-removed',
        breaking: true,
        operation: label,
        message: 'webhook event removed',
      });
    } else {
      const id = before.operation.operationId ? ` (${before.operation.operationId})` : '';
      changes.push({
        kind: 'operation-removed',
        breaking: true,
        operation: label,
        message: `operation removed${id}`,
      });
    }
  }
  for (const after of headEntries.filter((e) => !baseKeys.has(operationKey(e)))) {
    const id = after.operation.operationId ? ` (${after.operation.operationId})` : '';
    changes.push({
      kind: after.webhook ? 'webhook-added' : 'operation-added',
      breaking: false,
      operation: operationLabel(after),
      message: after.webhook ? 'new webhook event' : `new operation${id}`,
    });
  }
  return changes;
}
