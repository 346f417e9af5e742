/**
 * Request samples for the published docs, generated from the contract: every operation gets a
 * curl command and a TypeScript-client call, built from its method, path, parameters and
 * request examples, so that the samples change when the contract does.
 */
import { type Json, listOperations, type OperationEntry, resolveRef } from '../lib/openapi.js';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The languages of the request panel, in order; `Payload` is Redoc's own view of the body. */
export const sampleLanguages = [
  { lang: 'curl', label: 'curl' },
  { lang: 'TypeScript', label: 'TypeScript client' },
  { lang: 'Payload', label: 'Payload' },
] as const;

const apiKeyVariable = 'PAYMENTS_API_KEY';
const apiUserVariable = 'PAYMENTS_API_USER';
/** The API's address with `/v1`, as the first `npm start` prints it (`export PAYMENTS_BASE_URL=...`). */
export const baseUrlVariable = 'PAYMENTS_BASE_URL';
/**
 * A fresh key for every run of a sample: two samples copied one after the other are two
 * requests, not a replay (a shared literal key would make the second a 409).
 */
export const freshIdempotencyKey = '$(uuidgen)';

interface RequestExample {
  /** A valid identifier naming the example when an operation has several. */
  name: string;
  summary?: string;
  value: unknown;
}

/**
 * The file an XML request body (a bank's camt.054 statement) is sent from, or undefined for
 * every other operation: the samples send the file as it is, they have no example to inline.
 */
function xmlBodyFile(document: Json, entry: OperationEntry): string | undefined {
  const content = resolveRef(document, entry.operation.requestBody)?.content ?? {};
  return content['application/xml'] && !content['application/json'] ? 'camt054.xml' : undefined;
}

function requestExamples(document: Json, entry: OperationEntry): RequestExample[] {
  const body = resolveRef(document, entry.operation.requestBody);
  if (!body || xmlBodyFile(document, entry)) return [];
  const mediaTypes = Object.keys(body.content ?? {});
  const media = body.content?.['application/json'];
  const where = `${entry.method.toUpperCase()} ${entry.path}`;
  if (!media) throw new Error(`${where}: only JSON request bodies get samples, not ${mediaTypes.join(', ')}`);
  if (media.example !== undefined) return [{ name: 'result', value: media.example }];
  const named = Object.entries<Json>(media.examples ?? {}).map(([name, raw]) => {
    const example = resolveRef(document, raw);
    return { name: toIdentifier(name), summary: example.summary, value: example.value };
  });
  if (named.length === 0) {
    throw new Error(`${where}: its request body has no example; the docs' request samples are built from it`);
  }
  return named;
}

function toIdentifier(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const camel = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return /^[A-Za-z_$]/.test(camel) ? camel : `example${camel}`;
}

function parameterValue(document: Json, parameter: Json): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const first = Object.values<Json>(parameter.examples ?? {})[0];
  if (first) return resolveRef(document, first).value;
  const schema = resolveRef(document, parameter.schema);
  return schema?.example ?? schema?.default;
}

/** Path parameters (always), and the query and header parameters an operation requires. */
function sampleParameters(document: Json, entry: OperationEntry, location: 'path' | 'query' | 'header') {
  return entry.parameters
    .filter((p) => p.in === location && (location === 'path' || p.required === true))
    .map((p) => ({ name: p.name as string, value: parameterValue(document, p) }))
    .filter((p) => p.value !== undefined);
}

/** The success response's media types; a non-JSON one (CSV) changes how the body is read. */
function successMediaTypes(document: Json, entry: OperationEntry): string[] {
  const success = Object.entries<Json>(entry.operation.responses ?? {}).find(([status]) => /^2/.test(status));
  return Object.keys(resolveRef(document, success?.[1])?.content ?? {});
}

function requiresAuthentication(document: Json, entry: OperationEntry): boolean {
  const requirements: Json[] = entry.operation.security ?? document.security ?? [];
  return requirements.length > 0 && requirements.every((r) => Object.keys(r).length > 0);
}

/** The headers the operation's security schemes ask for, with the credentials as shell variables. */
function authenticationHeaders(document: Json, entry: OperationEntry): string[] {
  if (!requiresAuthentication(document, entry)) return [];
  const requirement: Json = (entry.operation.security ?? document.security)[0];
  return Object.keys(requirement).map((name) => {
    const scheme = resolveRef(document, document.components?.securitySchemes?.[name]);
    if (scheme?.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') {
      return `Authorization: Bearer $${apiKeyVariable}`;
    }
    if (scheme?.type === 'apiKey' && scheme.in === 'header') return `${scheme.name}: $${apiUserVariable}`;
    throw new Error(
      `No request sample knows the security scheme ${name}: teach scripts/docs/code-samples.ts`,
    );
  });
}

