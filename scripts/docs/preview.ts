/**
 * `npm run docs:preview`: serves the docs on http://127.0.0.1:8080 (`PORT` to change it) and
 * rebuilds them whenever openapi.yaml (or redocly.yaml) changes; reload the page to see the
 * change. A build that fails is reported and the last good page stays up.
 */
import { watch } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDirectory } from '../lib/static-server.js';
import { buildDocs } from './build.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const watched = new Set(['openapi.yaml', 'redocly.yaml']);

const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, not ${process.env.PORT}`);
  process.exit(1);
}

let building: Promise<void> | undefined;
let again = false;

/** Builds now, or once more after the build under way: edits never pile up builds. */
function rebuild(): Promise<void> {
  if (building) {
    again = true;
    return building;
  }
  const started = Date.now();
  building = buildDocs()
    .then(() => console.log(`${new Date().toLocaleTimeString()} docs rebuilt in ${Date.now() - started} ms`))
    .catch((error: Error) =>
      console.error(`${new Date().toLocaleTimeString()} docs build failed:\n${error.message}`),
    )
    .finally(() => {
      building = undefined;
      if (again) {
        again = false;
        void rebuild();
      }
    });
  return building;
}

await rebuild();
const server = await serveDirectory(join(root, 'build', 'docs'), { port });
console.log(`Docs at ${server.url}/, rebuilt when openapi.yaml changes. Ctrl+C to stop.`);

// The folder is watched rather than the file: editors often save by replacing the file.
let debounce: NodeJS.Timeout | undefined;
watch(root, (_event, filename) => {
  if (!filename || !watched.has(filename)) return;
  clearTimeout(debounce);
  debounce = setTimeout(() => void rebuild(), 150);
});

process.on('SIGINT', () => {
  void server.close().then(() => process.exit(0));
});
