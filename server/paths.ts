import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder at or above `from` that holds package.json. */
function findProjectRoot(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`No package.json above ${from}`);
  }
}

/**
 * The project's folder, wherever this module runs from: `server/` under tsx (development and
 * tests), `dist/server/` once compiled (`npm run build`, what `npm start` runs). Files the server
 * reads at run time (openapi.yaml, the SQL migrations, build/docs) are found from here, so the
 * compiled server reads the same files as the sources and nothing is copied into dist/.
 */
export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
