/**
 * `npm start` on an empty database prints the dashboard's link with an owner's credentials, and
 * they sign in: the "done when" of the dashboard, run as a new user would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { httpSignIn } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'dashboard-first-start-'));
let server: ChildServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function printed(child: ChildServer, pattern: RegExp): Promise<RegExpExecArray> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const match = pattern.exec(child.output());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`never printed ${pattern}:\n${child.output()}`);
    // Polled: the child server offers no event for its printed lines.
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('first npm start', () => {
  it('prints the dashboard link and an owner who can sign in to the sandbox account', async () => {
    server = await startChildServer({ dbPath: join(dir, 'payments.db'), name: 'first start' });
    const [, link, email, secret] = await printed(
      server,
      /Dashboard: (http:\/\/\S+\/dashboard)\s+\(email (\S+), password (\S+)\)/,
    );
    const [, apiUser] = await printed(server, /export PAYMENTS_API_USER=(\S+)/);
    const origin = (link as string).replace(/\/dashboard$/, '');
    const session = await httpSignIn(origin, email as string, secret as string);
    expect(session.status).toBe(303);
    const keys = await fetch(`${origin}/dashboard/test/keys`, { headers: { cookie: session.cookie } });
    expect(keys.status).toBe(200);
    expect(await keys.text()).toContain(apiUser);
  });
});
