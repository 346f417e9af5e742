import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Loads `.env` from the working folder when there is one (`npm start` and `npm run admin` run
 * from the repository root), as `node --env-file` does: a variable already set in the
 * environment wins over the file, so `PORT=4000 npm start` still means port 4000.
 * Returns the path it loaded, or undefined when there is no file.
 */
export function loadEnvFile(path = resolve('.env')): string | undefined {
  if (!existsSync(path)) return undefined;
  process.loadEnvFile(path);
  return path;
}
