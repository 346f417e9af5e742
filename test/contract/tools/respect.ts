/**
 * Redocly respect runs the Arazzo workflows of test/workflows against the server: calls
 * chained as an integrator chains them, each step's status, content type and schema checked
 * against openapi.yaml (respect's own checks) on top of the workflows' success criteria.
 *
 * The workflows name the API `payments` (their source description); `--server` points it at
 * this server, and `--input` hands them the accounts they use.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Api, testCredentials } from '../lib/api.js';
import { runToEnd } from '../lib/processes.js';
import { bin, repoRoot } from '../lib/server.js';
import type { Tool } from './types.js';

const workflowsDir = join(repoRoot, 'test', 'workflows');
/** Every step on an API operation must have had these checks. */
const contractChecks = ['status code check', 'content-type check', 'schema check'];

interface Check {
  name: string;
  passed: boolean;
  message?: string;
}
interface ExecutedStep {
  type: string;
  stepId?: string;
  workflowId?: string;
  request?: { method: string; url: string };
  checks?: Check[];
  executedSteps?: ExecutedStep[];
}

export const respectTool: Tool = {
  name: 'respect',
  description: 'Redocly respect: Arazzo workflows of test/workflows, chained as integrators call the API',
  async run({ server }) {
    const dir = mkdtempSync(join(tmpdir(), 'contract-respect-'));
    try {
      const [other, keys] = await Promise.all([
        server.createAccount('respect transfer recipient'),
        server.createAccount('respect key rotation'),
      ]);
      const otherWallet = (await new Api(server.apiUrl, testCredentials(other)).get('/balance')).body.data
        .wallet_id;
      const inputs = {
        api_user: server.account.apiUser,
        test_key: server.account.testKey,
        other_wallet_id: otherWallet,
        key_api_user: keys.apiUser,
        key_test_key: keys.testKey,
      };
      const files = readdirSync(workflowsDir)
        .filter((f) => f.endsWith('.arazzo.yaml'))
        .sort()
        .map((f) => join('test', 'workflows', f));
      const jsonOutput = join(dir, 'respect.json');
      const { code, output } = await runToEnd(
        'respect',
        bin('redocly'),
        [
          'respect',
          ...files,
          '--input',
          JSON.stringify(inputs),
          '--server',
          JSON.stringify({ payments: server.apiUrl }),
          '--json-output',
          jsonOutput,
          '--execution-timeout',
          '120000',
        ],
        { cwd: repoRoot, env: { NO_COLOR: '1', FORCE_COLOR: '0' }, timeoutMs: 150_000 },
      );

      const failures: string[] = [];
      let report:
        | { files: Record<string, { executedWorkflows: ExecutedStep[]; totalRequests: number }> }
        | undefined;
      try {
        report = JSON.parse(readFileSync(jsonOutput, 'utf8'));
      } catch {
        failures.push(`respect wrote no JSON report (exit ${code}):\n${output.slice(-4000)}`);
      }
      const tally = { workflows: 0, failedWorkflows: 0, steps: 0, checks: 0, requests: 0 };
      const kinds = new Map<string, number>();
      for (const [file, result] of Object.entries(report?.files ?? {})) {
        tally.requests += result.totalRequests;
        for (const workflow of result.executedWorkflows) {
          tally.workflows += 1;
          const problems = inspect(workflow, tally, kinds);
          if (problems.length > 0) {
            tally.failedWorkflows += 1;
            failures.push(`${file} / ${workflow.workflowId}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
          }
        }
      }
      if (code !== 0 && failures.length === 0)
        failures.push(`respect exited ${code}:\n${output.slice(-4000)}`);
      return {
        ok: code === 0 && failures.length === 0,
        summary: [
          `${files.length} Arazzo files, ${tally.workflows - tally.failedWorkflows}/${tally.workflows} workflows passed, ${tally.steps} steps, ${tally.requests} requests, ${tally.checks} checks (${[...kinds.entries()].map(([k, n]) => `${n} ${k}`).join(', ')})`,
        ],
        failures,
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/**
 * Counts a workflow's steps and checks, and returns what went wrong: a failed check (retries
 * of a polling step excepted: only its last attempt counts), or a step on the API that
 * respect did not check against the contract.
 */
function inspect(
  workflow: ExecutedStep,
  tally: { steps: number; checks: number },
  kinds: Map<string, number>,
): string[] {
  const problems: string[] = [];
  const steps = workflow.executedSteps ?? [];
  const lastAttempt = new Map<string, ExecutedStep>();
  for (const step of steps) {
    if (step.type === 'workflow') {
      problems.push(...inspect(step, tally, kinds).map((p) => `${step.workflowId}: ${p}`));
    } else if (step.stepId) lastAttempt.set(step.stepId, step);
  }
  for (const step of lastAttempt.values()) {
    tally.steps += 1;
    const checks = step.checks ?? [];
    tally.checks += checks.length;
    for (const check of checks) kinds.set(check.name, (kinds.get(check.name) ?? 0) + 1);
    for (const check of checks.filter((c) => !c.passed)) {
      problems.push(
        `step ${step.stepId}: ${check.name}: ${(check.message ?? '').replace(/\s+/g, ' ').slice(0, 600)}`,
      );
    }
    const onTheApi = step.request && !new URL(step.request.url).pathname.startsWith('/checkout/');
    const missing = contractChecks.filter((name) => !checks.some((c) => c.name === name));
    if (onTheApi && missing.length > 0)
      problems.push(`step ${step.stepId} was not checked for: ${missing.join(', ')}`);
  }
  return problems;
}
