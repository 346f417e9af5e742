/**
 * `npm run generate:client-errors`: writes client/src/operation-errors.ts from openapi.yaml, the
 * error statuses each operation documents and, where the response lists them
 * (`x-error-codes`), the only error codes that status carries. The client's `operationError`
 * narrows a call's error with it. test/client/operation-errors.test.ts fails when the file is
 * stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Json, listOperations, readSpec, resolveRef } from './lib/openapi.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const operationErrorsPath = join(root, 'client', 'src', 'operation-errors.ts');

/** The TypeScript source of client/src/operation-errors.ts for `document`. */
export function renderOperationErrors(document: Json): string {
  const byPath = new Map<string, string[]>();
  for (const entry of listOperations(document)) {
    const statuses = Object.entries<Json>(entry.operation.responses ?? {})
      .filter(([status]) => /^[45]\d\d$/.test(status))
      .map(([status, response]) => {
        const codes: string[] | undefined = resolveRef(document, response)?.['x-error-codes'];
        if (!codes) return `      ${status}: null,`;
        const line = `      ${status}: [${codes.map((c) => `'${c}'`).join(', ')}],`;
        // As biome formats it: a list that does not fit in the line width goes one code a line.
        if (line.length <= 110) return line;
        return `      ${status}: [\n${codes.map((c) => `        '${c}',`).join('\n')}\n      ],`;
      });
    if (statuses.length === 0) continue;
    const lines = byPath.get(entry.path) ?? [];
    lines.push(`    ${entry.method}: {\n${statuses.join('\n')}\n    },`);
    byPath.set(entry.path, lines);
  }
  const body = [...byPath.entries()].map(([path, lines]) => `  '${path}': {\n${lines.join('\n')}\n  },`);
  return `/**
 * Generated from openapi.yaml by scripts/client-error-codes.ts (npm run generate:client-errors):
 * do not edit. Per operation, the error statuses it documents; per status, the only error codes
 * it carries where the contract lists them (\`x-error-codes\`), or \`null\` for any \`ErrorCode\`.
 */
export const operationErrorCodes = {
${body.join('\n')}
} as const;
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(operationErrorsPath, renderOperationErrors(readSpec(join(root, 'openapi.yaml'))));
  console.log('client/src/operation-errors.ts written');
}
