import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import { ApiError } from '../domain/errors.js';
import { specPath } from './openapi-validator.js';
import { contentSecurityPolicy, dataOnlyPolicy, docsPolicy } from './security-headers.js';

const docsDir = fileURLToPath(new URL('../../build/docs/', import.meta.url));

/**
 * The contract and its published docs, served by the API itself: `/openapi.yaml` is the
 * very file the server validates against, `/docs` the offline Redoc page `npm run docs` builds
 * (`npm start` builds it first).
 */
export function docsRoutes(): Router {
  const router = Router();
  router.use('/openapi.yaml', contentSecurityPolicy(dataOnlyPolicy));
  router.use('/docs', contentSecurityPolicy(docsPolicy(`${docsDir}index.html`)));
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').sendFile(specPath);
  });
  router.get('/docs', (req, res, next) => {
    if (!req.path.endsWith('/') && req.originalUrl === '/docs') return res.redirect(301, '/docs/');
    next();
  });
  router.use('/docs', (_req, _res, next) => {
    if (existsSync(`${docsDir}index.html`)) return next();
    throw new ApiError(404, 'route_not_found', 'The docs are not built: run `npm run docs`.');
  });
  router.use('/docs', express.static(docsDir, { index: 'index.html', fallthrough: false }));
  return router;
}
