import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import { parse } from 'yaml';
import { specPath } from './openapi-validator.js';

const docsDir = fileURLToPath(new URL('../../build/docs/', import.meta.url));
const indexPath = `${docsDir}index.html`;
/** Hosts a URL may be written into the page with: no quotes, brackets or markup. */
const plainOrigin = /^https?:\/\/[A-Za-z0-9.\-:[\]]+$/;

let specServerUrl: string | undefined;
/** The `servers[0].url` the page was built with (the one a local `npm start` uses). */
function builtServerUrl(): string {
  specServerUrl ??= String(parse(readFileSync(specPath, 'utf8'))?.servers?.[0]?.url ?? '');
  return specServerUrl;
}

let cached: { mtimeMs: number; html: string } | undefined;
function builtPage(): string {
  const { mtimeMs } = statSync(indexPath);
  if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(indexPath, 'utf8') };
  return cached.html;
}

/**
 * The contract and its published docs, served by the API itself: `/openapi.yaml` is the
 * very file the server validates against, `/docs` the offline Redoc page `npm run docs` builds
 * (`npm start` builds it when the contract changed). The page is served with its Servers card
 * (and every other mention of the built-in address) naming the address this server is really
 * on, `publicUrl()` + `/v1`.
 */
export function docsRoutes(publicUrl: () => string): Router {
  const router = Router();
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').sendFile(specPath);
  });
  router.get('/docs', (req, res, next) => {
    if (!req.path.endsWith('/') && req.originalUrl === '/docs') return res.redirect(301, '/docs/');
    next();
  });
  router.use('/docs', (_req, res, next) => {
    if (existsSync(indexPath)) return next();
    res.status(404).type('text').send('The docs are not built: run `npm run docs`.');
  });
  router.get(['/docs/', '/docs/index.html'], (_req, res) => {
    const from = builtServerUrl();
    const to = `${publicUrl()}/v1`;
    const page = builtPage();
    res
      .type('html')
      .send(from && from !== to && plainOrigin.test(publicUrl()) ? page.replaceAll(from, to) : page);
  });
  router.use('/docs', express.static(docsDir, { index: false, fallthrough: false }));
  return router;
}
