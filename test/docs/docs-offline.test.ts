/**
 * The published docs work with no network: built by `npm run docs`, served from 127.0.0.1 and
 * opened in Chromium with every other origin cut off, they request nothing elsewhere and still
 * render every operation and webhook. The page is the one `npm run docs` wrote when it was built
 * from the same inputs (its stamp says so), built again otherwise. The walk runs in the headless
 * shell like the other browser tests (test/support/browser.ts): the same engine as the full
 * browser, and 24 CPU-s of Chromium against 34 (docs/decisions/0019-browser-tests-in-the-headless-shell.md).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocsIfChanged } from '../../scripts/docs/build.js';
import {
  type IsolatedPage,
  openIsolatedPage,
  releaseChromium,
  type StaticServer,
  saveScreenshot,
  serveDirectory,
  sharedChromium,
} from '../support/browser.js';
import { type Json, operations, spec } from '../support/spec.js';

/**
 * Redoc shows one page at a time (the overview, a tag, an operation) and renders operations only
 * once opened, so every entry of its sidebar is clicked in turn, as a reader would, including the
 * operations a tag lists once opened. Returns the headings shown on the way.
 *
 * The walk runs inside the page, in one call: a round trip from the test per click, per wait and
 * per read made this the longest file of the suite (69 entries), on a machine where every
 * CPU-second counts (docs/benchmarks.md, "Test suite time").
 */
async function headingsOfEveryPage(page: Page, summaries: string[]): Promise<Set<string>> {
  const shown = await page.evaluate(async (summaries) => {
    const entries = () =>
      Array.from(document.querySelectorAll<HTMLAnchorElement>('[data-component-name="Menu/MenuItem"] > a'));
    const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
    // What a reader sees (innerText), not the text of hidden elements too (textContent).
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point
    const texts = () => Array.from(document.querySelectorAll<HTMLElement>('h1, h2'), (h) => h.innerText);
    const firstLine = (text: string) => text.split('\n')[0]?.trim() ?? '';
    // The menu's links are plain addresses (/section/errors) that the page's script turns into
    // in-page moves once it has taken the markup over, a moment after load on a busy machine
    // (later than "network idle"). A click it did not handle would leave the page: the guard,
    // which runs after the page's own handlers, cancels it, and the click is tried again.
    let unhandled = false;
    window.addEventListener('click', (event) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      unhandled = true;
    });
    const click = async (entry: HTMLAnchorElement) => {
      for (let tries = 0; tries < 400; tries++) {
        unhandled = false;
        entry.click();
        if (!unhandled) return true;
        await pause(25);
      }
      return false;
    };
    const visited = new Set<string>();
    const headings = new Set<string>();
    const failures: string[] = [];
    for (;;) {
      const entry = entries().find((link) => !visited.has(link.getAttribute('href') ?? ''));
      if (!entry) break;
      const href = entry.getAttribute('href') ?? '';
      visited.add(href);
      const listed = new Set(entries().map((link) => link.getAttribute('href')));
      const hash = `#${href.replace(/^#/, '')}`;
      if (!(await click(entry))) failures.push(`${href}: the page never handled its click`);
      for (let tries = 0; tries < 200 && window.location.hash !== hash; tries++) await pause(10);
      if (window.location.hash !== hash) failures.push(`${href}: the address never changed`);
      // Redoc renders the section a moment after the hash changes, later on a busy machine: wait
      // for a heading with the entry's own name, up to 10 s for an operation or a webhook (whose
      // page must show it) and 1 s for the rest (sections of the overview share its page), then
      // read the headings until two reads a few frames apart agree (the assertions stay strict).
      const label = entry.textContent ?? '';
      // An operation's or webhook's entry: its page is drawn once a heading reads its summary
      // exactly (the previous page may show a heading the entry's label contains).
      const summary = summaries.filter((text) => label.includes(text)).sort((a, b) => b.length - a.length)[0];
      const ownHeading = () =>
        texts().some((text) =>
          summary === undefined ? label.includes(firstLine(text) || '\u0000') : firstLine(text) === summary,
        );
      for (let tries = 0; tries < (summary ? 400 : 40) && !ownHeading(); tries++) await pause(25);
      if (summary && !ownHeading()) failures.push(`${href}: its heading never appeared`);
      let previous = '';
      for (let tries = 0; tries < 40; tries++) {
        await pause(25);
        const current = texts().join('|');
        if (current !== '' && current === previous) break;
        previous = current;
      }
      for (const text of texts()) headings.add(firstLine(text));
      // A tag (a one-segment address: /payments) lists its operations once opened, a moment
      // later: the next entry is looked for once they are listed (up to 10 s, as an operation's
      // heading: 3 s once passed the payments tag's operations over when the whole suite ran
      // beside the fault tests), or a slow tag's operations would be closed by the next tag's
      // click, unvisited.
      if (/^\/[^/]+$/.test(href)) {
        const opened = () => entries().some((link) => !listed.has(link.getAttribute('href')));
        for (let tries = 0; tries < 400 && !opened(); tries++) await pause(25);
      }
    }
    const overview = entries()[0];
    if (overview) await click(overview); // back to the overview
    return { headings: [...headings], visited: visited.size, failures };
  }, summaries);
  expect(shown.failures).toEqual([]);
  expect(shown.visited).toBeGreaterThan(10);
  await page.waitForFunction(() => window.location.hash === '#/');
  return new Set(shown.headings);
}

describe('docs', () => {
  describe('with the network blocked', () => {
    let server: StaticServer;
    let browser: Browser;
    let isolated: IsolatedPage;
    let headings: Set<string>;

    beforeAll(async () => {
      const { htmlPath } = await buildDocsIfChanged();
      server = await serveDirectory(dirname(htmlPath));
      browser = await sharedChromium();
      isolated = await openIsolatedPage(browser, server.url, { viewport: { width: 1280, height: 1600 } });
      await isolated.page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
      const webhooks = Object.values<Json>(spec['x-webhooks'] ?? {}).map(
        (item) => item.post.summary as string,
      );
      const summaries = [...operations().map((o) => o.operation.summary as string), ...webhooks];
      headings = await headingsOfEveryPage(isolated.page, summaries);
    }, 180_000);

    afterAll(async () => {
      await releaseChromium(browser);
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
      const path = await saveScreenshot(isolated.page, 'docs', { always: true });
      const png = await readFile(path ?? '');
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(png.byteLength).toBeGreaterThan(10_000);
    });
  });

  describe('the network block itself', () => {
    it('aborts and records a request to another origin', async () => {
      const { page, context, foreignRequests } = await openIsolatedPage(
        await sharedChromium(),
        'http://127.0.0.1:9',
      );
      try {
        await page.setContent('<img src="https://cdn.example.invalid/logo.svg">', { waitUntil: 'load' });
        expect(foreignRequests).toEqual(['https://cdn.example.invalid/logo.svg']);
      } finally {
        await context.close();
      }
    });
  });
});
