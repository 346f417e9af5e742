/**
 * `npm run lint`: server code writes one way (docs/decisions/0021-one-write-path.md). Outside
 * `server/storage/`, only `write` (server/domain/write.ts) hands units to the store, and nothing
 * runs a closure as a transaction (`Store.transact` is for tests and tools). The call log's
 * `runSoon` is the one documented exception (docs/performance.md).
 *
 * @example
 * npx tsx scripts/lint/write-path.ts   # exits 1, naming each file:line, when a rule is broken
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the store may be asked to write directly. */
const allowed: Record<string, RegExp> = {
  'server/domain/write.ts': /\bstore\.run\(/,
  'server/http/call-log.ts': /\bstore\.(runSoon|run)\(/,
};

const rules: Array<{ pattern: RegExp; says: string }> = [
  {
    pattern: /\.transact\s*\(/,
    says: 'runs a closure as a transaction: define a unit of work and call write(deps, unit, args)',
  },
  {
    pattern: /\bstore\.(run|runSoon)\s*\(/,
    says: 'hands a unit to the store directly: call write(deps, unit, args) (server/domain/write.ts)',
  },
];

/** The problems of one file's source, as `path:line: what to do`. */
export function writePathProblems(path: string, source: string): string[] {
  if (path.startsWith('server/storage/')) return [];
  const problems: string[] = [];
  source.split('\n').forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, '');
    if (/^\s*(\*|\/\*)/.test(code)) return;
    for (const rule of rules) {
      if (!rule.pattern.test(code)) continue;
      if (allowed[path]?.test(code)) continue;
      problems.push(`${path}:${index + 1}: ${rule.says}`);
    }
  });
  return problems;
}

function serverFiles(root: string, dir = 'server'): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return serverFiles(root, path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const problems = serverFiles(root).flatMap((path) =>
    writePathProblems(path, readFileSync(join(root, path), 'utf8')),
  );
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
}
