/**
 * A property-based fuzzer of the running server, built from openapi.yaml (Schemathesis-style,
 * with fast-check). For every operation, three phases:
 *
 * - valid: schema-valid requests with a good key; ids come from earlier responses (stateful).
 * - invalid: requests breaking exactly one rule of the contract, sent by an account whose
 *   state is frozen; each must be refused with a 4xx and the error envelope, and change
 *   nothing (its balance, ledger and objects are compared before and after).
 * - auth: valid requests with no key, no API user, a wrong key, a wrong API user (401 with the
 *   catalogued code), another account's key, or the live key on sandbox ids (refused, and none
 *   of our ids shown).
 *
 * Every response also goes through not_a_server_error, status_code_conformance,
 * content_type_conformance and response_schema_conformance. Seeded (`FUZZ_SEED`) and bounded
 * (`FUZZ_RUNS` cases per operation and phase).
 */
import fc from 'fast-check';
import { type Operation, operations, spec } from '../../support/spec.js';
import { Api, type Credentials, type Reply, read } from '../lib/api.js';
import type { Account } from '../lib/server.js';
import { IdPools, isIdPattern } from './arbitraries.js';
import { conformance, foreign, type Problem, rejection, unauthenticated } from './checks.js';
import {
  type ConcreteRequest,
  type GeneratedRequest,
  type OperationRequests,
  requestsFor,
} from './requests.js';

export interface FuzzOptions {
  apiUrl: string;
  /** Fuzzed with valid requests; its ids feed the other phases. */
  main: Account;
  /** Receives only invalid requests, so its state must never change. */
  frozen: Account;
  /** Another account of the same server, for ignored_auth. */
  other: Account;
  /** Where generated URLs (webhook endpoints) point: a local sink. */
  uriBase: string;
  seed: number;
  runs: number;
  log?: (line: string) => void;
}

interface OperationStats {
  operationId: string;
  valid: number;
  invalid: number;
  auth: number;
  discarded: number;
  statuses: Map<number, number>;
}

export interface FuzzResult {
  seed: number;
  runs: number;
  stats: OperationStats[];
  failures: string[];
  requests: number;
}

class CaseFailure extends Error {}
class FuzzerBug extends Error {}

interface Actor {
  api: Api;
  live: Credentials;
  pools: IdPools;
  cursors: Map<string, string[]>;
}

type AuthVariant = 'no_key' | 'no_api_user' | 'wrong_key' | 'wrong_api_user' | 'other_account' | 'live_key';

const expectedAuthCode: Partial<Record<AuthVariant, string>> = {
  no_key: 'missing_api_key',
  no_api_user: 'missing_api_user',
  wrong_key: 'invalid_api_key',
  wrong_api_user: 'invalid_api_user',
};

const redact = (value: string) => value.replace(/(sk_(?:test|live)_)[0-9A-Za-z]{28}/g, '$1…');
const truncate = (text: string, max = 1500) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

