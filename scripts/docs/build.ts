/**
 * `npm run docs`: builds the published docs, a static Redoc page that works with no network,
 * from openapi.yaml into build/docs/index.html.
 *
 * 1. Adds generated request samples (curl, TypeScript client) to every operation.
 * 2. Renders the page with `redocly build-docs --inlineBundle`: the Redoc script is inlined
 *    instead of loaded from the CDN, and Redoc's telemetry is switched off.
 * 3. Replaces the one remaining remote asset (Redocly's logo under "API docs by") with an
 *    inline image, then refuses to write a page that still loads anything from elsewhere.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { projectRoot } from '../../server/paths.js';
import { readSpec } from '../lib/openapi.js';
import { sampleLanguages, withCodeSamples } from './code-samples.js';

// The project's folder also when the server runs this module compiled, from dist/scripts/docs/.
const root = projectRoot;
const redocly = join(root, 'node_modules', '.bin', 'redocly');

export interface BuildDocsOptions {
  /** Default: openapi.yaml at the repository root. */
  specPath?: string;
  /** Default: build/docs. The page is written to `index.html` in it. */
  outDir?: string;
}

export interface BuiltDocs {
  htmlPath: string;
  bytes: number;
}

/** Redocly's CLI, with everything that would call home switched off. */
const offlineEnv = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
};

function inlineSvg(width: number, text: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16">` +
    `<text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="600" fill="#0044d4">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** Remote assets the Redoc bundle loads on its own, and their offline stand-ins. */
const remoteAssets: [RegExp, string][] = [
  [/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini-full\.svg/g, inlineSvg(40, 'Redoc')],
  [/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg/g, inlineSvg(12, 'R')],
];

/** Tags that make a browser fetch their `src`/`href`, and CSS that does. */
const remoteReference =
  /<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*\s(?:src|href|srcset|data)\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]+|url\(\s*["']?(?:https?:)?\/\/[^)]+\)|@import\s+["'](?:https?:)?\/\/[^"']+/gi;
const cdnHosts =
  /\b(?:cdn\.redoc\.ly|cdn\.jsdelivr\.net|unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\b/g;

/** Makes the page self-contained; throws, naming them, if remote resources remain. */
export function makeSelfContained(html: string): string {
  let page = html;
  for (const [pattern, replacement] of remoteAssets) page = page.replace(pattern, replacement);
  if (!page.includes('"disableTelemetry":true')) {
    throw new Error('The page does not switch off Redoc telemetry ("disableTelemetry":true is missing)');
  }
  const markup = page.replace(/(<script\b[^>]*>)[\s\S]*?(<\/script>)/gi, '$1$2');
  const remaining = [...(markup.match(remoteReference) ?? []), ...(page.match(cdnHosts) ?? [])];
  if (remaining.length > 0) {
    throw new Error(
      `The docs page would still load remote resources:\n  ${[...new Set(remaining)].join('\n  ')}`,
    );
  }
  return page;
}

async function redocOptions(): Promise<Record<string, unknown>> {
  // Keep any Redoc options redocly.yaml sets: `--openapi` replaces them rather than merging.
  const config = parse(await readFile(join(root, 'redocly.yaml'), 'utf8')) ?? {};
  const fromConfig: Record<string, unknown> = config.openapi ?? {};
  return { ...fromConfig, codeSamples: { languages: sampleLanguages } };
}

async function clientPackageName(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(root, 'client', 'package.json'), 'utf8'));
  if (typeof manifest.name !== 'string')
    throw new Error('client/package.json has no name to import the client by');
  return manifest.name;
}

/** Files whose content decides the page: the contract, the Redoc options, and this builder. */
const buildInputs = [
  'redocly.yaml',
  join('client', 'package.json'),
  join('scripts', 'docs', 'build.ts'),
  join('scripts', 'docs', 'code-samples.ts'),
  join('scripts', 'lib', 'openapi.ts'),
  join('node_modules', '@redocly', 'cli', 'package.json'),
];
const stampName = '.inputs-sha256';

/** A SHA-256 over the spec and every build input (name and content). */
export async function docsInputsHash(specPath = join(root, 'openapi.yaml')): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [specPath, ...buildInputs.map((f) => join(root, f))]) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(existsSync(file) ? await readFile(file) : 'missing');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * Builds the docs unless the page in `outDir` was built from exactly these inputs (its stamp
 * matches): what `npm start` runs, so a restart does not spend seconds re-rendering Redoc.
 */
export async function buildDocsIfChanged(
  options: BuildDocsOptions = {},
): Promise<BuiltDocs & { rebuilt: boolean }> {
  const outDir = options.outDir ?? join(root, 'build', 'docs');
  const htmlPath = join(outDir, 'index.html');
  const stampPath = join(outDir, stampName);
  const inputs = await docsInputsHash(options.specPath);
  if (
    existsSync(htmlPath) &&
    existsSync(stampPath) &&
    (await readFile(stampPath, 'utf8')).trim() === inputs
  ) {
    return { htmlPath, bytes: (await readFile(htmlPath)).length, rebuilt: false };
  }
  const built = await buildDocs(options);
  await writeFile(stampPath, `${inputs}\n`);
  return { ...built, rebuilt: true };
}

/**
 * Builds the docs page.
 *
 * @example
 * ```ts
 * const { htmlPath } = await buildDocs(); // <repo>/build/docs/index.html
 * ```
 */
export async function buildDocs(options: BuildDocsOptions = {}): Promise<BuiltDocs> {
  const specPath = options.specPath ?? join(root, 'openapi.yaml');
  const outDir = options.outDir ?? join(root, 'build', 'docs');
  const work = await mkdtemp(join(tmpdir(), 'payments-docs-'));
  try {
    const withSamples = withCodeSamples(readSpec(specPath), await clientPackageName());
    const specWithSamples = join(work, 'openapi.json');
    const rendered = join(work, 'index.html');
    await writeFile(specWithSamples, JSON.stringify(withSamples));
    const args = [
      'build-docs',
      specWithSamples,
      '--inlineBundle',
      '--output',
      rendered,
      '--openapi',
      JSON.stringify(await redocOptions()),
      '--config',
      join(root, 'redocly.yaml'),
      '--lint-config',
      'off',
    ];
    try {
      await promisify(execFile)(redocly, args, { cwd: root, env: { ...process.env, ...offlineEnv } });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`redocly build-docs failed:\n${stderr || stdout || String(error)}`);
    }
    const page = makeSelfContained(await readFile(rendered, 'utf8'));
    await mkdir(outDir, { recursive: true });
    const htmlPath = join(outDir, 'index.html');
    // Written beside, then renamed: a preview server never serves a half-written page.
    // (Named by process: two builds at once, say two test files, never rename each other's.)
    const partial = join(outDir, `.index.html.${process.pid}.partial`);
    await writeFile(partial, page);
    await rename(partial, htmlPath);
    return { htmlPath, bytes: Buffer.byteLength(page) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // --if-changed (npm start): skip the build when the stamp says the page is up to date.
  const build = process.argv.includes('--if-changed')
    ? buildDocsIfChanged()
    : buildDocs().then(async (built) => {
        await writeFile(join(dirname(built.htmlPath), stampName), `${await docsInputsHash()}\n`);
        return { ...built, rebuilt: true };
      });
  build.then(
    ({ htmlPath, bytes, rebuilt }) => {
      if (rebuilt) {
        console.log(
          `Docs written to ${relative(process.cwd(), htmlPath)} (${Math.round(bytes / 1024)} KiB).`,
        );
      }
    },
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
