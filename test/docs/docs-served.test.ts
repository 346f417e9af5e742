/**
 * The docs as the API serves them at /docs: their Servers card (and every sample address) names
 * the address this server is really on, not the built-in http://127.0.0.1:3000/v1; and the page
 * is rebuilt only when one of its inputs changed.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocsIfChanged } from '../../scripts/docs/build.js';
import { openIsolatedPage, releaseChromium, sharedChromium } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { spec } from '../support/spec.js';

const builtIn = spec.servers[0].url as string;

describe('the docs served at /docs', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    await buildDocsIfChanged();
    server = await startTestServer();
    browser = await sharedChromium();
  }, 120_000);
  afterAll(async () => {
    await releaseChromium(browser);
    await server?.close();
  });

  it('name the address the server is on in the Servers card, once rendered in a browser', async () => {
    expect(server.url).not.toBe(builtIn);
    const origin = new URL(server.url).origin;
    const { page, context, foreignRequests } = await openIsolatedPage(browser, origin);
    await page.goto(`${origin}/docs/`, { waitUntil: 'networkidle' });
    // Redoc's server panel, rendered from the page's state once its script has run.
    const panel = page.locator('[data-testid="server-panel-item-name"]').first().locator('xpath=../..');
    await expect(panel.textContent()).resolves.toContain(server.url);
    // Nor does the state the page hydrates from (an inline script) keep the built-in address.
    expect(await page.content()).not.toContain(builtIn);
    expect(foreignRequests).toEqual([]);
    await context.close();
  });
});

describe('npm start rebuilding the docs', () => {
  it('rebuilds only when the contract changed (a content-hash stamp)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-stamp-'));
    try {
      const specPath = join(dir, 'openapi.yaml');
      const outDir = join(dir, 'out');
      copyFileSync(new URL('../../openapi.yaml', import.meta.url), specPath);
      const first = await buildDocsIfChanged({ specPath, outDir });
      expect(first.rebuilt).toBe(true);
      const builtAt = statSync(first.htmlPath).mtimeMs;

      const again = await buildDocsIfChanged({ specPath, outDir });
      expect(again.rebuilt).toBe(false);
      expect(statSync(again.htmlPath).mtimeMs).toBe(builtAt);

      writeFileSync(
        specPath,
        readFileSync(specPath, 'utf8').replace(/title: .*/, 'title: A changed title for the stamp test'),
      );
      const changed = await buildDocsIfChanged({ specPath, outDir });
      expect(changed.rebuilt).toBe(true);
      expect(readFileSync(changed.htmlPath, 'utf8')).toContain('A changed title for the stamp test');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
