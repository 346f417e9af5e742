/**
 * OpenAPI 3.0 schema → fast-check arbitraries, for the fuzzer. Two directions:
 *
 * - `valid(schema)` generates values the schema accepts: type, enum, pattern (`fc.stringMatching`),
 *   minimum/maximum, minLength/maxLength, required/optional properties, `additionalProperties:
 *   false`, `minProperties`, `nullable`, arrays with minItems/maxItems/uniqueItems, `$ref`,
 *   `allOf`, `oneOf` of `required` rules, and the formats `date-time` and `uri`.
 * - `violation(schema)` generates values the schema refuses, each labelled with the rule it
 *   breaks: wrong type, value outside the enum, pattern or length or bounds broken, a missing
 *   required property, an unknown property, too few or too many items, a broken item.
 *
 * Ids are stateful: a string schema whose pattern is an id pattern (`^pay_[0-9A-Za-z]{24}$`)
 * mostly yields a `PoolRef`, resolved when the request is sent to an id the server really
 * returned earlier (see `IdPools`), so reads, updates and refunds work on real objects.
 *
 * Every generated value is checked against the schema with Ajv by the caller, so a gap in this
 * converter shows up as a fuzzer error, never as a false accusation of the server.
 */
import fc from 'fast-check';
import { type Json, resolve } from '../../support/spec.js';

/** A reference to the `index`-th id (modulo) the server returned that matches `pattern`. */
export class PoolRef {
  constructor(
    readonly pattern: string,
    readonly index: number,
    /** Used while the pool is still empty: a well-formed id nobody has. */
    readonly fallback: string,
  ) {}
  toString(): string {
    return `<${this.pattern} #${this.index}>`;
  }
}

const idPattern = /_\[0-9A-Za-z\]\{24\}\$$/;
export const isIdPattern = (pattern: string): boolean => idPattern.test(pattern);

/** Ids seen in responses, by the pattern they match. */
export class IdPools {
  readonly #pools = new Map<string, string[]>();
  readonly #patterns: { source: string; regex: RegExp }[];
  /** Ids never handed out (the key the actor calls with: revoking it would end the run). */
  readonly #kept = new Set<string>();

  constructor(patterns: Iterable<string>) {
    this.#patterns = [...new Set(patterns)].map((source) => ({ source, regex: new RegExp(source) }));
  }

  /** Remembers every id found anywhere in `value` (a response body), inside strings too (paths). */
  harvest(value: unknown): void {
    if (typeof value === 'string') {
      for (const token of value.match(/[a-z]+_[0-9A-Za-z]{24}/g) ?? []) {
        if (this.#kept.has(token)) continue;
        for (const { source, regex } of this.#patterns) {
          if (!regex.test(token)) continue;
          const pool = this.#pools.get(source) ?? [];
          if (!pool.includes(token)) pool.push(token);
          if (pool.length > 500) pool.shift();
          this.#pools.set(source, pool);
        }
      }
    } else if (Array.isArray(value)) {
      for (const item of value) this.harvest(item);
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) this.harvest(item);
    }
  }

  /** Never hands out `id`, even once a response names it. */
  keep(id: string): void {
    this.#kept.add(id);
    for (const pool of this.#pools.values()) {
      const at = pool.indexOf(id);
      if (at >= 0) pool.splice(at, 1);
    }
  }

  pick(ref: PoolRef): string {
    const pool = this.#pools.get(ref.pattern);
    return pool && pool.length > 0 ? pool[ref.index % pool.length]! : ref.fallback;
  }

  all(): Set<string> {
    return new Set([...this.#pools.values()].flat());
  }
}

/** Replaces every `PoolRef` in `value` by a real id. */
export function materialize(value: unknown, pools: IdPools): unknown {
  if (value instanceof PoolRef) return pools.pick(value);
  if (Array.isArray(value)) return value.map((item) => materialize(item, pools));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, materialize(v, pools)]));
  }
  return value;
}

/** `$ref`s resolved and `allOf` merged into one schema. */
export function flatten(schema: Json): Json {
  const node = resolve(schema);
  if (!node || typeof node !== 'object' || !Array.isArray(node.allOf)) return node;
  const parts = (node.allOf as Json[]).map(flatten);
  const { allOf: _allOf, ...own } = node;
  const merged: Json = { ...own, properties: {}, required: [] };
  for (const part of [own, ...parts]) {
    for (const [key, value] of Object.entries<Json>(part)) {
      if (key === 'properties') Object.assign(merged.properties, value);
      else if (key === 'required') merged.required.push(...value);
      else if (!(key in merged) || key === 'type') merged[key] = value;
    }
  }
  merged.type ??= 'object';
  return merged;
}

