/**
 * Attack: content served beside the API (the docs, the contract, the hosted checkout) used as
 * a stage for script injection or content sniffing. Each sends a Content-Security-Policy and
 * `X-Content-Type-Options: nosniff`; the docs page still works under its policy, in Chromium.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocs } from '../../scripts/docs/build.js';
import { openIsolatedPage, releaseChromium, sharedChromium } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

const docsIndex = fileURLToPath(new URL('../../build/docs/index.html', import.meta.url));

describe('static pages send a CSP and nosniff', () => {
  let server: TestServer;
  let origin: string;
  beforeAll(async () => {
    if (!existsSync(docsIndex)) await buildDocs();
    server = await startTestServer();
    origin = server.url.replace(/\/v1$/, '');
  }, 120_000);
  afterAll(() => server.close());

  it('/openapi.yaml: data only, nothing runs', async () => {
    const response = await fetch(`${origin}/openapi.yaml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    await response.arrayBuffer();
  });

  it('/docs/: scripts only by hash, no inline script of another origin or injected later', async () => {
    const response = await fetch(`${origin}/docs/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).not.toContain("'unsafe-inline' 'self'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
    await response.arrayBuffer();
  });

  it('/docs errors and the checkout carry them too', async () => {
    const missing = await fetch(`${origin}/docs/nothing-here.js`);
    await missing.arrayBuffer();
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    expect(missing.headers.get('content-security-policy')).toContain("default-src 'none'");
    const checkout = await fetch(`${origin}/checkout/chk_unknown`);
    await checkout.arrayBuffer();
    expect(checkout.headers.get('x-content-type-options')).toBe('nosniff');
  });

  describe('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await sharedChromium();
    });
    afterAll(() => releaseChromium(browser));

    it('the docs page renders under its policy without a single violation', async () => {
      const { context, page, foreignRequests } = await openIsolatedPage(browser, origin);
      try {
        const violations: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
        });
        await page.goto(`${origin}/docs/`);
        await page.locator('[data-component-name="Menu/MenuItem"]').first().waitFor({ timeout: 30_000 });
        await expect.poll(() => page.locator('h1, h2').count()).toBeGreaterThan(0);
        expect(violations).toEqual([]);
        expect(foreignRequests).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);
  });
});