/** Quotes a value for a POSIX shell, inside single quotes. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Quotes a literal for a POSIX shell inside double quotes (so a `$VARIABLE` before it expands). */
function doubleQuoted(value: string): string {
  return value.replace(/["$`\\]/g, (c) => `\\${c}`);
}

/** A curl command per request example (one when the operation has no body). */
export function curlSample(document: Json, entry: OperationEntry): string {
  let path = entry.path;
  for (const { name, value } of sampleParameters(document, entry, 'path')) {
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams(
    sampleParameters(document, entry, 'query').map(({ name, value }) => [name, String(value)]),
  ).toString();
  const url = `"$${baseUrlVariable}${doubleQuoted(`${path}${query ? `?${query}` : ''}`)}"`;
  const method = entry.method.toUpperCase();
  const headers = authenticationHeaders(document, entry).map((h) => `-H "${h}"`);
  for (const parameter of entry.parameters.filter((p) => p.in === 'header')) {
    if (parameter.name.toLowerCase() === 'idempotency-key') {
      headers.push(`-H "${parameter.name}: ${freshIdempotencyKey}"`);
      continue;
    }
    const value = parameterValue(document, parameter);
    if (value !== undefined) headers.push(`-H ${shellQuote(`${parameter.name}: ${value}`)}`);
  }
  const accept = successMediaTypes(document, entry);
  if (accept.length > 0 && !accept.includes('application/json')) {
    headers.push(`-H ${shellQuote(`Accept: ${accept[0]}`)}`);
  }
  const command = (body?: unknown): string => {
    const lines = [`curl${method === 'GET' ? '' : ` -X ${method}`} ${url}`, ...headers];
    if (body !== undefined) {
      lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(body, null, 2))}`);
    }
    const file = xmlBodyFile(document, entry);
    if (file) lines.push(`-H 'Content-Type: application/xml'`, `--data-binary @${file}`);
    return lines.join(' \\\n  ');
  };
  const examples = requestExamples(document, entry);
  if (examples.length === 0) return command();
  if (examples.length === 1) return command(examples[0]?.value);
  return examples.map((e) => `# ${e.summary ?? e.name}\n${command(e.value)}`).join('\n\n');
}

/** Serialises JSON as a TypeScript literal in the repo's style (single quotes, trailing commas). */
export function typescriptLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (typeof value === 'string')
    return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${typescriptLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : typescriptLiteral(k));
    return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${typescriptLiteral(v, inner)},`).join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function objectOf(pairs: { name: string; value: unknown }[]): Record<string, unknown> | undefined {
  return pairs.length === 0 ? undefined : Object.fromEntries(pairs.map(({ name, value }) => [name, value]));
}

/**
 * A call of the TypeScript client (openapi-fetch style) per request example. The client sets
 * `Idempotency-Key` and the credentials itself, so only required headers appear.
 */
export function typescriptSample(document: Json, entry: OperationEntry, clientPackage: string): string {
  const method = entry.method.toUpperCase();
  const params = Object.fromEntries(
    (['path', 'query', 'header'] as const)
      .map((location) => [location, objectOf(sampleParameters(document, entry, location))] as const)
      .filter(([, value]) => value !== undefined),
  );
  const accept = successMediaTypes(document, entry);
  const parseAsText = accept.length > 0 && !accept.some((t) => t === 'application/json');
  const init = (body: unknown): Record<string, unknown> | undefined => {
    const options: Record<string, unknown> = {};
    if (Object.keys(params).length > 0) options.params = params;
    if (body !== undefined) options.body = body;
    if (parseAsText) options.parseAs = 'text';
    return Object.keys(options).length > 0 ? options : undefined;
  };
  const call = (body: unknown): string => {
    const options = init(body);
    return `await client.${method}('${entry.path}'${options ? `, ${typescriptLiteral(options)}` : ''});`;
  };
  const file = xmlBodyFile(document, entry);
  if (file) {
    // The document is read from its file and sent as it is, not serialised as JSON.
    const options = typescriptLiteral(init(undefined) ?? {}).replace(
      /\n}$/,
      `\n  body: xml,\n  bodySerializer: (text: string) => text,\n  headers: { 'Content-Type': 'application/xml' },\n}`,
    );
    return [
      `import { readFileSync } from 'node:fs';`,
      `import { createPaymentsClient } from '${clientPackage}';`,
      '',
      'const client = createPaymentsClient({',
      `  apiKey: process.env.${apiKeyVariable}!,`,
      `  apiUser: process.env.${apiUserVariable}!,`,
      '  sandbox: true,',
      '});',
      `const xml = readFileSync('${file}', 'utf8');`,
      '',
      `const { data, error } = await client.${method}('${entry.path}', ${options});`,
    ].join('\n');
  }
  const setup = [
    `import { createPaymentsClient } from '${clientPackage}';`,
    '',
    'const client = createPaymentsClient({',
    `  apiKey: process.env.${apiKeyVariable}!,`,
    `  apiUser: process.env.${apiUserVariable}!,`,
    '  sandbox: true,',
    '});',
    '',
  ].join('\n');
  const examples = requestExamples(document, entry);
  if (examples.length <= 1) return `${setup}\nconst { data, error } = ${call(examples[0]?.value)}`;
  return `${setup}\n${examples.map((e) => `// ${e.summary ?? e.name}\nconst ${e.name} = ${call(e.value)}`).join('\n\n')}`;
}

/** Both samples of one operation, as Redoc's `x-codeSamples`. */
export function codeSamplesFor(document: Json, entry: OperationEntry, clientPackage: string): CodeSample[] {
  const [curl, typescript] = sampleLanguages;
  return [
    { ...curl, source: curlSample(document, entry) },
    { ...typescript, source: typescriptSample(document, entry, clientPackage) },
  ];
}

/** A copy of the document in which every operation under `paths` carries its `x-codeSamples`. */
export function withCodeSamples(document: Json, clientPackage: string): Json {
  const copy: Json = structuredClone(document);
  for (const entry of listOperations(copy)) {
    entry.operation['x-codeSamples'] = codeSamplesFor(copy, entry, clientPackage);
  }
  return copy;
}