export interface ArbitraryOptions {
  /** Base of generated `uri` values: the fuzzer keeps every URL on 127.0.0.1. */
  uriBase: string;
  /** Longest arrays generated when the schema allows more (keeps requests small). */
  maxItems: number;
}

const typeOf = (schema: Json): string | undefined =>
  schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);

const dateTimes = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

function stringArb(schema: Json, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const minLength: number = schema.minLength ?? 0;
  const maxLength: number | undefined = schema.maxLength;
  if (schema.format === 'date-time') return dateTimes;
  if (schema.format === 'uri') {
    return fc
      .array(fc.webSegment(), { maxLength: 3 })
      .map((segments) => `${options.uriBase}/${segments.map(encodeURIComponent).join('/')}`);
  }
  if (typeof schema.pattern === 'string') {
    const matching = fc
      .stringMatching(new RegExp(schema.pattern), maxLength !== undefined ? { maxLength } : {})
      .filter((s) => [...s].length >= minLength && (maxLength === undefined || [...s].length <= maxLength));
    if (!isIdPattern(schema.pattern)) return matching;
    const fallback = schema.pattern
      .replace(/^\^|\[0-9A-Za-z\]\{24\}\$$/g, '')
      .replace(/^\((\w+)\|.*\)/, '$1');
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc.nat().map((i) => new PoolRef(schema.pattern, i, `${fallback}${'0'.repeat(24)}`)),
      },
      { weight: 1, arbitrary: matching },
    );
  }
  return fc.string({ unit: 'binary', minLength, maxLength: Math.min(maxLength ?? 40, minLength + 40) });
}

/** Values `schema` accepts. */
export function valid(schema: Json, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const node = flatten(schema);
  const base = validNonNull(node, options);
  return node.nullable === true
    ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: base })
    : base;
}

/**
 * A `oneOf` of `required` rules ("exactly one recipient"): one branch is picked, its fields
 * become required, and fields only the other branches require are left out, so exactly one
 * branch matches. Each branch's arbitrary is built once, not inside `chain`, where every value
 * built its string arbitraries again (`fc.stringMatching` parses its pattern each time): the
 * fuzzer's process took 25-26 CPU-seconds that way, 22 this way, for the same cases (one seed).
 */
function validOneOf(node: Json, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const branches = (node.oneOf as Json[]).map(flatten);
  const { oneOf: _oneOf, ...own } = node;
  const arbitraries = branches.map((branch, chosen) => {
    const required = [...(own.required ?? []), ...(branch.required ?? [])] as string[];
    const properties: Record<string, Json> = { ...(own.properties ?? {}), ...(branch.properties ?? {}) };
    for (const [index, other] of branches.entries()) {
      if (index === chosen) continue;
      for (const name of (other.required ?? []) as string[])
        if (!required.includes(name)) delete properties[name];
    }
    return validNonNull({ ...own, properties, required }, options);
  });
  return fc
    .integer({ min: 0, max: branches.length - 1 })
    .chain((chosen) => arbitraries[chosen] as fc.Arbitrary<unknown>);
}

function validNonNull(node: Json, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  if (Array.isArray(node.oneOf)) return validOneOf(node, options);
  if (Array.isArray(node.enum)) {
    const values = (node.enum as unknown[]).filter((v) => v !== null);
    return fc.constantFrom(...values);
  }
  switch (typeOf(node)) {
    case 'string':
      return stringArb(node, options);
    case 'integer':
      return fc.integer({ min: node.minimum ?? -1_000_000_000, max: node.maximum ?? 1_000_000_000 });
    case 'number':
      return fc.double({
        min: node.minimum ?? -1e9,
        max: node.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = valid(node.items ?? {}, options);
      const minLength: number = node.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(node.maxItems ?? options.maxItems, options.maxItems));
      return node.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      const properties: Record<string, Json> = node.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, valid(s, options)]));
      const record = fc.record(model, { requiredKeys: (node.required ?? []) as string[] });
      const minProperties: number = node.minProperties ?? 0;
      return minProperties > 0 ? record.filter((o) => Object.keys(o).length >= minProperties) : record;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

export interface Violation {
  value: unknown;
  /** The rule broken, e.g. `amount: below minimum 1`. */
  rule: string;
}

const wrongTypeValues: Record<string, unknown[]> = {
  string: [12345, true, { a: 1 }, ['x']],
  integer: ['12', 1.5, true, { a: 1 }, [1]],
  number: ['1.5', true, { a: 1 }, [1]],
  boolean: ['true', 1, 'yes', { a: 1 }],
  array: ['item', 1, { a: 1 }],
  object: ['object', 1, true, [1]],
};

const label = (path: string, rule: string) => (path ? `${path}: ${rule}` : rule);

