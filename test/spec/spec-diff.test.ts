/**
 * `npm run spec:diff` tells a reviewer what a contract edit breaks. Each fixture in
 * test/fixtures/spec-diff/ is base.yaml with one edit; the diff must name it, flag it breaking or
 * not, and exit accordingly.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpec } from '../../scripts/lib/openapi.js';
import { type ChangeKind, diffSpecs, runSpecDiff } from '../../scripts/spec-diff.js';
import { spec } from '../support/spec.js';

const fixtures = fileURLToPath(new URL('../fixtures/spec-diff/', import.meta.url));
const script = fileURLToPath(new URL('../../scripts/spec-diff.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

interface Case {
  edit: string;
  fixture: string;
  /** The kinds of change the edit makes, each once. */
  kinds: ChangeKind[];
  /** What the report must name. */
  names: string[];
}

const breaking: Case[] = [
  {
    edit: 'an operation is removed',
    fixture: 'operation-removed',
    kinds: ['operation-removed'],
    names: ['GET /payments/{id}', 'getPayment'],
  },
  {
    edit: 'a response field is removed',
    fixture: 'response-field-removed',
    kinds: ['response-field-removed'],
    names: ['Payment.created_at'],
  },
  {
    edit: 'a request field is removed',
    fixture: 'request-field-removed',
    kinds: ['request-field-removed'],
    names: ['PaymentCreate.reference'],
  },
  {
    edit: 'a request field is renamed',
    fixture: 'request-field-renamed',
    kinds: ['request-field-renamed'],
    names: ['PaymentCreate.customer_msisdn', 'msisdn'],
  },
  {
    edit: 'a required request field is added',
    fixture: 'required-field-added',
    kinds: ['required-field-added'],
    names: ['PaymentCreate.service_id'],
  },
  {
    edit: 'an optional request field becomes required',
    fixture: 'field-became-required',
    kinds: ['field-became-required'],
    names: ['PaymentCreate.reference'],
  },
  {
    edit: 'a required parameter is added',
    fixture: 'required-parameter-added',
    kinds: ['required-parameter-added'],
    names: ['?service_id', 'GET /payments'],
  },
  {
    edit: 'a request enum loses a value',
    fixture: 'enum-narrowed',
    kinds: ['enum-narrowed'],
    names: ['PaymentMethod', 'orange_money'],
  },
  {
    edit: 'a type changes',
    fixture: 'type-changed',
    kinds: ['type-changed'],
    names: ['Payment.transaction_id', 'string to integer'],
  },
  {
    edit: 'a success status changes',
    fixture: 'success-status-changed',
    kinds: ['success-status-changed'],
    names: ['202', '201', 'POST /payments'],
  },
  {
    edit: 'a success status is removed',
    fixture: 'success-status-removed',
    kinds: ['success-status-removed'],
    names: ['200', 'GET /payments/{id}'],
  },
];

const nonBreaking: Case[] = [
  {
    edit: 'an optional request field is added',
    fixture: 'optional-field-added',
    kinds: ['request-field-added'],
    names: ['PaymentCreate.description'],
  },
  {
    edit: 'a response field is added',
    fixture: 'response-field-added',
    kinds: ['response-field-added'],
    names: ['Payment.completed_at'],
  },
  {
    edit: 'an operation is added',
    fixture: 'operation-added',
    kinds: ['operation-added'],
    names: ['POST /refunds', 'createRefund'],
  },
  {
    edit: 'a request enum gains a value',
    fixture: 'enum-widened',
    kinds: ['enum-widened'],
    names: ['PaymentMethod', 'airtel_money'],
  },
  {
    edit: 'an enum read and sent gains a value',
    fixture: 'response-enum-widened',
    kinds: ['enum-widened'],
    names: ['PaymentStatus', 'refunded', 'clients must accept values they do not know'],
  },
];

function changesOf(fixture: string) {
  return diffSpecs(readSpec(join(fixtures, 'base.yaml')), readSpec(join(fixtures, `${fixture}.yaml`)));
}

async function runCli(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, [script, ...args], { cwd });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

