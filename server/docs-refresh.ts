import type { Logger } from './observability/logger.js';

/**
 * `npm start` (main.ts with `--docs`): brings build/docs up to date in the background, after the
 * server already answers. The page is rebuilt only when the contract or a docs build input
 * changed (a content-hash stamp beside it), so a restart costs no Redoc render; meanwhile /docs
 * serves the previous page.
 */
export async function refreshDocs(logger: Logger): Promise<void> {
  const started = Date.now();
  try {
    const { buildDocsIfChanged } = await import('../scripts/docs/build.js');
    const { rebuilt } = await buildDocsIfChanged();
    if (rebuilt)
      logger.info({ ms: Date.now() - started }, 'docs rebuilt: openapi.yaml or a docs input changed');
  } catch (err) {
    logger.warn({ err }, 'could not build the docs; /docs is unavailable until `npm run docs` works');
  }
}