/** Values `schema` refuses, or `undefined` when it refuses nothing. */
export function violation(
  schema: Json,
  options: ArbitraryOptions,
  path = '',
): fc.Arbitrary<Violation> | undefined {
  const node = flatten(schema);
  const type = typeOf(node);
  const choices: fc.Arbitrary<Violation>[] = [];
  const add = (arb: fc.Arbitrary<unknown>, rule: string) =>
    choices.push(arb.map((value) => ({ value, rule: label(path, rule) })));

  if (type && wrongTypeValues[type]) {
    add(fc.constantFrom(...wrongTypeValues[type]!), `not of type ${type}`);
  }
  if (node.nullable !== true && type !== undefined) add(fc.constant(null), 'null where not nullable');

  if (Array.isArray(node.enum)) {
    const allowed = new Set(node.enum as unknown[]);
    add(
      fc
        .oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('UNKNOWN', 'Active', 'xaf'))
        .filter((s) => !allowed.has(s)),
      'outside the enum',
    );
  } else if (type === 'string') {
    if (typeof node.pattern === 'string') {
      const regex = new RegExp(node.pattern);
      add(
        fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !regex.test(s)),
        `not matching ${node.pattern}`,
      );
    }
    if ((node.minLength ?? 0) > 0) add(fc.constant(''), `shorter than ${node.minLength}`);
    if (node.maxLength !== undefined) {
      add(
        fc.integer({ min: node.maxLength + 1, max: node.maxLength + 20 }).map((n) => 'x'.repeat(n)),
        `longer than ${node.maxLength}`,
      );
    }
    if (node.format === 'date-time') {
      add(
        fc.constantFrom(
          'yesterday',
          '2026-13-01T00:00:00Z',
          '2026-02-30T00:00:00Z',
          '2026-11-20T25:00:00Z',
          '20261120',
          '2026-11-20 25:00',
        ),
        'not a date-time',
      );
    }
    if (node.format === 'uri')
      add(fc.constantFrom('not a url', 'ftp://127.0.0.1/x', '//127.0.0.1'), 'not an http(s) URI');
  } else if (type === 'integer' || type === 'number') {
    if (node.minimum !== undefined) {
      add(
        fc.integer({ min: node.minimum - 1_000_000, max: node.minimum - 1 }),
        `below minimum ${node.minimum}`,
      );
    }
    if (node.maximum !== undefined) {
      add(
        fc.integer({ min: node.maximum + 1, max: node.maximum + 1_000_000 }),
        `above maximum ${node.maximum}`,
      );
    }
    if (type === 'integer') add(fc.constantFrom(0.5, 2.25, 1e-3), 'not an integer');
  } else if (type === 'array') {
    const items = valid(node.items ?? {}, options);
    if ((node.minItems ?? 0) > 0) add(fc.constant([]), `fewer than ${node.minItems} items`);
    if (node.maxItems !== undefined) {
      add(
        fc.array(items, { minLength: node.maxItems + 1, maxLength: node.maxItems + 1 }),
        `more than ${node.maxItems} items`,
      );
    }
    if (node.uniqueItems)
      add(
        items.map((item) => [item, item]),
        'duplicate items',
      );
    const itemViolation = violation(node.items ?? {}, options, `${path}[0]`);
    if (itemViolation) {
      choices.push(
        fc
          .tuple(itemViolation, fc.array(items, { maxLength: 2 }))
          .map(([bad, rest]) => ({ value: [bad.value, ...rest], rule: bad.rule })),
      );
    }
  } else if (type === 'object') {
    const properties: Record<string, Json> = node.properties ?? {};
    const whole = valid(node, options) as fc.Arbitrary<Record<string, unknown>>;
    const required: string[] = node.required ?? [];
    if (required.length > 0) {
      choices.push(
        fc.tuple(whole, fc.constantFrom(...required)).map(([object, name]) => {
          const { [name]: _removed, ...rest } = object;
          return { value: rest, rule: label(path, `missing required ${name}`) };
        }),
      );
    }
    if (node.additionalProperties === false) {
      choices.push(
        fc
          .tuple(whole, fc.stringMatching(/^[a-z][a-z_]{0,15}$/), fc.jsonValue({ maxDepth: 1 }))
          .filter(([, name]) => !(name in properties))
          .map(([object, name, extra]) => ({
            value: { ...object, [name]: extra },
            rule: label(path, `unknown property ${name}`),
          })),
      );
    }
    if ((node.minProperties ?? 0) > 0) add(fc.constant({}), `fewer than ${node.minProperties} properties`);
    for (const [name, propertySchema] of Object.entries(properties)) {
      const bad = violation(propertySchema, options, path ? `${path}.${name}` : name);
      if (!bad) continue;
      choices.push(
        fc.tuple(whole, bad).map(([object, v]) => ({ value: { ...object, [name]: v.value }, rule: v.rule })),
      );
    }
  }
  return choices.length > 0 ? fc.oneof(...choices) : undefined;
}
