/**
 * Attack: reading the logs for secrets that travel in URLs. A hosted checkout's token, a
 * dashboard invitation's one-time link and an operator callback's reference are in the path of
 * the requests that use them; whoever reads the process log or the call log (support, a log
 * pipeline, a merchant's own dashboard) must not find them there, as they do not find keys.
 * Against a real listener, on either engine: the logs are read after the requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardUser, createResetLink } from '../../server/domain/dashboard-users.js';
import { addUser, httpSignIn, origin } from '../dashboard/support.js';
import { queryRows } from '../support/database.js';
import { createService } from '../support/fixtures.js';
import { collectingLogger } from '../support/log-lines.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
const { logger, lines } = collectingLogger();

beforeAll(async () => {
  server = await startTestServer({}, { logger });
});
afterAll(() => server.close());

/** Every line of the process log and every row of the call log, as text. */
async function everyLog(): Promise<{ process: string; calls: string }> {
  await server.flushLogs();
  const rows = await queryRows<Record<string, unknown>>(server, 'SELECT * FROM call_logs');
  return { process: JSON.stringify(lines), calls: JSON.stringify(rows) };
}

describe('secrets in paths are redacted from the logs', () => {
  it("a hosted checkout's token is in neither log, however its page was asked for", async () => {
    const serviceId = await createService(server);
    const created = await server.raw('POST', '/payments/initiate', {
      body: { amount: 2500, currency: 'XAF', service_id: serviceId },
    });
    expect(created.status, created.text).toBe(202);
    const url = new URL(created.body.data.checkout_url);
    const token = url.pathname.split('/').pop() as string;
    const base = origin(server);
    expect((await fetch(`${base}/checkout/${token}`)).status).toBe(200);
    expect((await fetch(`${base}/Checkout/${token}?again=${token}`)).status).toBe(200);
    expect((await fetch(`${base}/checkout/${token}/status`)).status).toBe(200);
    const paid = await fetch(`${base}/checkout/${token}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ msisdn: 'not a number' }),
    });
    expect(paid.status).toBeGreaterThanOrEqual(400);

    const logs = await everyLog();
    expect(logs.process).toContain('"path":"/checkout/[REDACTED]/pay"');
    expect(logs.process).toContain('"path":"/Checkout/[REDACTED]"');
    expect(logs.process).not.toContain(token);
    expect(logs.calls).not.toContain(token);
  });

  it("a dashboard invitation's one-time link is in neither log, even used by a signed-in user", async () => {
    const { linkToken } = await createDashboardUser(
      server.service.deps.store,
      { accountId: server.account.accountId, email: 'invited@shop.example', role: 'viewer' },
      server.clock.now(),
    );
    const token = linkToken as string;
    const base = origin(server);
    expect((await fetch(`${base}/dashboard/welcome/${token}`)).status).toBe(200);
    // A signed-in owner's POST is a dashboard action, which the call log records by its path.
    const owner = await httpSignIn(server, await addUser(server, 'owner'));
    const posted = await fetch(`${base}/dashboard/welcome/${token}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: 'short' }).toString(),
    });
    expect(posted.status).toBeGreaterThanOrEqual(300);

    const logs = await everyLog();
    expect(logs.process).toContain('"path":"/dashboard/welcome/[REDACTED]"');
    expect(logs.calls).toContain('/dashboard/welcome/[REDACTED]');
    expect(logs.process).not.toContain(token);
    expect(logs.calls).not.toContain(token);
  });

  it("a dashboard password reset's one-time link is in neither log", async () => {
    const email = await addUser(server, 'viewer');
    const reset = await createResetLink(server.service.deps.store, email, server.clock.now());
    const token = reset?.token as string;
    const base = origin(server);
    expect((await fetch(`${base}/dashboard/reset/${token}`)).status).toBe(200);
    expect((await fetch(`${base}/dashboard/RESET/${token}`)).status).toBe(200);
    const logs = await everyLog();
    expect(logs.process).toContain('"path":"/dashboard/reset/[REDACTED]"');
    expect(logs.process).toContain('"path":"/dashboard/RESET/[REDACTED]"');
    expect(logs.process).not.toContain(token);
    expect(logs.calls).not.toContain(token);
  });

  it("an operator callback's reference is in neither log; the movement's id still is", async () => {
    const reference = '6f1c1a5e-2b3d-4c5e-8f90-123456789abc';
    const id = 'pay_0VcEAAAAAAAAAAAAAAAAAAAA';
    const base = origin(server);
    for (const path of [
      `/operator-callbacks/mtn-momo/${id}/${reference}`,
      `/operator-callbacks/orange-money/${reference}`,
    ]) {
      expect((await fetch(`${base}${path}`, { method: 'POST', body: '{}' })).status).toBe(204);
    }
    const logs = await everyLog();
    expect(logs.process).toContain(`"path":"/operator-callbacks/mtn-momo/${id}/[REDACTED]"`);
    expect(logs.process).toContain('"path":"/operator-callbacks/orange-money/[REDACTED]"');
    expect(logs.process).not.toContain(reference);
    expect(logs.calls).not.toContain(reference);
  });
});
