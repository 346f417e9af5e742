/**
 * Lists the test blocks (`it`/`test` calls, `.each`, `.skip`, `.only` and `.concurrent` forms
 * included) whose body spans more than `--over` lines (default 80).
 * Usage: npx tsx test/support/long-tests.ts [--over 80] <folder>; WITH_DESCRIBE=1 counts describe blocks too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const overAt = args.indexOf('--over');
const over = overAt >= 0 ? Number(args.splice(overAt, 2)[1]) : 80;
const root = args[0] ?? 'test';

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.test\.ts$/.test(name)) yield path;
  }
}

function isTestCallee(expr: ts.Expression): boolean {
  if (ts.isIdentifier(expr))
    return (process.env.WITH_DESCRIBE ? ['it', 'test', 'describe'] : ['it', 'test']).includes(expr.text);
  if (ts.isPropertyAccessExpression(expr)) return isTestCallee(expr.expression);
  if (ts.isCallExpression(expr)) return isTestCallee(expr.expression); // it.each(table)(...)
  return false;
}

let count = 0;
for (const file of files(root)) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && isTestCallee(node.expression)) {
      const body = node.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      if (body) {
        const start = source.getLineAndCharacterOfPosition(body.getStart()).line + 1;
        const end = source.getLineAndCharacterOfPosition(body.getEnd()).line + 1;
        const lines = end - start + 1;
        if (lines > over) {
          count++;
          const name =
            node.arguments[0] && ts.isStringLiteralLike(node.arguments[0]) ? node.arguments[0].text : '?';
          console.log(`${lines}\t${relative(process.cwd(), file)}:${start}\t${name}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
console.log(`${count} test blocks over ${over} lines`);
