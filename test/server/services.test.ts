import { describe, expect, it } from 'vitest';
import { collect, createService } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

const server = useTestServer();

describe('services', () => {
  it('POST /services registers an active service with defaults', async () => {
    const response = await server.request('POST', '/services', {
      body: { name: 'Boutique Akwa', description: 'WooCommerce plugin', type: 'plugin' },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      name: 'Boutique Akwa',
      description: 'WooCommerce plugin',
      type: 'plugin',
      status: 'active',
      mode: 'test',
      deleted_at: null,
    });
    const minimal = await server.request('POST', '/services', { body: { name: 'Minimal' } });
    expect(minimal.body.data).toMatchObject({ type: 'other', description: null });
  });

  it('PUT /services/{id} changes only the fields given; null clears the description', async () => {
    const id = await createService(server, server.test, 'Before');
    await server.request('PUT', `/services/${id}`, { body: { description: 'note' } });
    const response = await server.request('PUT', `/services/${id}`, {
      body: { name: 'After', description: null },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      service_id: id,
      name: 'After',
      description: null,
      status: 'active',
    });
  });

  it('PUT with an empty body is 400: there is nothing to change', async () => {
    const id = await createService(server);
    const response = await server.request('PUT', `/services/${id}`, { body: {} });
    expect(response.status).toBe(400);
  });

  it('DELETE keeps the service readable with its payments, and twice changes nothing', async () => {
    const id = await createService(server, server.test, 'Retired');
    const paymentId = await collect(server, id, 100);
    const deleted = await server.request('DELETE', `/services/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.status).toBe('deleted');
    expect(deleted.body.data.deleted_at).not.toBeNull();
    const again = await server.request('DELETE', `/services/${id}`);
    expect(again.body).toEqual(deleted.body);
    expect((await server.request('GET', `/services/${id}`)).body.data.status).toBe('deleted');
    expect((await server.request('GET', `/payments/${paymentId}`)).body.data.service_id).toBe(id);
  });

  it('a deleted service can no longer change: 409 service_deleted', async () => {
    const id = await createService(server);
    await server.request('DELETE', `/services/${id}`);
    const response = await server.request('PUT', `/services/${id}`, { body: { status: 'active' } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('service_deleted');
  });

  it('GET /services leaves deleted services out unless status=deleted asks for them', async () => {
    const fresh = await server.newAccount('Lists');
    const kept = await createService(server, fresh.test, 'Kept');
    const gone = await createService(server, fresh.test, 'Gone');
    await server.request('DELETE', `/services/${gone}`, { as: fresh.test });
    const listed = await server.request('GET', '/services', { as: fresh.test });
    expect(listed.body.data.items.map((s: { service_id: string }) => s.service_id)).toEqual([kept]);
    const deleted = await server.request('GET', '/services', {
      as: fresh.test,
      query: { status: 'deleted' },
    });
    expect(deleted.body.data.items.map((s: { service_id: string }) => s.service_id)).toEqual([gone]);
  });
});
