import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';
import { ApiError } from '../domain/errors.js';
import { projectRoot } from '../paths.js';
import { contractDocument, specPath } from './contract.js';
import { contentSecurityPolicy, dataOnlyPolicy, docsPolicy } from './security-headers.js';

const docsDir = join(projectRoot, 'build', 'docs');
const indexPath = join(docsDir, 'index.html');
/** Hosts a URL may be written into the page with: no quotes, brackets or markup. */
const plainOrigin = /^https?:\/\/[A-Za-z0-9.\-:[\]]+$/;

let specServerUrl: string | undefined;
/** The `servers[0].url` the page was built with (the one a local `npm start` uses). */
function builtServerUrl(): string {
  const spec = contractDocument() as { servers?: Array<{ url?: unknown }> } | null;
  specServerUrl ??= String(spec?.servers?.[0]?.url ?? '');
  return specServerUrl;
}

/** The page as served, and the policy allowing exactly its inline scripts; rebuilt when the file changes. */
let served: { mtimeMs: number; apiUrl: string; html: string; policy: string } | undefined;
function servedPage(publicUrl: string): { html: string; policy: string } {
  const { mtimeMs } = statSync(indexPath);
  const apiUrl = `${publicUrl}/v1`;
  if (served?.mtimeMs !== mtimeMs || served.apiUrl !== apiUrl) {
    const built = readFileSync(indexPath, 'utf8');
    const from = builtServerUrl();
    const html =
      from && from !== apiUrl && plainOrigin.test(publicUrl) ? built.replaceAll(from, apiUrl) : built;
    served = { mtimeMs, apiUrl, html, policy: docsPolicy(html) };
  }
  return served;
}

/**
 * The contract and its published docs, served by the API itself: `/openapi.yaml` is the
 * very file the server validates against, `/docs` the offline Redoc page `npm run docs` builds
 * (`npm start` builds it when the contract changed). The page is served with its Servers card
 * (and every other mention of the built-in address) naming the address this server is really
 * on, `publicUrl()` + `/v1`, under a CSP that allows its inline scripts by their hashes.
 */
export function docsRoutes(publicUrl: () => string): Router {
  const router = Router();
  router.use('/openapi.yaml', contentSecurityPolicy(dataOnlyPolicy));
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').sendFile(specPath);
  });
  router.get('/docs', (req, res, next) => {
    if (!req.path.endsWith('/') && req.originalUrl === '/docs') return res.redirect(301, '/docs/');
    next();
  });
  router.use('/docs', (_req, _res, next) => {
    if (existsSync(indexPath)) return next();
    throw new ApiError(404, 'route_not_found', 'The docs are not built: run `npm run docs`.');
  });
  router.get(['/docs/', '/docs/index.html'], (_req, res) => {
    const page = servedPage(publicUrl());
    res.setHeader('Content-Security-Policy', page.policy);
    res.type('html').send(page.html);
  });
  router.use('/docs', contentSecurityPolicy(dataOnlyPolicy));
  router.use('/docs', express.static(docsDir, { index: false, fallthrough: false }));
  return router;
}
