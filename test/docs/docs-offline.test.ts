/**
 * The published docs work with no network: built by `npm run docs`, served from 127.0.0.1 and
 * opened in Chromium with every other origin cut off, they request nothing elsewhere and still
 * render every operation and webhook.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocs } from '../../scripts/docs/build.js';
import {
  type IsolatedPage,
  launchChromium,
  openIsolatedPage,
  type StaticServer,
  saveScreenshot,
  serveDirectory,
} from '../support/browser.js';
import { type Json, operations, spec } from '../support/spec.js';

/**
 * Redoc shows one page at a time (the overview, a tag, an operation) and renders operations only
 * once opened, so every entry of its sidebar is clicked in turn, as a reader would, including the
 * operations a tag lists once opened. Returns the headings shown on the way.
 */
async function headingsOfEveryPage(page: Page): Promise<Set<string>> {
  const entries = page.locator('[data-component-name="Menu/MenuItem"] > a');
  const targetOf = (href: string) => href.replace(/^#/, '');
  const visited = new Set<string>();
  const headings = new Set<string>();
  for (;;) {
    const hrefs = await entries.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    const href = hrefs.find((h) => !visited.has(targetOf(h)));
    if (href === undefined) break;
    visited.add(targetOf(href));
    await entries
      .and(page.locator(`[href="${href}"]`))
      .first()
      .click();
    await page.waitForFunction((target) => window.location.hash === `#${target}`, targetOf(href));
    // Redoc renders the section a moment after the hash changes, later on a busy machine: read
    // the headings until two reads a few frames apart agree (bounded; the assertions stay strict).
    let previous = '';
    for (let tries = 0; tries < 20; tries++) {
      await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
      const current = (await page.locator('h1, h2').allInnerTexts()).join('|');
      if (current !== '' && current === previous) break;
      previous = current;
    }
    for (const text of await page.locator('h1, h2').allInnerTexts())
      headings.add(text.split('\n')[0]?.trim() ?? '');
  }
  await entries.first().click(); // back to the overview
  await page.waitForFunction(() => window.location.hash === '#/');
  return headings;
}

describe('docs', () => {
  describe('with the network blocked', () => {
    let server: StaticServer;
    let browser: Browser;
    let isolated: IsolatedPage;
    let headings: Set<string>;

    beforeAll(async () => {
      const { htmlPath } = await buildDocs();
      server = await serveDirectory(dirname(htmlPath));
      browser = await launchChromium();
      isolated = await openIsolatedPage(browser, server.url, { viewport: { width: 1280, height: 1600 } });
      await isolated.page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
      headings = await headingsOfEveryPage(isolated.page);
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('requests nothing outside its own origin', () => {
      expect(isolated.foreignRequests).toEqual([]);
    });

    it('renders every operation, headed by its summary', () => {
      const summaries = operations().map((o) => o.operation.summary as string);
      expect(summaries.length).toBeGreaterThan(0);
      expect(summaries.filter((s) => !headings.has(s))).toEqual([]);
    });

    it('renders every webhook event, headed by its summary', () => {
      const events = Object.values<Json>(spec['x-webhooks'] ?? {}).map((item) => item.post.summary as string);
      expect(events.length).toBeGreaterThan(0);
      expect(events.filter((s) => !headings.has(s))).toEqual([]);
    });

    it('saves a full-page screenshot as a CI artefact', async () => {
      const path = await saveScreenshot(isolated.page, 'docs');
      const png = await readFile(path);
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(png.byteLength).toBeGreaterThan(10_000);
    });
  });

  describe('the network block itself', () => {
    it('aborts and records a request to another origin', async () => {
      const browser = await launchChromium();
      try {
        const { page, foreignRequests } = await openIsolatedPage(browser, 'http://127.0.0.1:9');
        await page.setContent('<img src="https://cdn.example.invalid/logo.svg">', { waitUntil: 'load' });
        expect(foreignRequests).toEqual(['https://cdn.example.invalid/logo.svg']);
      } finally {
        await browser.close();
      }
    });
  });
});
