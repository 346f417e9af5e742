/**
 * Every example in openapi.yaml validates against the schema it illustrates. Integrators copy
 * examples; one that breaks the schema teaches them a bug.
 */
import { describe, expect, it } from 'vitest';
import { type Json, operations, resolve, schemaErrors, spec } from '../support/spec.js';

interface Case {
  where: string;
  schema: Json;
  value: unknown;
}

function mediaExamples(where: string, media: Json): Case[] {
  const schema = media.schema;
  const cases: Case[] = [];
  if (media.example !== undefined) cases.push({ where, schema, value: media.example });
  for (const [name, example] of Object.entries<Json>(media.examples ?? {})) {
    cases.push({ where: `${where} (${name})`, schema, value: resolve(example).value });
  }
  return cases;
}

function allCases(): Case[] {
  const cases: Case[] = [];
  for (const op of operations()) {
    const body = op.operation.requestBody && resolve(op.operation.requestBody);
    const json = body?.content?.['application/json'];
    if (json) cases.push(...mediaExamples(`${op.operationId} request`, json));
    for (const [status, raw] of Object.entries<Json>(op.operation.responses)) {
      const media = resolve(raw).content?.['application/json'];
      if (media) cases.push(...mediaExamples(`${op.operationId} ${status}`, media));
    }
    for (const parameter of op.parameters) {
      if (parameter.example !== undefined) {
        cases.push({
          where: `${op.operationId} parameter ${parameter.name}`,
          schema: parameter.schema,
          value: parameter.example,
        });
      }
    }
  }
  for (const [name, schema] of Object.entries<Json>(spec.components.schemas)) {
    if (schema.example !== undefined) cases.push({ where: `schema ${name}`, schema, value: schema.example });
  }
  return cases;
}

describe('examples in openapi.yaml', () => {
  const cases = allCases();

  it('there are examples for every operation', () => {
    for (const op of operations()) {
      expect(
        cases.some((c) => c.where.startsWith(`${op.operationId} `)),
        op.operationId,
      ).toBe(true);
    }
  });

  it.each(cases.map((c) => [c.where, c] as const))('%s validates', (_where, c) => {
    expect(schemaErrors(c.schema, c.value)).toEqual([]);
  });

  it('the validator rejects what the schemas forbid (so the checks above can fail)', () => {
    const payment = spec.components.schemas.PaymentCreate;
    expect(schemaErrors(payment, { amount: 0, currency: 'XAF' })).not.toEqual([]);
    expect(schemaErrors(spec.components.schemas.Payment, { transaction_id: 'nope' })).not.toEqual([]);
  });
});
