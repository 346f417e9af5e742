/**
 * The request samples of the published docs are generated from the contract: every operation
 * gets a curl command and a TypeScript-client call built from its path, parameters and request
 * example, and the TypeScript samples compile against the real client.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { curlSample, typescriptSample, withCodeSamples } from '../../scripts/docs/code-samples.js';
import { listOperations } from '../../scripts/lib/openapi.js';
import { type Json, resolve, spec } from '../support/spec.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const clientPackage = '@momo-payments/client';
const entries = listOperations(spec);

function requestExamples(operation: Json): unknown[] {
  const media = resolve(operation.requestBody)?.content?.['application/json'];
  if (!media) return [];
  if (media.example !== undefined) return [media.example];
  return Object.values<Json>(media.examples ?? {}).map((e) => resolve(e).value);
}

/** The bodies a curl command sends, read back from its `-d '...'` arguments. */
function curlBodies(command: string): unknown[] {
  return [...command.matchAll(/-d '((?:[^']|'\\'')*)'/g)].map((m) =>
    JSON.parse((m[1] ?? '').replace(/'\\''/g, "'")),
  );
}

describe('docs request samples', () => {
  it('give every operation a curl and a TypeScript-client sample', () => {
    const withSamples = withCodeSamples(spec, clientPackage);
    for (const entry of listOperations(withSamples)) {
      const labels = (entry.operation['x-codeSamples'] ?? []).map((s: Json) => s.label);
      expect(labels, `${entry.method} ${entry.path}`).toEqual(['curl', 'TypeScript client']);
    }
    expect(spec.paths['/payments'].post['x-codeSamples'], 'openapi.yaml itself is untouched').toBeUndefined();
  });

  describe.each(entries.map((e) => ({ ...e, name: `${e.method.toUpperCase()} ${e.path}` })))(
    '$name',
    (entry) => {
      it('has a curl command with its method, URL, credentials and request examples', () => {
        const command = curlSample(spec, entry);
        expect(command).toContain(`"$PAYMENTS_BASE_URL${entry.path.split('{')[0]}`);
        expect(command, 'no sample hard-codes the address').not.toContain(spec.servers[0].url);
        expect(command).not.toMatch(/\{[a-z_]+\}/);
        if (entry.method !== 'get') expect(command).toContain(`curl -X ${entry.method.toUpperCase()} `);
        const secured = (entry.operation.security ?? spec.security).length > 0;
        expect(command.includes('-H "Authorization: Bearer $PAYMENTS_API_KEY"')).toBe(secured);
        expect(command.includes('-H "X-API-User: $PAYMENTS_API_USER"')).toBe(secured);
        expect(curlBodies(command)).toEqual(requestExamples(entry.operation));
        const takesKey = entry.parameters.some(
          (p: Json) => p.in === 'header' && p.name === 'Idempotency-Key',
        );
        expect(command.includes('-H "Idempotency-Key: $(uuidgen)"'), 'a fresh key per run').toBe(takesKey);
        expect(command).not.toMatch(/Idempotency-Key: [^$]/);
      });

      it('has a TypeScript-client call of its path', () => {
        const sample = typescriptSample(spec, entry, clientPackage);
        expect(sample).toContain(`import { createPaymentsClient } from '${clientPackage}';`);
        expect(sample).toContain(`await client.${entry.method.toUpperCase()}('${entry.path}'`);
      });
    },
  );

  it('compile, in TypeScript, against the client', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'code-samples-'));
    try {
      const files = await Promise.all(
        entries.map(async (entry, i) => {
          const file = join(dir, `sample-${i}.ts`);
          await writeFile(file, `${typescriptSample(spec, entry, clientPackage)}\nexport {};\n`);
          return file;
        }),
      );
      const tsconfig = {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
          paths: { [clientPackage]: [join(root, 'client', 'src', 'index.ts')] },
        },
        files,
      };
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
      await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      const tsc = join(root, 'node_modules', '.bin', 'tsc');
      const result = await promisify(execFile)(tsc, ['-p', dir]).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(result).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
