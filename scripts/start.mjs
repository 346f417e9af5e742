/**
 * `npm start`: runs the compiled server (dist/server/main.js, from `npm run build`) in this
 * process, compiling it first when a source changed since the last build, so `npm start` never
 * runs stale code. Plain JavaScript: no TypeScript loader is started (development keeps tsx:
 * `npm run dev`). Its arguments reach the server (`--docs` keeps build/docs current).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, isStale, root } from './build.mjs';

if (isStale()) {
  const started = performance.now();
  console.error('Sources changed since the last build: compiling the server to dist/ ...');
  try {
    build();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  console.error(`Compiled in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}
await import(pathToFileURL(join(root, 'dist', 'server', 'main.js')).href);
