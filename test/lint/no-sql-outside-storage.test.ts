import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlOutsideStorage } from '../../scripts/lint/no-sql-outside-storage.js';
import { repoRoot } from '../support/child-server.js';

const trees: string[] = [];
afterAll(() => {
  for (const tree of trees) rmSync(tree, { recursive: true, force: true });
});

/** A throwaway tree with the given files (path relative to the tree: source). */
function treeWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'no-sql-'));
  trees.push(root);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

describe('no SQL outside server/storage/ (npm run lint)', () => {
  it('passes on the repository: the domain, routes and dashboard hold no SQL', () => {
    expect(sqlOutsideStorage(repoRoot)).toEqual([]);
  });

  it('finds each kind of SQL the domain once held, with its file and line', () => {
    const root = treeWith({
      'server/domain/lists.ts': [
        "const conditions = [['status = ?', status], ['created_at >= ?', from]];",
        'const range = `status >= ? AND status < ?`;',
        'const hidden = "status <> \'deleted\'";',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal's source, as text
        'const column = `${name} = ?`;',
        "const read = 'SELECT id FROM payments';",
        "const change = `UPDATE payments SET status = 'failed'`;",
        "const order = 'ORDER BY seq DESC';",
        "const none = 'deleted_at IS NULL';",
      ].join('\n'),
    });
    const findings = sqlOutsideStorage(root);
    expect(findings.map((f) => [f.file, f.line])).toEqual([
      ['server/domain/lists.ts', 1],
      ['server/domain/lists.ts', 1],
      ['server/domain/lists.ts', 2],
      ['server/domain/lists.ts', 3],
      ['server/domain/lists.ts', 4],
      ['server/domain/lists.ts', 5],
      ['server/domain/lists.ts', 6],
      ['server/domain/lists.ts', 7],
      ['server/domain/lists.ts', 8],
    ]);
    expect(findings[0]).toMatchObject({ kind: 'a condition with a placeholder', text: 'status = ?' });
  });

  it('leaves alone server/storage/, comments, HTTP methods and words that are not SQL', () => {
    const root = treeWith({
      'server/storage/repositories/payments.ts': "const get = 'SELECT * FROM payments WHERE id = ?';",
      'server/routes/router.ts': [
        '// Keyset pagination: `seq < ? ORDER BY seq DESC` (server/storage/pagination.ts).',
        "const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];",
        'const select = \'<select name="status"><option>Any</option></select>\';',
        "const message = 'Select where the money goes, then update the amount.';",
        'const equal = a === b ? "a = b" : "a != b";',
      ].join('\n'),
    });
    expect(sqlOutsideStorage(root)).toEqual([]);
  });

  it('fails the lint with each finding named, and the lint script runs it after biome', async () => {
    const root = treeWith({ 'server/domain/payouts.ts': "const bulk = ['bulk_id = ?', id];\n" });
    const tsx = join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const script = join(repoRoot, 'scripts', 'lint', 'no-sql-outside-storage.ts');
    const failed = await promisify(execFile)(process.execPath, [tsx, script, root]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(
      'server/domain/payouts.ts:1: SQL outside server/storage/ (a condition with a placeholder): "bulk_id = ?"',
    );
    const lint = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts.lint as string;
    expect(lint.split(' && ')).toEqual(
      expect.arrayContaining(['biome check .', 'tsx scripts/lint/no-sql-outside-storage.ts']),
    );
  });
});
