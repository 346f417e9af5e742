/**
 * The fuzzer's checks, named as Schemathesis names them. Each returns the problems it found
 * (empty when the response honours the contract).
 */
import { type Json, type Operation, resolve, schemaErrors, spec } from '../../support/spec.js';
import type { Reply } from '../lib/api.js';

type CheckName =
  | 'not_a_server_error'
  | 'status_code_conformance'
  | 'content_type_conformance'
  | 'response_schema_conformance'
  | 'negative_data_rejection'
  | 'ignored_auth';

export interface Problem {
  check: CheckName;
  message: string;
}

const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();
const requestIdPattern = new RegExp(resolve(spec.components.schemas.RequestId).pattern);
const errorSchema = spec.components.schemas.ErrorResponse;

function documentedResponse(op: Operation, status: number): Json | undefined {
  const responses = op.operation.responses ?? {};
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  return response ? resolve(response) : undefined;
}

/** The checks every response goes through, whatever was sent. */
export function conformance(op: Operation, reply: Reply): Problem[] {
  const problems: Problem[] = [];
  if (reply.status >= 500) {
    problems.push({ check: 'not_a_server_error', message: `answered ${reply.status}` });
  }
  const response = documentedResponse(op, reply.status);
  if (!response) {
    const documented = Object.keys(op.operation.responses ?? {}).join(', ');
    problems.push({
      check: 'status_code_conformance',
      message: `${reply.status} is not documented for ${op.operationId} (documented: ${documented})`,
    });
    return problems;
  }
  const content: Record<string, Json> = response.content ?? {};
  const documentedTypes = Object.keys(content);
  const actualType = mediaType(reply.contentType);
  if (documentedTypes.length > 0 && !documentedTypes.includes(actualType)) {
    problems.push({
      check: 'content_type_conformance',
      message: `Content-Type "${reply.contentType}" is not one of ${documentedTypes.join(', ')}`,
    });
    return problems;
  }
  const schema = content[actualType]?.schema;
  if (schema) {
    const errors = schemaErrors(schema, reply.body);
    if (errors.length > 0) {
      problems.push({ check: 'response_schema_conformance', message: `body: ${errors.join('; ')}` });
    }
  }
  const requestId = reply.headers.get('x-request-id');
  if (response.headers?.['X-Request-Id'] && !(requestId && requestIdPattern.test(requestId))) {
    problems.push({
      check: 'response_schema_conformance',
      message: `X-Request-Id header "${requestId}" is missing or malformed`,
    });
  }
  if (
    reply.status >= 400 &&
    reply.body?.error?.request_id !== undefined &&
    reply.body.error.request_id !== requestId
  ) {
    problems.push({
      check: 'response_schema_conformance',
      message: `error.request_id ${reply.body.error.request_id} differs from X-Request-Id ${requestId}`,
    });
  }
  return problems;
}

/** An invalid request must be refused with one of `expected` statuses and the error envelope. */
export function rejection(reply: Reply, expected: number[]): Problem[] {
  const problems: Problem[] = [];
  if (!expected.includes(reply.status)) {
    problems.push({
      check: 'negative_data_rejection',
      message: `an invalid request was answered ${reply.status}, expected ${expected.join(' or ')}`,
    });
  }
  const envelope = schemaErrors(errorSchema, reply.body);
  if (envelope.length > 0) {
    problems.push({
      check: 'negative_data_rejection',
      message: `not the error envelope: ${envelope.join('; ')}`,
    });
  }
  return problems;
}

/** A request with missing or wrong credentials must be a 401 with `code`, and nothing else. */
export function unauthenticated(reply: Reply, code: string): Problem[] {
  if (reply.status === 401 && reply.body?.status === 'error' && reply.body?.error?.code === code) return [];
  return [
    {
      check: 'ignored_auth',
      message: `expected 401 ${code}, got ${reply.status} ${reply.body?.error?.code ?? ''}`.trim(),
    },
  ];
}

/** Another account (or the other mode) named our objects: refused, and none of our ids shown. */
export function foreign(reply: Reply, referencesOurIds: boolean, ourIds: Set<string>): Problem[] {
  const problems: Problem[] = [];
  if (referencesOurIds && reply.status < 300) {
    problems.push({
      check: 'ignored_auth',
      message: `another account's request on our ids was answered ${reply.status}`,
    });
  }
  if (reply.status < 300) {
    const leaked = [...ourIds].filter((id) => !id.startsWith('wal_') && reply.text.includes(id));
    if (leaked.length > 0) {
      problems.push({
        check: 'ignored_auth',
        message: `another account was shown our ids: ${leaked.slice(0, 5).join(', ')}`,
      });
    }
  }
  return problems;
}
