/**
 * dredd 14 against the server: every operation × every documented response status, with the
 * fixtures, credentials and crafted requests of test/contract/dredd-hooks.cjs.
 *
 * dredd 14 reads a derived copy of openapi.yaml (written to a temporary folder), changed in two
 * ways that leave the contract's meaning as it is:
 * - each path parameter gets the `example` of its schema: dredd's OpenAPI 3 parser ignores a
 *   `$ref`'d schema's example and refuses to run ("Required URI parameter 'id' has no example
 *   or default value"), although the hooks replace every id anyway;
 * - each operation's `summary` becomes its `operationId`, so transaction names
 *   (`/payments{?test} > createPayment > 202 > application/json`) say which operation they are;
 * - `Idempotent-Replayed` is left out of the responses: dredd 14 expects every declared response
 *   header on every response, while OpenAPI headers are optional and this one is only sent on a
 *   replay (test/spec/documented-responses.test.ts checks it is declared and sent then).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { sandbox } from '../../support/fixtures.js';
import { type Json, operations, resolve, spec, toJsonSchema } from '../../support/spec.js';
import {
  Api,
  createFixtures,
  createMovement,
  expectSuccess,
  reachesStatus,
  testCredentials,
} from '../lib/api.js';
import { runToEnd } from '../lib/processes.js';
import { bin, repoRoot, startServer } from '../lib/server.js';
import type { Tool } from './types.js';

const hooksPath = join(repoRoot, 'test', 'contract', 'dredd-hooks.cjs');

function dreddReadableSpec(): Json {
  const copy: Json = structuredClone(spec);
  for (const parameter of Object.values<Json>(copy.components.parameters)) {
    if (parameter.in === 'path' && parameter.example === undefined)
      parameter.example = resolve(parameter.schema).example;
  }
  for (const item of Object.values<Json>(copy.paths)) {
    for (const operation of Object.values<Json>(item)) {
      if (operation && typeof operation === 'object' && operation.operationId)
        operation.summary = operation.operationId;
      for (const response of Object.values<Json>(operation?.responses ?? {}))
        if (response?.headers) delete response.headers['Idempotent-Replayed'];
    }
  }
  for (const response of Object.values<Json>(copy.components.responses ?? {}))
    if (response?.headers) delete response.headers['Idempotent-Replayed'];
  return copy;
}

export const dreddTool: Tool = {
  name: 'dredd',
  description: 'dredd 14: every operation and every documented response status',
  async run({ server, sink, log, serverFault }) {
    const dir = mkdtempSync(join(tmpdir(), 'contract-dredd-'));
    // A second server whose keys may make 1 call per hour, for the 429 transactions; it starts
    // while the fixtures are created.
    const starting = startServer({
      name: 'rate-limited server for dredd',
      env: { RATE_LIMIT_PER_WINDOW: '1', RATE_LIMIT_WINDOW_MS: '3600000' },
      ...(serverFault ? { fault: serverFault } : {}),
    });
    starting.catch(() => undefined);
    // A third whose live mode has only MTN MoMo connected (at a closed loopback port: the
    // refusal comes before any call), for the 422 unsupported_network transactions.
    const startingRouted = startServer({
      name: 'live-routed server for dredd',
      env: {
        MTN_MOMO_BASE_URL: 'http://127.0.0.1:9',
        MTN_MOMO_TARGET_ENVIRONMENT: 'mtncameroon',
        MTN_MOMO_COLLECTION_SUBSCRIPTION_KEY: 'contract',
        MTN_MOMO_COLLECTION_API_USER: 'contract',
        MTN_MOMO_COLLECTION_API_KEY: 'contract',
        MTN_MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: 'contract',
        MTN_MOMO_DISBURSEMENT_API_USER: 'contract',
        MTN_MOMO_DISBURSEMENT_API_KEY: 'contract',
      },
      ...(serverFault ? { fault: serverFault } : {}),
    });
    startingRouted.catch(() => undefined);
    try {
      const specFile = join(dir, 'openapi.dredd.yaml');
      writeFileSync(specFile, stringify(dreddReadableSpec()));
      const reportFile = join(dir, 'report.json');

      const [other, rotation, poor] = await Promise.all([
        server.createAccount('dredd other account'),
        server.createAccount('dredd rotation account'),
        server.createAccount('dredd poor account'),
      ]);
      const api = new Api(server.apiUrl, testCredentials(server.account));
      const poorApi = new Api(server.apiUrl, testCredentials(poor));
      const [fixtures, poorFixtures] = await Promise.all([
        createFixtures(api, sink.url),
        createFixtures(poorApi, sink.url, 1_000),
      ]);
      // The poor account's balance is emptied, so that refunding its payment is a 403.
      const balance = (await poorApi.get('/balance')).body.data.balances[0].available as number;
      expectSuccess(
        await poorApi.post('/payouts', {
          amount: balance,
          recipient_msisdn: sandbox.mtn.succeeds,
          payout_type: 'withdrawal',
        }),
        'empty the poor account',
      );
      const extra = await extraFixtures(api, sink.url);
      // A read-only key of the main account: every write refused with 403 permission_denied.
      const readOnly = await api.post('/api-keys', { role: 'read_only' });
      expectSuccess(readOnly, 'create a read-only key');
      const otherWallet = (await new Api(server.apiUrl, testCredentials(other)).get('/balance')).body.data
        .wallet_id;

      // Does the server rate-limit yet? Two calls with a limit of 1 per hour.
      const limited = await starting;
      const limitedApi = new Api(limited.apiUrl, testCredentials(limited.account));
      const probe = [(await limitedApi.get('/balance')).status, (await limitedApi.get('/balance')).status];
      const rateLimits = probe[1] === 429;
      log(`rate limiting: ${rateLimits ? 'on' : `off (a limit of 1 per hour answered ${probe.join(', ')})`}`);

      const routed = await startingRouted;
      const context = {
        liveRouted: { apiUrl: routed.apiUrl, apiUser: routed.account.apiUser, key: routed.account.liveKey },
        apiUrl: server.apiUrl,
        sinkUrl: sink.url,
        account: testCredentials(server.account),
        rotation: testCredentials(rotation),
        readOnly: { apiUser: server.account.apiUser, key: readOnly.body.data.secret_key as string },
        poor: { ...testCredentials(poor), paymentId: poorFixtures.paymentId },
        fixtures: { ...fixtures, ...extra, otherWalletId: otherWallet },
        rateLimited: rateLimits ? { apiUrl: limited.apiUrl, ...testCredentials(limited.account) } : null,
        rateLimitProbe: probe,
        requiredBodyFields: requiredBodyFields(),
        ...responseSchemas(),
        reportFile,
      };
      const contextFile = join(dir, 'context.json');
      writeFileSync(contextFile, JSON.stringify(context));
      const { code, output } = await runToEnd(
        'dredd',
        bin('dredd'),
        [
          specFile,
          server.apiUrl,
          `--hookfiles=${hooksPath}`,
          '--language=nodejs',
          '--color=false',
          '--loglevel=warning',
        ],
        { cwd: repoRoot, env: { CONTRACT_DREDD_CONTEXT: contextFile }, timeoutMs: 180_000 },
      );
      const complete = output.match(/complete: (.*)/)?.[1] ?? 'no summary line';
      const report = readReport(reportFile);
      const failures: string[] = [];
      const failLines = output.split('\n').filter((l) => /^(fail|error):/.test(l.trim()));
      if (code !== 0) failures.push(`dredd exited ${code}:\n${failLines.join('\n') || output.slice(-4000)}`);
      if (!report) failures.push('the hooks wrote no report (did they run?)');
      const skips = report?.skips ?? [];
      const reasons = new Map<string, string[]>();
      for (const skip of skips) reasons.set(skip.reason, [...(reasons.get(skip.reason) ?? []), skip.name]);
      const summary = [
        `${complete} (${report?.crafted ?? 0} crafted 4xx requests; ${report?.codeChecks ?? 0} error codes and CSV columns checked)`,
        ...[...reasons.entries()].map(([reason, names]) => `skipped ${names.length}: ${reason}`),
      ];
      return { ok: code === 0 && report !== undefined && failures.length === 0, summary, failures };
    } finally {
      await (await starting.catch(() => undefined))?.stop();
      await (await startingRouted.catch(() => undefined))?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/**
 * Each documented JSON response's schema, as JSON Schema (draft-07, `nullable` translated),
 * by operation and status, with the components once as `definitions`. dredd 14 derives no
 * schema from this spec's `$ref`'d response schemas: it falls back to requiring every key of
 * an example it builds (optional `param` and `details` of errors included); the hooks hand
 * gavel the real schema instead.
 */
