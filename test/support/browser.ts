/**
 * Browser tests in Debian's Chromium through playwright-core: launching it, serving pages from
 * 127.0.0.1, cutting pages off from every other origin, and saving screenshots as CI artefacts.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';

export { type StaticServer, serveDirectory } from '../../scripts/lib/static-server.js';

/** Debian's Chromium, the full browser (`apt-get install chromium`). */
const fullChromiumPath = '/usr/bin/chromium';

/** Debian's Chromium headless shell (`apt-get install chromium-headless-shell`). */
const headlessShellPath = '/usr/bin/chromium-headless-shell';

/**
 * The Chromium the browser tests run in: Debian's headless shell when it is installed, the full
 * browser otherwise; `CHROMIUM_PATH` points elsewhere. Both are built from Debian's one chromium
 * source, the same version and the same engine; the shell is Chromium's headless mode of old,
 * the one Playwright itself runs headless tests in. The full browser's headless mode builds a
 * whole browser window for every page: on this 2-core machine a fresh context, page and
 * navigation cost 441 ms of CPU in it against 134 ms in the shell, and test:unit took 398
 * CPU-seconds of the machine against 287 (docs/decisions/0019-browser-tests-in-the-headless-shell.md).
 */
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync(headlessShellPath) ? headlessShellPath : fullChromiumPath);

/** Headless, and nothing of Chromium's own traffic (updates, field trials, first-run pings). */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  // Every page of a test is on 127.0.0.1: one renderer process serves them all instead of one
  // started per browser context (checkout-page.test.ts: 16.6 -> 13.5 CPU-s). Contexts keep their
  // own cookies and storage whatever process renders them.
  '--renderer-process-limit=1',
];

/** Where browser tests leave screenshots for CI to keep (build/ is git-ignored). */
const artifactsDir = fileURLToPath(new URL('../../build/artifacts/', import.meta.url));

/** Launches the tests' Chromium (`chromiumPath`). */
async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `No Chromium at ${chromiumPath}: install it with \`apt-get install -y chromium-headless-shell\``,
    );
  }
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

let shared: Promise<Browser> | undefined;

/**
 * The Chromium of this test process: launched by the first browser test file that asks for it
 * and used by the next ones, since vitest runs many files one after the other in one process
 * (`isolate: false`, test/vitest.config.ts); a launch costs 1.3 CPU-s. A file gives it back with
 * `releaseChromium`, which closes every context the file opened, so no cookie, storage or page
 * reaches the next file. It ends with the process (Playwright closes the browsers it launched
 * on exit and on SIGTERM), or is launched again if it died.
 */
export function sharedChromium(): Promise<Browser> {
  if (!shared) {
    const launched = launchChromium();
    shared = launched;
    launched.then(
      (browser) =>
        browser.on('disconnected', () => {
          if (shared === launched) shared = undefined;
        }),
      () => {
        if (shared === launched) shared = undefined;
      },
    );
  }
  return shared;
}

/** Closes every context of `browser` (a file's, from `sharedChromium`); the browser stays. */
export async function releaseChromium(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((context) => context.close()));
}

export interface IsolatedPage {
  context: BrowserContext;
  page: Page;
  /** Every request (and WebSocket) the page tried to send outside its origin, aborted. */
  foreignRequests: string[];
}

/**
 * A page in a fresh context that can reach `origin` only: any other request is aborted before it
 * leaves the browser, and recorded. Service workers are blocked, so nothing bypasses the routes.
 *
 * @example
 * ```ts
 * const { page, foreignRequests } = await openIsolatedPage(browser, server.url);
 * await page.goto(`${server.url}/`);
 * expect(foreignRequests).toEqual([]);
 * ```
 */
export async function openIsolatedPage(
  browser: Browser,
  origin: string,
  options: BrowserContextOptions = {},
): Promise<IsolatedPage> {
  const allowed = new URL(origin).origin;
  const context = await browser.newContext({ ...options, serviceWorkers: 'block' });
  const foreignRequests: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === allowed) return route.continue();
    foreignRequests.push(url);
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(
    (url) => url.origin.replace(/^ws/, 'http') !== allowed,
    (socket) => {
      foreignRequests.push(socket.url());
      socket.close();
    },
  );
  const page = await context.newPage();
  return { context, page, foreignRequests };
}

/**
 * Saves a full-page screenshot as `build/artifacts/<name>.png` and returns its path: with
 * `SCREENSHOTS=1` (where the README's images come from), or `always`. Otherwise nothing is
 * written: the PNGs cost about a sixth of the page walks' time and no test reads them.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  { always = false } = {},
): Promise<string | undefined> {
  if (!always && process.env.SCREENSHOTS !== '1') return undefined;
  await mkdir(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
