/** The one-write-path rule of `npm run lint` (scripts/lint/write-path.ts). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePathProblems } from '../../scripts/lint/write-path.js';
import { repoRoot } from '../support/child-server.js';

describe('the write-path lint rule', () => {
  it('refuses a closure run as a transaction in server code, naming the file and line', () => {
    const source = 'export const x = 1;\nawait deps.store.transact(async (tx) => tx.services.insert(row));\n';
    expect(writePathProblems('server/domain/services.ts', source)).toEqual([
      'server/domain/services.ts:2: runs a closure as a transaction: define a unit of work and call write(deps, unit, args)',
    ]);
  });

  it('refuses a unit handed to the store directly outside write.ts', () => {
    expect(writePathProblems('server/workers/x.ts', 'await store.run(claim, args);')).toHaveLength(1);
    expect(writePathProblems('server/domain/write.ts', 'return deps.store.run(unit, args);')).toEqual([]);
  });

  it('lets storage, comments and the call log be', () => {
    expect(writePathProblems('server/storage/open-store.ts', 'await store.transact(work);')).toEqual([]);
    expect(writePathProblems('server/domain/a.ts', ' * never store.transact(work) here')).toEqual([]);
    expect(writePathProblems('server/http/call-log.ts', 'store.runSoon(recordCalls, args, 25)')).toEqual([]);
  });

  it('passes on the server as it is, and npm run lint runs it', () => {
    const lint = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts.lint as string;
    expect(lint.split(' && ')).toContain('tsx scripts/lint/write-path.ts');
    expect(() =>
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/lint/write-path.ts'], {
        cwd: repoRoot,
        stdio: 'pipe',
      }),
    ).not.toThrow();
  });
});
