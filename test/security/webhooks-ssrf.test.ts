/**
 * Attacks that try to make the server call inside its own network (server-side request
 * forgery), to use delivery results as a port scanner, or to swap a host's address after it
 * was checked (DNS rebinding).
 *
 * Only 127.0.0.1 is ever connected to. Other addresses appear only as URLs or resolver answers
 * that the policy refuses, or as a resolver answer at registration (which connects to nothing).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, createServer as createTlsServer } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { noAnswerError } from '../../server/webhooks/deliver.js';
import { startServiceOn } from '../support/server.js';
import { outboxOf, queueEvents, tableResolver, until, useWebhookRig } from './webhooks-support.js';

const { cleanups, server, receiver } = useWebhookRig();

/** Internal destinations, each spelled as an attacker would. */
const internalUrls = (port: number) => [
  `http://127.0.0.1:${port}/hooks`,
  'http://10.0.0.7/hooks',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]/hooks',
  'http://[::ffff:127.0.0.1]/hooks',
  'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'http://2130706433/hooks',
  'http://0x7f.1/hooks',
  'http://017700000001/hooks',
  'http://localhost/hooks',
  'http://192.168.1.1/hooks',
  'http://[fd00::1]/hooks',
];

describe('no server-side request forgery by default', () => {
  it('the opt-in is off in every NODE_ENV unless set', () => {
    for (const NODE_ENV of ['development', 'test', 'production']) {
      expect(
        loadConfig({ NODE_ENV, SECRETS_ENCRYPTION_KEY: 'ab'.repeat(32) }).webhookAllowPrivateUrlsInTest,
        NODE_ENV,
      ).toBe(false);
    }
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' }).webhookAllowPrivateUrlsInTest).toBe(
      true,
    );
  });

  it('a refused loopback URL names the setting that allows it in test mode, and none in live', async () => {
    const s = await server();
    const r = await receiver();
    const setting = /WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST=true/;
    const inTest = await s.raw('POST', '/webhook-endpoints', { body: { url: r.url } });
    expect(inTest.status).toBe(400);
    expect(inTest.body.error.message).toMatch(/must be public: 127\.0\.0\.1 is a loopback address/);
    expect(inTest.body.error.message).toMatch(setting);
    const inLive = await s.raw('POST', '/webhook-endpoints', {
      as: s.live,
      body: { url: r.url.replace(/^http:/, 'https:') },
    });
    expect(inLive.status).toBe(400);
    expect(inLive.body.error.message).toMatch(/must be public: 127\.0\.0\.1 is a loopback address/);
    expect(inLive.body.error.message).not.toMatch(/WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST/);
    expect(r.hits).toEqual([]);
  });

  it('refuses internal URLs at registration and on update, in both modes, without the opt-in', async () => {
    const s = await server({}, tableResolver({ 'hooks.shop.example.com': ['93.184.215.14'] }));
    const r = await receiver();
    const existing = await s.raw('POST', '/webhook-endpoints', {
      body: { url: 'http://hooks.shop.example.com/hooks' },
    });
    expect(existing.status).toBe(201);
    for (const url of internalUrls(r.port)) {
      const response = await s.raw('PUT', `/webhook-endpoints/${existing.body.data.id}`, {
        body: { url },
      });
      expect(response.status, url).toBe(400);
    }
    await s.raw('DELETE', `/webhook-endpoints/${existing.body.data.id}`);
    for (const as of [s.test, s.live]) {
      for (const url of internalUrls(r.port)) {
        const live = as === s.live;
        const response = await s.raw('POST', '/webhook-endpoints', {
          as,
          body: { url: live ? url.replace(/^http:/, 'https:') : url },
        });
        expect(response.status, url).toBe(400);
        expect(response.body.error, url).toMatchObject({ code: 'invalid_field', param: 'url' });
        expect(response.body.error.message, url).toMatch(/must be public/);
      }
    }
    expect((await s.raw('GET', '/webhook-endpoints')).body.data.items).toEqual([]);
    expect(r.hits).toEqual([]);
  });

  it('with the opt-in, sandbox endpoints may be local but live ones never are', async () => {
    const s = await server({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
    const r = await receiver();
    expect((await s.raw('POST', '/webhook-endpoints', { body: { url: r.url } })).status).toBe(201);
    for (const url of internalUrls(r.port)) {
      const response = await s.raw('POST', '/webhook-endpoints', {
        as: s.live,
        body: { url: url.replace(/^http:/, 'https:') },
      });
      expect(response.status, url).toBe(400);
    }
  });

  it('live endpoints must be https', async () => {
    const s = await server();
    const response = await s.raw('POST', '/webhook-endpoints', {
      as: s.live,
      body: { url: 'http://93.184.215.14/hooks' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_field', param: 'url' });
    expect(response.body.error.message).toMatch(/https/);
  });

  it('refuses at send time an endpoint that became internal (registered while the opt-in was on)', async () => {
    const first = await server({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
    const r = await receiver();
    const created = await first.raw('POST', '/webhook-endpoints', { body: { url: r.url } });
    const id = created.body.data.id as string;
    await queueEvents(first, id, 2);
    await first.service.close();

    // The operator turns the opt-in off: the stored endpoint is not called any more.
    // The same database on either engine (its DATABASE_PATH, or its DATABASE_URL and key).
    const again = await startServiceOn(first);
    cleanups.push(() => again.close());
    expect(await again.webhooks.runOnce()).toBe(0);
    expect(r.hits).toEqual([]);
    for (const row of await outboxOf(first, id)) {
      expect(row).toMatchObject({ attempts: 1, status: 'pending', last_response_status: null });
      expect(row.last_error).toMatch(/must be public: 127\.0\.0\.1 is a loopback address/);
    }
  });

  it('refuses at send time a live endpoint stored with http, or pointing inside', async () => {
    const s = await server({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' });
    const r = await receiver();
    // Rows written before the rules existed: straight into the table.
    const ids = await s.service.deps.store.transact(async (tx) => {
      const inserted: string[] = [];
      for (const [i, url] of [r.url, r.url.replace(/^http:/, 'https:')].entries()) {
        const id = `we_legacyLiveEndpoint00000${i}`;
        await tx.endpoints.insert({
          id,
          account_id: s.account.accountId,
          mode: 'live',
          url,
          events: null,
          description: null,
          status: 'enabled',
          secret: 'whsec_00000000000000000000000000000000',
          previous_secret: null,
          previous_secret_expires_at: null,
          created_at: s.clock.now(),
          updated_at: s.clock.now(),
          deleted_at: null,
        });
        inserted.push(id);
      }
      return inserted;
    });
    for (const id of ids) await queueEvents(s, id, 1, { mode: 'live' });
    await s.deliverWebhooks();
    expect(r.hits).toEqual([]);
    expect((await outboxOf(s, ids[0] as string))[0]?.last_error).toBe('Live webhook URLs must use https.');
    expect((await outboxOf(s, ids[1] as string))[0]?.last_error).toMatch(/must be public/);
  });
});

describe('delivery results are not a port scanner', () => {
  it('a closed port, a silent port and a port that does not speak HTTP read the same', async () => {
    const s = await server({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true', WEBHOOK_TIMEOUT_MS: '300' });
    const listen = async (server: Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      const sockets = new Set<Socket>();
      server.on('connection', (socket: Socket) => sockets.add(socket));
      cleanups.push(
        () =>
          new Promise((resolve) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => resolve());
          }),
      );
      return port;
    };
    const closed = createTcpServer();
    const closedPort = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    // Accepts and never says anything (what a filtered port looks like from outside).
    const silentPort = await listen(createTcpServer(() => {}));
    // Open, but another protocol.
    const sshPort = await listen(
      createTcpServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n'))),
    );

    const rows = [];
    for (const port of [closedPort, silentPort, sshPort]) {
      const created = await s.raw('POST', '/webhook-endpoints', {
        body: { url: `http://127.0.0.1:${port}/hooks` },
      });
      const id = created.body.data.id as string;
      await queueEvents(s, id, 1);
      await s.deliverWebhooks();
      const [eventId] = (await outboxOf(s, id)).map((d) => d.event_id);
      const seen = (await s.raw('GET', `/events/${eventId}/deliveries`)).body.data.items[0];
      rows.push(seen);
    }
    for (const row of rows) {
      expect(row).toMatchObject({
        attempts: 1,
        last_response_status: null,
        last_error: noAnswerError,
        last_duration_ms: null,
      });
    }
  });
});

describe('no DNS rebinding', () => {
  it('a name that was public at registration and points inside at send time is not called', async () => {
    const table: Record<string, string[]> = { 'hooks.shop.example.com': ['93.184.215.14'] };
    const resolver = tableResolver(table);
    const s = await server({}, resolver);
    const r = await receiver();
    const created = await s.raw('POST', '/webhook-endpoints', {
      body: { url: `http://hooks.shop.example.com:${r.port}/hooks` },
    });
    expect(created.status).toBe(201);
    // The attacker's DNS now answers with this machine (and, for good measure, a public one).
    table['hooks.shop.example.com'] = ['93.184.215.14', '127.0.0.1'];
    const id = created.body.data.id as string;
    await queueEvents(s, id, 1);
    await s.deliverWebhooks();
    expect(r.hits).toEqual([]);
    expect((await outboxOf(s, id))[0]?.last_error).toMatch(/resolves to a loopback address/);
  });

  it('connects to the address that was checked, with the URL host in Host, resolving once per attempt', async () => {
    // `.test` names never resolve through the system resolver: if the HTTP client resolved the
    // name again by itself, the delivery could not arrive.
    const table: Record<string, string[]> = { 'receiver.rebind.test': ['127.0.0.1'] };
    const resolver = tableResolver(table);
    const s = await server({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' }, resolver);
    const r = await receiver();
    const created = await s.raw('POST', '/webhook-endpoints', {
      body: { url: `http://receiver.rebind.test:${r.port}/hooks?shop=1` },
    });
    const id = created.body.data.id as string;
    const events = await queueEvents(s, id, 3);
    resolver.calls.length = 0;
    expect(await s.deliverWebhooks()).toBe(3);
    expect(r.hits.map((h) => h.eventId).sort()).toEqual([...events].sort());
    for (const hit of r.hits) expect(hit.headers.host).toBe(`receiver.rebind.test:${r.port}`);
    expect(resolver.calls).toEqual(['receiver.rebind.test', 'receiver.rebind.test', 'receiver.rebind.test']);
  });

  it('over https, names the URL host in SNI while connecting to the checked address, and verifies the certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=receiver.rebind.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const context = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
    const serverNames: string[] = [];
    const tlsServer = createTlsServer({
      ...context,
      SNICallback: (name, done) => {
        serverNames.push(name);
        done(null, createSecureContext(context));
      },
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => tlsServer.close(() => resolve())));
    const { port } = tlsServer.address() as { port: number };

    const resolver = tableResolver({ 'receiver.rebind.test': ['127.0.0.1'] });
    const s = await server({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'true' }, resolver);
    const created = await s.raw('POST', '/webhook-endpoints', {
      body: { url: `https://receiver.rebind.test:${port}/hooks` },
    });
    const id = created.body.data.id as string;
    await queueEvents(s, id, 1);
    await s.deliverWebhooks();
    expect(serverNames).toEqual(['receiver.rebind.test']);
    // A self-signed certificate is not trusted: the attempt fails like any other without an answer.
    expect((await outboxOf(s, id))[0]).toMatchObject({ attempts: 1, last_error: noAnswerError });
  });

  it('a name whose answer changes between attempts is checked again each time', async () => {
    const table: Record<string, string[]> = { 'flip.example.com': ['93.184.215.14'] };
    const resolver = tableResolver(table);
    const s = await server({ WEBHOOK_RETRY_BASE_MS: '1000', WEBHOOK_RETRY_MAX_MS: '1000' }, resolver);
    const created = await s.raw('POST', '/webhook-endpoints', {
      body: { url: 'http://flip.example.com/hooks' },
    });
    const id = created.body.data.id as string;
    await queueEvents(s, id, 1);
    for (const answer of [['10.0.0.1'], ['169.254.169.254'], ['::ffff:127.0.0.1'], ['fe80::1']]) {
      table['flip.example.com'] = answer;
      await s.deliverWebhooks();
      s.clock.advance(1001);
    }
    await until(async () => ((await outboxOf(s, id))[0]?.attempts ?? 0) === 4, 'four attempts are recorded');
    expect((await outboxOf(s, id))[0]?.last_error).toMatch(
      /must be public: flip.example.com resolves to a link-local/,
    );
  });
});