function responseSchemas() {
  let definitions: Json = {};
  const schemas: Record<string, Record<string, Json>> = {};
  for (const op of operations()) {
    for (const [status, response] of Object.entries<Json>(op.operation.responses)) {
      const schema = resolve(response).content?.['application/json']?.schema;
      if (!schema) continue;
      const { definitions: all, ...root } = toJsonSchema(schema);
      definitions = all;
      schemas[op.operationId] = { ...schemas[op.operationId], [status]: root };
    }
  }
  // Ajv 6 (inside gavel) refuses unknown formats: `int64` is OpenAPI's, not JSON Schema's.
  const withoutInt64 = (node: Json): Json =>
    JSON.parse(
      JSON.stringify(node, (key, value) => (key === 'format' && value === 'int64' ? undefined : value)),
    );
  return { schemas: withoutInt64(schemas), definitions: withoutInt64(definitions) };
}

/** The required top-level fields of each operation's JSON body (an XML body has none to name). */
function requiredBodyFields(): Record<string, string[]> {
  return Object.fromEntries(
    operations()
      .filter((op) => resolve(op.operation.requestBody)?.content?.['application/json'])
      .map((op) => {
        const schema = resolve(resolve(op.operation.requestBody).content['application/json'].schema);
        return [op.operationId, (schema.required ?? []) as string[]];
      }),
  );
}

