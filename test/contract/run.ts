/**
 * `npm run test:contract`: proves the running server honours openapi.yaml with four
 * independent tools, each against its own freshly started server (fresh SQLite file, free
 * 127.0.0.1 port):
 *
 *   dredd     every operation and every documented status, fixtures and 4xx crafted in hooks
 *   proxy     real client calls through Prism's validation proxy (request and response checked)
 *   respect   Arazzo workflows chaining calls as integrators do (test/workflows)
 *   fuzz      property-based requests generated from the spec's schemas
 *
 * Usage: tsx test/contract/run.ts [dredd] [proxy] [respect] [fuzz] [--fault=<name>]
 * With no tool named, all four run, two at a time (each tool's output printed whole when it
 * ends, so two never interleave; TOOLS_AT_ONCE=1 runs them one after the other): when the suite
 * runs last in `npm test` it then keeps both cores busy (alone: 27.6 s against 33.6 s one after
 * the other). `--fault` starts every server with a deliberate contract
 * breach (test/contract/fault/inject.ts) to show the tools catch it: see README.md.
 * Exits non-zero when any tool fails.
 */
import { faults } from './fault/faults.js';
import { installCleanup, stopAll } from './lib/processes.js';
import { startServer } from './lib/server.js';
import { startWebhookSink } from './lib/webhook-sink.js';
import { dreddTool } from './tools/dredd.js';
import { fuzzTool } from './tools/fuzz.js';
import { proxyTool } from './tools/proxy.js';
import { respectTool } from './tools/respect.js';
import type { Tool, ToolResult } from './tools/types.js';

/** The two long ones first, so each runs beside a short one: dredd and fuzz ~13 s, the others ~4 s. */
const tools: Tool[] = [dreddTool, fuzzTool, proxyTool, respectTool];
/** Tools running at once. Each has its own server, webhook sink, files and free ports. */
const toolsAtOnce = Math.max(1, Math.trunc(Number(process.env.TOOLS_AT_ONCE ?? 2)) || 2);

function parseArgs(argv: string[]) {
  const names = argv.filter((a) => !a.startsWith('--'));
  const fault = argv.find((a) => a.startsWith('--fault='))?.slice('--fault='.length);
  const unknown = names.filter((n) => !tools.some((t) => t.name === n));
  if (unknown.length > 0)
    throw new Error(`Unknown tool ${unknown.join(', ')}: choose from ${tools.map((t) => t.name).join(', ')}`);
  if (fault !== undefined && !(fault in faults)) {
    throw new Error(`Unknown fault ${fault}: choose from ${Object.keys(faults).join(', ')}`);
  }
  return { selected: names.length > 0 ? tools.filter((t) => names.includes(t.name)) : tools, fault };
}

async function runTool(
  tool: Tool,
  fault: string | undefined,
  log: (line: string) => void,
): Promise<ToolResult & { ms: number }> {
  const started = Date.now();
  const sink = await startWebhookSink();
  const server = await startServer({ name: `server for ${tool.name}`, ...(fault ? { fault } : {}) });
  try {
    const result = await tool.run({ server, sink, log, ...(fault ? { serverFault: fault } : {}) });
    return { ...result, ms: Date.now() - started };
  } catch (err) {
    return {
      ok: false,
      summary: ['the tool could not run'],
      failures: [err instanceof Error ? (err.stack ?? err.message) : String(err)],
      ms: Date.now() - started,
    };
  } finally {
    await server.stop();
    await sink.close();
  }
}

async function main(): Promise<number> {
  installCleanup();
  const { selected, fault } = parseArgs(process.argv.slice(2));
  const started = Date.now();
  if (fault) console.log(`Self-check: every server runs with the fault "${fault}": ${faults[fault]}\n`);
  const results = new Map<Tool, ToolResult & { ms: number }>();
  // One tool alone streams its output; side by side, each tool's lines wait until it ends.
  const buffered = selected.length > 1;
  const queue = [...selected];
  const runNext = async (): Promise<void> => {
    for (let tool = queue.shift(); tool; tool = queue.shift()) {
      const lines = [`\n=== ${tool.name}: ${tool.description}`];
      const name = tool.name;
      const print = (line: string) => (buffered ? lines.push(line) : console.log(line));
      if (!buffered) console.log(lines[0]);
      const result = await runTool(tool, fault, (line) => print(`[${name}] ${line}`));
      for (const failure of result.failures) print(`\n[${name}] ${failure}`);
      if (buffered) console.log(lines.join('\n'));
      results.set(tool, result);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(toolsAtOnce, selected.length) }, runNext));
  } finally {
    await stopAll();
  }
  console.log('\n=== Contract suite summary');
  for (const tool of selected) {
    const result = results.get(tool);
    if (!result) continue;
    console.log(`${result.ok ? 'PASS' : 'FAIL'} ${tool.name} (${(result.ms / 1000).toFixed(1)} s)`);
    for (const line of result.summary) console.log(`     ${line}`);
    if (!result.ok) console.log(`     ${result.failures.length} failure(s), printed above`);
  }
  console.log(`Total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // Every tool chosen ran and passed: a tool without a result fails the suite.
  return selected.every((tool) => results.get(tool)?.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    console.error(err);
    await stopAll();
    process.exit(2);
  },
);
