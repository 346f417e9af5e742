/**
 * Requests for one operation, generated from its parameters and request body in openapi.yaml:
 * valid ones, and invalid ones where exactly one part (a body field, a query or path parameter,
 * a header, the JSON itself, the content type or the size) breaks the contract.
 */
import fc from 'fast-check';
import { type Json, type Operation, resolve, schemaErrors } from '../../support/spec.js';
import {
  type ArbitraryOptions,
  flatten,
  type IdPools,
  materialize,
  valid,
  violation,
} from './arbitraries.js';

export interface GeneratedRequest {
  method: string;
  /** The path template, e.g. `/payments/{id}`. */
  template: string;
  pathParams: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  /** `undefined`: no body. */
  body?: unknown;
  /** A raw body, sent as is (malformed JSON, text, oversized). */
  rawBody?: string;
  contentType?: string;
  /** For invalid requests: what is wrong, and which statuses may answer it. */
  invalid?: { rule: string; expect: number[] };
}

export interface ConcreteRequest {
  method: string;
  path: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const bodySchemaOf = (operation: Json): { schema: Json; required: boolean } | undefined => {
  if (!operation.requestBody) return undefined;
  const requestBody = resolve(operation.requestBody);
  const schema = requestBody.content?.['application/json']?.schema;
  return schema ? { schema, required: requestBody.required === true } : undefined;
};

/**
 * A query value read back the way the server's validator reads it (Ajv's `coerceTypes`): a
 * string that is a number (`data == +data`) becomes one, `true`/`false` become booleans.
 */
function coerceParam(schema: Json, raw: string): unknown {
  const type = flatten(schema).type;
  if ((type === 'integer' || type === 'number') && raw !== '' && !Number.isNaN(Number(raw)))
    return Number(raw);
  if (type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/** Builds the generators of one operation. */
export function requestsFor(op: Operation, options: ArbitraryOptions) {
  const pathParams = op.parameters.filter((p: Json) => p.in === 'path');
  const queryParams = op.parameters.filter((p: Json) => p.in === 'query');
  const headerParams = op.parameters.filter((p: Json) => p.in === 'header');
  const body = bodySchemaOf(op.operation);

  // Optional parameters are sent one time in three: combined filters and cursors mostly narrow
  // a list to nothing, so fewer of them at once reach more of the server.
  const record = (params: Json[]) =>
    fc.record(
      Object.fromEntries(
        params.map((p) => [
          p.name,
          p.required
            ? valid(p.schema, options)
            : fc.oneof(
                { weight: 2, arbitrary: fc.constant(undefined) },
                { weight: 1, arbitrary: valid(p.schema, options) },
              ),
        ]),
      ),
    );
  const bodyArb: fc.Arbitrary<unknown> = body
    ? body.required
      ? valid(body.schema, options)
      : fc.option(valid(body.schema, options), { nil: undefined })
    : fc.constant(undefined);

  const validRequest: fc.Arbitrary<GeneratedRequest> = fc
    .record({
      pathParams: record(pathParams),
      query: record(queryParams),
      headers: record(headerParams),
      body: bodyArb,
    })
    .map((parts) => ({
      method: op.method.toUpperCase(),
      template: op.path,
      pathParams: parts.pathParams,
      query: parts.query,
      headers: Object.fromEntries(
        Object.entries(parts.headers)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      ),
      ...(parts.body !== undefined ? { body: parts.body } : {}),
    }));

  const invalid: fc.Arbitrary<GeneratedRequest>[] = [];
  const withInvalid = (
    arb: fc.Arbitrary<[GeneratedRequest, Partial<GeneratedRequest>, string]>,
    expect: number[],
  ) =>
    invalid.push(
      arb.map(([request, change, rule]) => ({ ...request, ...change, invalid: { rule, expect } })),
    );

  if (body) {
    const bad = violation(body.schema, options);
    if (bad)
      withInvalid(
        fc.tuple(validRequest, bad).map(([r, v]) => [r, { body: v.value }, `body ${v.rule}`]),
        [400],
      );
    withInvalid(
      fc
        .tuple(validRequest, fc.constantFrom('{"amount": ', '{amount: 1}', "{'a':1}", '[1,', 'nul'))
        .map(([r, raw]) => [r, { body: undefined, rawBody: raw }, 'body is not JSON']),
      [400],
    );
    withInvalid(
      validRequest.map((r) => [
        { ...r, body: undefined },
        { rawBody: 'amount=100&currency=XAF', contentType: 'text/plain' },
        'body is text/plain',
      ]),
      [415],
    );
    withInvalid(
      validRequest.map((r) => [
        { ...r, body: undefined },
        { rawBody: JSON.stringify({ reference: 'x'.repeat(70 * 1024) }) },
        'body larger than 64 KiB',
      ]),
      [413],
    );
  }
  for (const param of queryParams) {
    const bad = violation(param.schema, options, `query ${param.name}`);
    if (!bad) continue;
    withInvalid(
      fc
        .tuple(validRequest, bad)
        .filter(([, v]) => typeof v.value !== 'object' || v.value === null)
        .map(([r, v]) => [r, { query: { ...r.query, [param.name]: v.value } }, v.rule]),
      [400],
    );
  }
  for (const param of pathParams) {
    const regex = new RegExp(flatten(param.schema).pattern ?? '^$');
    withInvalid(
      fc
        .tuple(validRequest, fc.string({ minLength: 1, maxLength: 30 }))
        .filter(([, s]) => !regex.test(s) && s !== '.' && s !== '..')
        .map(([r, s]) => [
          r,
          { pathParams: { ...r.pathParams, [param.name]: s } },
          `path ${param.name} not matching its pattern`,
        ]),
      [400, 404],
    );
  }
  for (const param of headerParams) {
    withInvalid(
      fc
        .tuple(
          validRequest,
          fc.oneof(
            fc
              .tuple(fc.stringMatching(/^[!-~]{1,8}$/), fc.stringMatching(/^[!-~]{1,8}$/))
              .map(([a, b]) => `${a} ${b}`),
            fc.integer({ min: 256, max: 300 }).map((n) => 'k'.repeat(n)),
          ),
        )
        .map(([r, value]) => [
          r,
          { headers: { ...r.headers, [param.name]: value } },
          `header ${param.name} invalid`,
        ]),
      [400],
    );
  }

  /**
   * Whether a materialized request is what it claims to be: a valid one passes every schema,
   * an invalid one fails the one it broke. Generator gaps are thrown, not sent.
   */
  function soundness(
    request: GeneratedRequest,
    concrete: { pathParams: Json; query: Json; body: unknown },
  ): string | undefined {
    const problems: string[] = [];
    for (const p of pathParams) problems.push(...schemaErrors(p.schema, String(concrete.pathParams[p.name])));
    for (const p of queryParams) {
      const value = concrete.query[p.name];
      if (value !== undefined) problems.push(...schemaErrors(p.schema, coerceParam(p.schema, String(value))));
    }
    for (const p of headerParams) {
      const value = request.headers[p.name];
      if (value !== undefined) problems.push(...schemaErrors(p.schema, value));
    }
    if (body && request.rawBody === undefined) {
      if (concrete.body !== undefined) problems.push(...schemaErrors(body.schema, concrete.body));
      else if (body.required) problems.push('required body missing');
    }
    if (request.rawBody !== undefined) problems.push('raw body');
    return problems.length > 0 ? problems.join('; ') : undefined;
  }

  return {
    operation: op,
    validRequest,
    invalidRequest: invalid.length > 0 ? fc.oneof(...invalid) : undefined,
    /** Resolves ids, fills the path, and serializes; reports generator gaps. */
    concretize(
      request: GeneratedRequest,
      pools: IdPools,
      baseUrl: string,
    ): { concrete: ConcreteRequest; unsound?: string } {
      const pathValues = materialize(request.pathParams, pools) as Record<string, unknown>;
      const queryValues = materialize(request.query, pools) as Record<string, unknown>;
      const bodyValue = materialize(request.body, pools);
      const path = request.template.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(String(pathValues[name])),
      );
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(queryValues)) {
        if (value !== undefined) search.append(name, String(value));
      }
      const headers: Record<string, string> = { ...request.headers };
      let sentBody: string | undefined;
      if (request.rawBody !== undefined) {
        sentBody = request.rawBody;
        headers['content-type'] = request.contentType ?? 'application/json';
      } else if (bodyValue !== undefined) {
        sentBody = JSON.stringify(bodyValue);
        headers['content-type'] = 'application/json';
      }
      const qs = search.toString();
      const problems = soundness(request, { pathParams: pathValues, query: queryValues, body: bodyValue });
      const isValid = request.invalid === undefined;
      let unsound: string | undefined;
      if (isValid && problems) unsound = `a "valid" request breaks the contract: ${problems}`;
      if (!isValid && !problems)
        unsound = `an "invalid" request (${request.invalid?.rule}) passes the contract`;
      return {
        concrete: {
          method: request.method,
          path,
          url: `${baseUrl}${path}${qs ? `?${qs}` : ''}`,
          headers,
          ...(sentBody !== undefined ? { body: sentBody } : {}),
        },
        ...(unsound ? { unsound } : {}),
      };
    },
  };
}

export type OperationRequests = ReturnType<typeof requestsFor>;
