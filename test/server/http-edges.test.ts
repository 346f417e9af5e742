/**
 * HTTP edges an independent client trips on: routing is exact (case, trailing slash), a wrong
 * method names the right ones in `Allow`, HEAD and OPTIONS work on every path of the contract,
 * a non-Bearer Authorization is a missing key, a path without `/v1` is told so, and the API user
 * (a UUID) is compared without regard to case.
 */
import { describe, expect, it } from 'vitest';
import { raw } from '../support/api.js';
import { useTestServer } from '../support/server.js';
import { type Json, spec } from '../support/spec.js';

const server = useTestServer();

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** A concrete path for a template: `{id}` becomes an id of the right shape. */
function concrete(template: string): string {
  return template.replace(
    '{id}',
    template.startsWith('/payments')
      ? 'pay_000000000000000000000000'
      : template.startsWith('/payouts')
        ? 'po_000000000000000000000000'
        : template.startsWith('/topups')
          ? 'tu_000000000000000000000000'
          : template.startsWith('/services')
            ? 'svc_000000000000000000000000'
            : template.startsWith('/webhook-endpoints')
              ? 'we_000000000000000000000000'
              : 'evt_000000000000000000000000',
  );
}

const paths = Object.entries<Json>(spec.paths).map(([template, item]) => ({
  template,
  path: concrete(template),
  methods: methods.filter((m) => item[m]).map((m) => m.toUpperCase()),
}));

describe('routing is exact', () => {
  it('a trailing slash, another letter case or /V1 is 404 route_not_found, not the operation', async () => {
    const origin = server.url.replace(/\/v1$/, '');
    for (const url of [
      '/v1/payments/',
      '/v1/PAYMENTS',
      '/v1/Payments',
      '/V1/payments',
      '/v1/balance/',
      '/v1//balance',
    ]) {
      const response = await raw(origin, 'GET', url, { as: server.test });
      expect({ url, status: response.status, code: response.body.error?.code }).toEqual({
        url,
        status: 404,
        code: 'route_not_found',
      });
    }
  });

  it('a rotation sent to /v1/api-keys/rotate/ or /v1/API-KEYS/rotate does not rotate the key', async () => {
    const { test } = await server.newAccount('Rotation by accident');
    for (const path of ['/api-keys/rotate/', '/API-KEYS/rotate', '/api-keys/ROTATE']) {
      const response = await server.raw('POST', path, { as: test, body: {} });
      expect({ path, status: response.status, code: response.body.error?.code }).toEqual({
        path,
        status: 404,
        code: 'route_not_found',
      });
    }
    // The key that made the calls still works: nothing was rotated.
    expect((await server.raw('GET', '/api-keys', { as: test })).status).toBe(200);
  });
});

describe('methods', () => {
  it('every 405 carries Allow naming the methods the path has', async () => {
    for (const { template, path, methods: has } of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].filter((m) => !has.includes(m))) {
        const response = await server.raw(method, path);
        expect({ template, method, status: response.status }).toEqual({ template, method, status: 405 });
        expect(JSON.parse(response.text).error.code).toBe('method_not_allowed');
        const allow = (response.headers.get('allow') ?? '').split(/,\s*/);
        expect(allow, `${method} ${template}`).toEqual(expect.arrayContaining([...has, 'OPTIONS']));
        expect(allow).not.toContain(method);
      }
    }
  });

  it('OPTIONS on every path answers 204 with Allow', async () => {
    for (const { template, path, methods: has } of paths) {
      const response = await server.raw('OPTIONS', path);
      expect({ template, status: response.status, text: response.text }).toEqual({
        template,
        status: 204,
        text: '',
      });
      const allow = (response.headers.get('allow') ?? '').split(/,\s*/);
      expect(allow, template).toEqual(expect.arrayContaining([...has, 'OPTIONS']));
      if (has.includes('GET')) expect(allow, template).toContain('HEAD');
    }
  });

  it('HEAD works on every GET resource: the GET status and headers, no body', async () => {
    for (const { template, path, methods: has } of paths) {
      if (!has.includes('GET')) continue;
      const query =
        template === '/reports/balance-transactions'
          ? '?created_gte=2026-11-01T00:00:00Z&created_lt=2026-12-01T00:00:00Z'
          : '';
      const get = await server.raw('GET', path + query);
      const head = await server.raw('HEAD', path + query);
      expect({ template, status: head.status }).toEqual({ template, status: get.status });
      expect(head.status).not.toBe(405);
      expect(head.text).toBe('');
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });
});

describe('authentication headers', () => {
  it('an Authorization header of another scheme is 401 missing_api_key, as the error table says', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', `Token ${server.test.key}`, server.test.key]) {
      const response = await server.raw('GET', '/balance', { headers: { authorization } });
      expect({ authorization, status: response.status, code: response.body.error.code }).toEqual({
        authorization,
        status: 401,
        code: 'missing_api_key',
      });
    }
    // A Bearer header with a wrong key is still a wrong key.
    const wrong = await server.raw('GET', '/balance', {
      headers: { authorization: 'Bearer sk_test_nope' },
    });
    expect(wrong.body.error.code).toBe('invalid_api_key');
  });

  it('X-API-User is a UUID and is compared without regard to letter case', async () => {
    const upper = await server.raw('GET', '/balance', {
      headers: { 'x-api-user': server.test.apiUser.toUpperCase() },
    });
    expect(upper.status).toBe(200);
    const other = await server.newAccount('Another user');
    const foreign = await server.raw('GET', '/balance', {
      headers: { 'x-api-user': other.test.apiUser.toUpperCase() },
    });
    expect(foreign.body.error.code).toBe('invalid_api_user');
  });
});

describe('a missing /v1 prefix', () => {
  it('is 404 route_not_found with a hint at the /v1 path', async () => {
    const origin = server.url.replace(/\/v1$/, '');
    const response = await raw(origin, 'GET', '/payments', { as: server.test });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('route_not_found');
    expect(response.body.error.message).toContain('/v1/payments');
  });
});
