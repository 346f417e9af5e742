import { describe, expect, it } from 'vitest';
import { ok } from '../support/api.js';
import { collect, createService } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

const server = useTestServer();
const byId = (id: string) => ({ params: { path: { id } } });

describe('services', () => {
  it('POST /services registers an active service with defaults', async () => {
    const created = await server.api.POST('/services', {
      body: { name: 'Boutique Akwa', description: 'WooCommerce plugin', type: 'plugin' },
    });
    expect(created.response.status).toBe(201);
    expect(ok(created).data).toMatchObject({
      name: 'Boutique Akwa',
      description: 'WooCommerce plugin',
      type: 'plugin',
      status: 'active',
      mode: 'test',
      deleted_at: null,
    });
    const minimal = ok(await server.api.POST('/services', { body: { name: 'Minimal' } }));
    expect(minimal.data).toMatchObject({ type: 'other', description: null });
  });

  it('PUT /services/{id} changes only the fields given; null clears the description', async () => {
    const id = await createService(server, server.test, 'Before');
    ok(await server.api.PUT('/services/{id}', { ...byId(id), body: { description: 'note' } }));
    const updated = await server.api.PUT('/services/{id}', {
      ...byId(id),
      body: { name: 'After', description: null },
    });
    expect(updated.response.status).toBe(200);
    expect(ok(updated).data).toMatchObject({
      service_id: id,
      name: 'After',
      description: null,
      status: 'active',
    });
  });

  it('PUT with an empty body is 400: there is nothing to change', async () => {
    const id = await createService(server);
    const response = await server.api.PUT('/services/{id}', { ...byId(id), body: {} });
    expect(response.response.status).toBe(400);
  });

  it('DELETE keeps the service readable with its payments, and twice changes nothing', async () => {
    const id = await createService(server, server.test, 'Retired');
    const paymentId = await collect(server, id, 100);
    const deleted = await server.api.DELETE('/services/{id}', byId(id));
    expect(deleted.response.status).toBe(200);
    expect(ok(deleted).data.status).toBe('deleted');
    expect(ok(deleted).data.deleted_at).not.toBeNull();
    const again = await server.api.DELETE('/services/{id}', byId(id));
    expect(again.data).toEqual(deleted.data);
    expect(ok(await server.api.GET('/services/{id}', byId(id))).data.status).toBe('deleted');
    expect(ok(await server.api.GET('/payments/{id}', byId(paymentId))).data.service_id).toBe(id);
  });

  it('a deleted service can no longer change: 409 service_deleted', async () => {
    const id = await createService(server);
    ok(await server.api.DELETE('/services/{id}', byId(id)));
    const response = await server.api.PUT('/services/{id}', { ...byId(id), body: { status: 'active' } });
    expect(response.response.status).toBe(409);
    expect(response.error?.error.code).toBe('service_deleted');
  });

  it('GET /services leaves deleted services out unless status=deleted asks for them', async () => {
    const fresh = await server.newAccount('Lists');
    const api = server.apiAs(fresh.test);
    const kept = await createService(server, fresh.test, 'Kept');
    const gone = await createService(server, fresh.test, 'Gone');
    ok(await api.DELETE('/services/{id}', byId(gone)));
    const listed = ok(await api.GET('/services')).data;
    expect(listed.items.map((s) => s.service_id)).toEqual([kept]);
    const deleted = ok(await api.GET('/services', { params: { query: { status: 'deleted' } } })).data;
    expect(deleted.items.map((s) => s.service_id)).toEqual([gone]);
  });
});
