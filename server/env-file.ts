import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config.js';

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

/**
 * `npm start -- --env-file <file>`: that file first (it must exist), then `.env`; the
 * environment wins over both, the named file over `.env`. `npm run simulators` writes one
 * (`.env.simulators`), so trying live money locally needs no exported variable.
 */
export function loadEnvFiles(argv: readonly string[] = process.argv): void {
  const at = argv.indexOf('--env-file');
  if (at >= 0) {
    const named = argv[at + 1];
    if (!named || named.startsWith('--') || !loadEnvFile(resolve(named))) {
      throw new ConfigError([
        `--env-file ${named ?? ''}: no such file (npm run simulators writes .env.simulators)`,
      ]);
    }
  }
  loadEnvFile();
}
