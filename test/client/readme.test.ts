/**
 * The examples of client/README.md compile: every `ts` code block is type-checked, as a module of
 * its own, with the TypeScript compiler API and the repository's compiler options, the package
 * name `@momo-payments/client` resolving to client/src. An integrator who copies an example gets
 * code that compiles against the current contract.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'client/README.md'), 'utf8');

interface Block {
  /** The line of the README where the block's code starts. */
  line: number;
  code: string;
}

function tsBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
    const line = markdown.slice(0, match.index).split('\n').length + 1;
    blocks.push({ line, code: match[1] ?? '' });
  }
  return blocks;
}

function compilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json cannot be read');
  return {
    ...parsed.options,
    noEmit: true,
    baseUrl: root,
    paths: { '@momo-payments/client': ['./client/src/index.ts'] },
  };
}

/**
 * Files an earlier check parsed (the libraries, the contract's types, the client), with the same
 * compiler options: each check's program shares them instead of parsing them again (about 1.1 of
 * the file's 11 CPU-seconds).
 */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** Type-checks each snippet as its own module; returns the errors as `block N, line L: message`. */
/**
 * A type check against the contract's generated types is seconds of CPU on its own, and the
 * suites run two at a time on two cores beside the client libraries' own processes: the
 * compiler's budget, not a wait for anything.
 */
const compileBudgetMs = 120_000;

function typeCheck(snippets: string[]): string[] {
  const options = compilerOptions();
  const files = new Map(snippets.map((code, i) => [join(root, 'client', `readme-block-${i + 1}.ts`), code]));
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (fileName) => files.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => files.get(fileName) ?? readFile.call(host, fileName);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const code = files.get(fileName);
    if (code !== undefined) return ts.createSourceFile(fileName, code, languageVersion, true);
    if (!parsed.has(fileName))
      parsed.set(fileName, getSourceFile.call(host, fileName, languageVersion, ...rest));
    return parsed.get(fileName);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...[...files.keys()].flatMap((fileName) => {
      const source = program.getSourceFile(fileName);
      return source
        ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
        : [];
    }),
  ];
  return diagnostics.map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName.replace(root, '')}, line ${line + 1}: ${message}`;
  });
}

describe('client/README.md', () => {
  const blocks = tsBlocks(readme);

  it('has a quick start, and examples of pagination, webhooks and the CSV export', () => {
    expect(readme).toContain('## Quick start');
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks.map((b) => b.code).join('\n')).toMatch(
      /createPaymentsClient[\s\S]*paginate[\s\S]*verifyWebhook/,
    );
  });

  it(
    'has examples that compile against the contract',
    () => {
      const errors = typeCheck(blocks.map((b) => b.code));
      const where = blocks
        .map((b, i) => `readme-block-${i + 1}.ts starts at README line ${b.line}`)
        .join('\n');
      expect(errors, where).toEqual([]);
    },
    compileBudgetMs,
  );

  it(
    'is checked by a compiler that does catch a wrong example',
    () => {
      const wrong = [
        "import { createPaymentsClient } from '@momo-payments/client';",
        "const client = createPaymentsClient({ apiKey: 'sk_test_x', apiUser: 'u' });",
        "await client.POST('/payments', { body: { amount: '2500', currency: 'XAF' } });",
      ].join('\n');
      const errors = typeCheck([wrong]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/readme-block-1\.ts, line 3: .*not assignable/s);
    },
    compileBudgetMs,
  );
});
