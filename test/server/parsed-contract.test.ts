/**
 * The contract a server loads at start-up: the build's JSON copy of openapi.yaml when it came
 * from the same text (scripts/build.mjs writes it with the text's SHA-256), the YAML otherwise.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseContract, specPath } from '../../server/http/contract.js';
import { projectRoot } from '../../server/paths.js';

const folder = mkdtempSync(join(tmpdir(), 'parsed-contract-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const text = readFileSync(specPath, 'utf8');
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
function built(name: string, content: unknown): string {
  const path = join(folder, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('the contract loaded at start-up', () => {
  it('is the build copy when it came from this openapi.yaml', () => {
    const copy = built('same.json', { sha256: sha256(text), document: { openapi: 'from the copy' } });
    expect(parseContract(text, copy)).toEqual({ openapi: 'from the copy' });
  });

  it('is openapi.yaml itself when the copy came from another text, is missing or is broken', () => {
    const yaml = parse(text);
    const stale = built('stale.json', {
      sha256: sha256(`${text}\n# edited`),
      document: { openapi: 'stale' },
    });
    expect(parseContract(text, stale)).toEqual(yaml);
    expect(parseContract(text, join(folder, 'missing.json'))).toEqual(yaml);
    writeFileSync(join(folder, 'broken.json'), '{"sha256":');
    expect(parseContract(text, join(folder, 'broken.json'))).toEqual(yaml);
  });

  it('reads the same document from the build as from the YAML (dist/ is built before the tests)', () => {
    const copy = JSON.parse(readFileSync(join(projectRoot, 'dist', 'openapi.json'), 'utf8'));
    expect(copy.sha256).toBe(sha256(text));
    expect(copy.document).toEqual(parse(text));
  });
});
