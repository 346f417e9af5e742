/**
 * Every function the client package exports carries JSDoc with an `@example`: the editor shows it
 * to integrators at the call site.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../client/src/index.ts', import.meta.url));

function exportedFunctions(): { name: string; hasExample: boolean }[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error('client/src/index.ts has no exports');
  return checker.getExportsOfModule(moduleSymbol).flatMap((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (!declaration || !ts.isFunctionDeclaration(declaration)) return [];
    const hasExample = ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'example');
    return [{ name: exported.name, hasExample }];
  });
}

describe('the client’s exported functions', () => {
  const functions = exportedFunctions();

  it('are found', () => {
    expect(functions.map((f) => f.name)).toEqual(
      expect.arrayContaining(['createPaymentsClient', 'paginate', 'verifyWebhook', 'requestIdOf']),
    );
  });

  it('each carry JSDoc with an @example', () => {
    expect(functions.filter((f) => !f.hasExample).map((f) => f.name)).toEqual([]);
  });
});
