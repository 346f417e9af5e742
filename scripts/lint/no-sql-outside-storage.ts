/**
 * Part of `npm run lint`: fails when a string in `server/` outside `server/storage/` reads as
 * SQL (a statement, a clause or a condition with a placeholder). All SQL lives in the storage
 * layer (docs/decisions/0003); the domain names what it wants and storage says it in SQL.
 * Only strings and template literals are read, never comments, so prose may speak of SQL.
 *
 * @example
 * npx tsx scripts/lint/no-sql-outside-storage.ts          # the repository's server/
 * npx tsx scripts/lint/no-sql-outside-storage.ts <root>   # another tree's server/
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** What reads as SQL. Keywords in capitals, as every statement of the storage layer writes them. */
const sqlPatterns: Array<[name: string, pattern: RegExp]> = [
  ['a statement', /\b(SELECT\s+(\*|\w+)|INSERT\s+INTO\s+\w+|UPDATE\s+\w+\s+SET|DELETE\s+FROM\s+\w+)\b/],
  ['a schema change', /\b(CREATE|DROP|ALTER)\s+(TABLE|INDEX|VIEW|TRIGGER)\b/],
  ['a clause', /\b(WHERE|ORDER\s+BY|GROUP\s+BY|HAVING|RETURNING|ON\s+CONFLICT)\b/],
  ['a condition with a placeholder', /\b\w+\s*(=|<>|!=|>=|<=|<|>|\bLIKE\b|\bIN\b)\s*\(?\s*(\?|\$\d+|@\w+)/],
  ['a comparison with a quoted value', /\b\w+\s*(<>|!=)\s*'[^']*'/],
  ['a null test', /\b\w+\s+IS\s+(NOT\s+)?NULL\b/],
];

export interface SqlFinding {
  /** The file, relative to the root, with forward slashes. */
  file: string;
  line: number;
  /** Which kind of SQL the text reads as. */
  kind: string;
  text: string;
}

/** Every TypeScript file under `dir`, `skip` (a folder) left out. */
function typescriptFiles(dir: string, skip: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== skip && entry.name !== 'node_modules') files.push(...typescriptFiles(path, skip));
    } else if (entry.name.endsWith('.ts')) {
      files.push(path);
    }
  }
  return files;
}

/** The text of every string and template literal of a source, with its line. */
function literalsOf(path: string): Array<{ text: string; line: number }> {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const literals: Array<{ text: string; line: number }> = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    // A template's parts joined by a placeholder: `${column} = ?` still reads as a condition.
    else if (ts.isTemplateExpression(node))
      text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('x');
    if (text !== undefined) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      literals.push({ text, line });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return literals;
}

/** The strings of `root`/server outside `root`/server/storage that read as SQL. */
export function sqlOutsideStorage(root: string): SqlFinding[] {
  const server = join(root, 'server');
  const findings: SqlFinding[] = [];
  for (const path of typescriptFiles(server, join(server, 'storage'))) {
    for (const { text, line } of literalsOf(path)) {
      const match = sqlPatterns.find(([, pattern]) => pattern.test(text));
      if (match) {
        findings.push({ file: relative(root, path).split(sep).join('/'), line, kind: match[0], text });
      }
    }
  }
  return findings;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url));
  const findings = sqlOutsideStorage(root);
  for (const f of findings) {
    console.error(`${f.file}:${f.line}: SQL outside server/storage/ (${f.kind}): ${JSON.stringify(f.text)}`);
  }
  if (findings.length > 0) {
    console.error(
      `${findings.length} SQL text(s) outside server/storage/: say it in a repository, or in a list's filters (server/storage/list-filters.ts).`,
    );
    process.exit(1);
  }
}
