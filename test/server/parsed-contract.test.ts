/**
 * The contract a server loads at start-up: the build's JSON copy of openapi.yaml when it came
 * from the same text (scripts/build.mjs writes it with the text's SHA-256), the YAML otherwise.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
// @ts-expect-error plain JavaScript without declarations, run by `npm start` without a loader
import { parsedContract } from '../../scripts/build.mjs';
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
  it('is the build copy when it came from this openapi.yaml, checked if the build says so', () => {
    const copy = built('same.json', {
      sha256: sha256(text),
      checked: true,
      document: { openapi: 'from the copy' },
    });
    expect(parseContract(text, copy)).toEqual({ document: { openapi: 'from the copy' }, checked: true });
    // A copy from before the build checked the contract: the validator checks it at start-up.
    const older = built('older.json', { sha256: sha256(text), document: { openapi: 'from the copy' } });
    expect(parseContract(text, older)).toEqual({ document: { openapi: 'from the copy' }, checked: false });
  });

  it('is openapi.yaml itself when the copy came from another text, is missing or is broken', () => {
    const yaml = { document: parse(text), checked: false };
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
    expect(copy.checked).toBe(true);
  });

  it('is written by the build only once the OpenAPI schema accepts it; a broken contract fails the build', () => {
    expect(parsedContract(text)).toEqual({ sha256: sha256(text), checked: true, document: parse(text) });
    const broken = parse(text);
    broken.paths['/payments'].post.responses = 'none';
    expect(() => parsedContract(stringify(broken))).toThrow(
      /\/paths\/~1payments\/post\/responses.*must be object/s,
    );
  });
});