function readReport(
  file: string,
): { skips: { name: string; reason: string }[]; crafted: number; codeChecks: number } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Objects some transactions consume or need in a given state: a service to update, one to
 * delete, an inactive one and a deleted one; endpoints to update, delete and rotate; a payment
 * that stays `initiated` (not refundable).
 */
async function extraFixtures(api: Api, sinkUrl: string) {
  const service = async (name: string) =>
    expectSuccess(await api.post('/services', { name }), `service ${name}`).body.data.service_id as string;
  const endpoint = async (description: string) =>
    expectSuccess(
      await api.post('/webhook-endpoints', { url: sinkUrl, description }),
      `endpoint ${description}`,
    ).body.data.id as string;
  const [serviceToUpdate, serviceToDelete, inactiveService, deletedService] = await Promise.all([
    service('to update'),
    service('to delete'),
    service('inactive'),
    service('deleted'),
  ]);
  const [endpointToUpdate, endpointToDelete, endpointToRotate] = await Promise.all([
    endpoint('to update'),
    endpoint('to delete'),
    endpoint('to rotate'),
  ]);
  expectSuccess(
    await api.call('PUT', `/services/${inactiveService}`, { body: { status: 'inactive' } }),
    'deactivate',
  );
  expectSuccess(await api.call('DELETE', `/services/${deletedService}`), 'delete service');
  const pending = await createMovement(api, '/payments', 'pending payment', {
    amount: 500,
    customer_msisdn: sandbox.mtn.neverSettles,
    payment_method: 'mtn_momo',
    service_id: serviceToUpdate,
  });
  await reachesStatus(api, `/payments/${pending}`, 'initiated');
  return {
    serviceToUpdate,
    serviceToDelete,
    inactiveService,
    deletedService,
    endpointToUpdate,
    endpointToDelete,
    endpointToRotate,
    pendingPaymentId: pending,
  };
}