function describe(request: ConcreteRequest, reply?: Reply): string {
  const lines = [`  request:  ${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers))
    lines.push(`            ${name}: ${redact(value)}`);
  if (request.body !== undefined) lines.push(`            ${truncate(request.body)}`);
  if (reply) {
    lines.push(`  response: ${reply.status} ${reply.contentType}`);
    lines.push(`            ${truncate(reply.text)}`);
  }
  return lines.join('\n');
}

/** Creators first, so that reads find objects; rotations, then deletions, last. */
function rank(op: Operation): number {
  if (op.method === 'delete') return 3;
  if (op.operationId.startsWith('rotate')) return 2;
  if (op.method === 'post' && !op.path.includes('{')) return 0;
  return 1;
}

export async function runFuzzer(options: FuzzOptions): Promise<FuzzResult> {
  const log = options.log ?? console.log;
  const patterns = collectPatterns(spec.components);
  const actor = (account: Account): Actor => ({
    api: new Api(options.apiUrl, { apiUser: account.apiUser, key: account.testKey }),
    live: { apiUser: account.apiUser, key: account.liveKey },
    pools: new IdPools(patterns),
    cursors: new Map(),
  });
  const main = actor(options.main);
  const frozen = actor(options.frozen);
  const other = actor(options.other);
  const arbitraryOptions = { uriBase: options.uriBase, maxItems: 4 };
  const ops = operations()
    .map((op, index) => ({ op, index }))
    .sort((a, b) => rank(a.op) - rank(b.op) || a.index - b.index);
  const generators = new Map<string, OperationRequests>(
    ops.map(({ op }) => [op.operationId, requestsFor(op, arbitraryOptions)]),
  );
  const stats = new Map<string, OperationStats>(
    ops.map(({ op }) => [
      op.operationId,
      { operationId: op.operationId, valid: 0, invalid: 0, auth: 0, discarded: 0, statuses: new Map() },
    ]),
  );
  const failures: string[] = [];
  let requests = 0;

  /** The request with the credentials' headers (unless it already sets them). */
  const withAuth = (request: ConcreteRequest, credentials: Credentials | null): ConcreteRequest => {
    if (!credentials) return request;
    const headers = { ...request.headers };
    headers.authorization ??= `Bearer ${credentials.key}`;
    headers['x-api-user'] ??= credentials.apiUser;
    return { ...request, headers };
  };

  const send = async (request: ConcreteRequest, opId: string): Promise<Reply> => {
    requests += 1;
    const reply = await read(
      await fetch(request.url, { method: request.method, headers: request.headers, body: request.body }),
    );
    const s = stats.get(opId)!;
    s.statuses.set(reply.status, (s.statuses.get(reply.status) ?? 0) + 1);
    return reply;
  };

  /** What a successful response teaches: new ids, the next page, a rotated key. */
  const learn = (who: Actor, op: Operation, reply: Reply) => {
    if (reply.status >= 300) return;
    who.pools.harvest(reply.body);
    const cursor = reply.body?.data?.next_cursor;
    if (typeof cursor === 'string') {
      const list = who.cursors.get(op.operationId) ?? [];
      list.push(cursor);
      who.cursors.set(op.operationId, list.slice(-20));
    }
    const rotatedKey = reply.body?.data?.secret_key;
    if (op.operationId === 'rotateApiKey' && typeof rotatedKey === 'string') {
      who.api.credentials = { ...who.api.credentials, key: rotatedKey };
      if (typeof reply.body.data.id === 'string') who.pools.keep(reply.body.data.id);
    }
  };

  /** Follows `next_cursor` links: a generated cursor is swapped for one the server gave. */
  const followCursor = (who: Actor, op: Operation, request: GeneratedRequest): GeneratedRequest => {
    const known = who.cursors.get(op.operationId);
    const cursor = request.query.cursor;
    if (!known?.length || typeof cursor !== 'string') return request;
    return { ...request, query: { ...request.query, cursor: known[cursor.length % known.length] } };
  };

  const fail = (problems: Problem[], request: ConcreteRequest, reply: Reply, note = ''): never => {
    const checks = [...new Set(problems.map((p) => p.check))].join(', ');
    throw new CaseFailure(
      `${checks}${note ? ` (${note})` : ''}\n${problems.map((p) => `  - ${p.check}: ${p.message}`).join('\n')}\n${describe(request, reply)}`,
    );
  };

  const fingerprint = async (api: Api): Promise<string> => {
    const paths = [
      '/balance',
      '/balance/transactions',
      '/payments',
      '/payouts',
      '/topups',
      '/services',
      '/webhook-endpoints',
      '/api-keys',
    ];
    const replies = await Promise.all(
      paths.map((p) => api.get(p, { query: p === '/balance' ? {} : { limit: 100 } })),
    );
    requests += replies.length;
    return JSON.stringify(replies.map((r, i) => [paths[i], r.status, r.body?.data]));
  };

  const runPhase = async <T extends unknown[]>(
    phase: string,
    opId: string,
    seed: number,
    property: fc.IAsyncProperty<T>,
  ) => {
    const details = await fc.check(property, { seed, numRuns: options.runs });
    if (!details.failed) return;
    const error = details.errorInstance;
    const kind = error instanceof FuzzerBug ? 'fuzzer bug (not the server)' : 'server';
    const message = error instanceof Error ? error.message : String(error);
    failures.push(
      `✗ ${opId} [${phase}] ${kind}: ${message}\n  shrunk ${details.numShrinks} times; replay: FUZZ_SEED=${options.seed} (operation seed ${seed}, path ${details.counterexamplePath})`,
    );
  };

  // The fixtures' ids (service, payment, top-up, endpoint, event...) seed the pools.
  for (const who of [main, frozen]) {
    for (const path of [
      '/services',
      '/payments',
      '/payouts',
      '/topups',
      '/webhook-endpoints',
      '/events',
      '/balance',
    ]) {
      const reply = await who.api.get(path);
      requests += 1;
      who.pools.harvest(reply.body);
    }
  }

  // The key each actor calls with is never revoked or rotated by a generated request: that
  // would turn every later request into a 401 (a rotation goes through `learn` instead).
  for (const who of [main, frozen, other]) {
    const reply = await who.api.get('/api-keys');
    requests += 1;
    const items: Array<{ id: string; last4: string }> = reply.body?.data?.items ?? [];
    const own = items.find((item) => who.api.credentials.key.endsWith(item.last4));
    if (!own) throw new FuzzerBug(`no key of the account ends like the one it calls with: ${reply.text}`);
    who.pools.keep(own.id);
  }

  // Phase 1: valid requests, stateful, on the main account.
  for (const [position, { op }] of ops.entries()) {
    const gen = generators.get(op.operationId)!;
    const s = stats.get(op.operationId)!;
    const seed = (options.seed + position * 7919) | 0;
    await runPhase(
      'valid',
      op.operationId,
      seed,
      fc.asyncProperty(gen.validRequest, async (generated) => {
        const { concrete, unsound } = gen.concretize(
          followCursor(main, op, generated),
          main.pools,
          options.apiUrl,
        );
        if (unsound) throw new FuzzerBug(`${unsound}\n${describe(concrete)}`);
        s.valid += 1;
        const sent = withAuth(concrete, main.api.credentials);
        const reply = await send(sent, op.operationId);
        learn(main, op, reply);
        const problems = conformance(op, reply);
        if (problems.length > 0) fail(problems, sent, reply);
      }),
    );
  }

  // Phase 2: invalid requests, on the frozen account, whose state is compared around each.
  let frozenState = await fingerprint(frozen.api);
  for (const [position, { op }] of ops.entries()) {
    const gen = generators.get(op.operationId)!;
    const s = stats.get(op.operationId)!;
    if (!gen.invalidRequest) continue;
    const seed = (options.seed + position * 7919 + 1) | 0;
    await runPhase(
      'invalid',
      op.operationId,
      seed,
      fc.asyncProperty(gen.invalidRequest, async (generated) => {
        const { concrete, unsound } = gen.concretize(generated, frozen.pools, options.apiUrl);
        if (unsound) {
          s.discarded += 1;
          fc.pre(false);
        }
        s.invalid += 1;
        const sent = withAuth(concrete, frozen.api.credentials);
        const reply = await send(sent, op.operationId);
        learn(frozen, op, reply);
        const problems = [...conformance(op, reply), ...rejection(reply, generated.invalid!.expect)];
        if (op.method !== 'get') {
          const after = await fingerprint(frozen.api);
          if (after !== frozenState) {
            problems.push({
              check: 'negative_data_rejection',
              message: 'the account changed (balance, ledger or objects)',
            });
            frozenState = after;
          }
        }
        if (problems.length > 0) fail(problems, sent, reply, generated.invalid!.rule);
      }),
    );
  }
  if ((await fingerprint(frozen.api)) !== frozenState) {
    failures.push(
      '✗ negative_data_rejection: the frozen account changed during the invalid phase (after a GET?)',
    );
  }

  // Phase 3: authentication, on valid requests naming the main account's objects.
  for (const [position, { op }] of ops.entries()) {
    if (Array.isArray(op.operation.security) && op.operation.security.length === 0) continue;
    const gen = generators.get(op.operationId)!;
    const s = stats.get(op.operationId)!;
    const hasPathIds = op.path.includes('{');
    const variants: AuthVariant[] = ['no_key', 'no_api_user', 'wrong_key', 'wrong_api_user', 'other_account'];
    if (hasPathIds) variants.push('live_key');
    const seed = (options.seed + position * 7919 + 2) | 0;
    await runPhase(
      'auth',
      op.operationId,
      seed,
      fc.asyncProperty(
        gen.validRequest,
        fc.constantFrom(...variants),
        fc.stringMatching(/^[0-9A-Za-z]{32}$/),
        async (generated, variant, noise) => {
          const request =
            variant === 'live_key'
              ? { ...generated, query: { ...generated.query, test: undefined } }
              : generated;
          const { concrete } = gen.concretize(request, main.pools, options.apiUrl);
          s.auth += 1;
          const ours = main.pools.all();
          const { apiUser, key } = main.api.credentials;
          let credentials: Credentials | null = null;
          const headers: Record<string, string> = {};
          switch (variant) {
            case 'no_key':
              headers['x-api-user'] = apiUser;
              break;
            case 'no_api_user':
              headers.authorization = `Bearer ${key}`;
              break;
            case 'wrong_key':
              credentials = { apiUser, key: `sk_test_${noise}` };
              break;
            case 'wrong_api_user':
              credentials = { apiUser: other.api.credentials.apiUser, key };
              break;
            case 'other_account':
              credentials = other.api.credentials;
              break;
            case 'live_key':
              credentials = main.live;
              break;
          }
          const sent = withAuth({ ...concrete, headers: { ...concrete.headers, ...headers } }, credentials);
          // Ids the other account itself sends may come back to it (its call logs show paths).
          if (variant === 'other_account') other.pools.harvest([concrete.url, concrete.body ?? '']);
          const reply = await send(sent, op.operationId);
          if (variant === 'other_account') learn(other, op, reply);
          const problems = conformance(op, reply);
          const code = expectedAuthCode[variant];
          if (code) problems.push(...unauthenticated(reply, code));
          else {
            const named = [...ours].some(
              (id) =>
                !id.startsWith('wal_') && (concrete.path.includes(id) || (concrete.body ?? '').includes(id)),
            );
            const mentioned = other.pools.all();
            const notMentioned = new Set([...ours].filter((id) => !mentioned.has(id)));
            problems.push(...foreign(reply, named || variant === 'live_key', notMentioned));
          }
          if (problems.length > 0) fail(problems, sent, reply, variant);
        },
      ),
    );
  }

  for (const { op } of ops) {
    const s = stats.get(op.operationId)!;
    const statuses = [...s.statuses.entries()].sort(([a], [b]) => a - b).map(([k, v]) => `${k}×${v}`);
    log(
      `  ${op.operationId.padEnd(30)} valid ${String(s.valid).padStart(4)}  invalid ${String(s.invalid).padStart(4)}  auth ${String(s.auth).padStart(4)}  statuses ${statuses.join(' ')}`,
    );
  }
  return { seed: options.seed, runs: options.runs, stats: [...stats.values()], failures, requests };
}

/** Every id pattern of the contract (`^pay_[0-9A-Za-z]{24}$`, ...): what the pools collect. */
function collectPatterns(node: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const pattern = (value as { pattern?: unknown }).pattern;
      if (typeof pattern === 'string' && isIdPattern(pattern)) found.push(pattern);
      Object.values(value).forEach(walk);
    }
  };
  walk(node);
  return found;
}