describe('spec:diff', () => {
  describe.each(breaking)('when $edit', ({ fixture, kinds, names }) => {
    it(`reports it as breaking (${kinds.join(', ')})`, () => {
      const changes = changesOf(fixture);
      expect(new Set(changes.map((c) => c.kind))).toEqual(new Set(kinds));
      expect(changes.every((c) => c.breaking)).toBe(true);
    });

    it('exits 1 and names the change', async () => {
      const { exitCode, output } = await runSpecDiff(
        ['--base', 'base.yaml', '--head', `${fixture}.yaml`],
        fixtures,
      );
      expect(exitCode).toBe(1);
      expect(output).toMatch(/^\d+ breaking changes?:$/m);
      for (const name of names) expect(output).toContain(name);
    });
  });

  describe.each(nonBreaking)('when $edit', ({ fixture, kinds, names }) => {
    it(`reports it as non-breaking (${kinds.join(', ')})`, () => {
      const changes = changesOf(fixture);
      expect(new Set(changes.map((c) => c.kind))).toEqual(new Set(kinds));
      expect(changes.some((c) => c.breaking)).toBe(false);
    });

    it('exits 0 and names the change', async () => {
      const { exitCode, output } = await runSpecDiff(
        ['--base', 'base.yaml', '--head', `${fixture}.yaml`],
        fixtures,
      );
      expect(exitCode).toBe(0);
      expect(output).toContain('No breaking changes.');
      for (const name of names) expect(output).toContain(name);
    });
  });

  describe('when only summaries and descriptions change', () => {
    it('reports no change and exits 0', async () => {
      expect(changesOf('docs-only')).toEqual([]);
      const { exitCode, output } = await runSpecDiff(
        ['--base', 'base.yaml', '--head', 'docs-only.yaml'],
        fixtures,
      );
      expect(exitCode).toBe(0);
      expect(output).toContain('No contract changes');
    });
  });

  describe('when components are only renamed', () => {
    it('compares by resolved shape: reports no change and exits 0', async () => {
      expect(changesOf('components-renamed')).toEqual([]);
      const { exitCode, output } = await runSpecDiff(
        ['--base', 'base.yaml', '--head', 'components-renamed.yaml'],
        fixtures,
      );
      expect(exitCode).toBe(0);
      expect(output).toContain('No contract changes');
    });
  });

  describe('on the real contract', () => {
    it('finds nothing between openapi.yaml and itself', () => {
      expect(diffSpecs(spec, structuredClone(spec))).toEqual([]);
    });
  });

  describe('as a command against a git ref', () => {
    let repo: string;
    const git = (...args: string[]) =>
      promisify(execFile)(
        'git',
        [
          '-c',
          'user.name=spec-diff',
          '-c',
          'user.email=spec-diff@example.invalid',
          '-c',
          'commit.gpgsign=false',
          ...args,
        ],
        {
          cwd: repo,
        },
      );

    beforeAll(async () => {
      repo = await mkdtemp(join(tmpdir(), 'spec-diff-'));
      await git('init', '--quiet');
      await copyFile(join(fixtures, 'base.yaml'), join(repo, 'openapi.yaml'));
      await git('add', 'openapi.yaml');
      await git('commit', '--quiet', '--message', 'base');
    });

    afterAll(async () => {
      await rm(repo, { recursive: true, force: true });
    });

    it('exits 1 and names a breaking change in the work tree', async () => {
      await copyFile(join(fixtures, 'request-field-renamed.yaml'), join(repo, 'openapi.yaml'));
      const { code, output } = await runCli(['HEAD'], repo);
      expect(code).toBe(1);
      expect(output).toContain('HEAD:openapi.yaml');
      expect(output).toContain('request field `PaymentCreate.customer_msisdn` renamed to `msisdn`');
    });

    it('exits 0 and lists a non-breaking change in the work tree', async () => {
      await copyFile(join(fixtures, 'operation-added.yaml'), join(repo, 'openapi.yaml'));
      const { code, output } = await runCli(['HEAD'], repo);
      expect(code).toBe(0);
      expect(output).toContain('new operation (createRefund)');
    });

    it('exits 2 and says so when the ref does not exist', async () => {
      const { code, output } = await runCli(['no-such-ref'], repo);
      expect(code).toBe(2);
      expect(output).toContain('Cannot read openapi.yaml at git ref no-such-ref');
    });
  });
});
