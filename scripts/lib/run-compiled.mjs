/**
 * Runs an entry point of the compiled server (dist/, from `npm run build`) in this process,
 * compiling it first when a source changed since the last build, so what runs is never stale.
 * Plain JavaScript: no TypeScript loader is started. `npm start` and `npm run admin` use it;
 * development keeps tsx (`npm run dev`). Messages go to stderr: stdout stays the program's own.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, isStale, root } from '../build.mjs';

/** @param {string} entry a path under dist/, such as `server/main.js` */
export async function runCompiled(entry) {
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
  await import(pathToFileURL(join(root, 'dist', entry)).href);
}
