/**
 * A second client generator, @hey-api/openapi-ts, beside openapi-typescript: the contract must
 * generate a client that needs no renamed types (`Cursor2`, `PaymentCreate2`), shadows no
 * global (`Error`), and type-checks under strict TypeScript. It runs offline, into a temporary
 * folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spec, specPath } from '../support/spec.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'second-generator-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bin(pkg: string, name: string): string {
  const manifest = require(`${pkg}/package.json`) as { bin: string | Record<string, string> };
  const relative = typeof manifest.bin === 'string' ? manifest.bin : (manifest.bin[name] as string);
  return join(require.resolve(`${pkg}/package.json`), '..', relative);
}

describe('@hey-api/openapi-ts', () => {
  it('generates a client with the contract names that type-checks under strict TypeScript', () => {
    const out = join(dir, 'client');
    execFileSync(process.execPath, [bin('@hey-api/openapi-ts', 'openapi-ts'), '-i', specPath, '-o', out], {
      stdio: 'pipe',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 90_000,
    });
    const types = readFileSync(join(out, 'types.gen.ts'), 'utf8');
    const exported = [...types.matchAll(/^export type (\w+)/gm)].map((m) => m[1] as string);

    // No name had to be renamed to avoid a clash, and no global is shadowed.
    const renamed = exported.filter(
      (name) => /\D\d+$/.test(name) && exported.includes(name.replace(/\d+$/, '')),
    );
    expect(renamed).toEqual([]);
    expect(exported).not.toContain('Error');
    // Every schema of the contract is a type of the same name.
    for (const name of Object.keys(spec.components.schemas)) expect(exported, name).toContain(name);
    // Amounts are numbers there, as on the wire.
    expect(types).toMatch(/^export type Amount = number;$/m);

    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: [],
          skipLibCheck: false,
        },
        include: ['client/**/*.ts'],
      }),
    );
    let diagnostics = '';
    try {
      execFileSync(process.execPath, [bin('typescript', 'tsc'), '-p', join(dir, 'tsconfig.json')], {
        stdio: 'pipe',
        timeout: 90_000,
      });
    } catch (error) {
      diagnostics = String((error as { stdout?: Buffer }).stdout ?? error);
    }
    expect(diagnostics).toBe('');
  }, 180_000);
});
