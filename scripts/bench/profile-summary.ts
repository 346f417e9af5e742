/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): the functions with the most self time, the
 * same grouped by package or source file, and the inclusive time of the functions that matter.
 *
 *   npx tsx scripts/bench/profile-summary.ts build/bench/profiles/<server>/<file>.cpuprofile [--top 25] [--from 5]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** `node_modules/<package>` or the path inside the repository, `(native)` for V8 itself. */
function placeOf(url: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = path.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? path);
  }
  if (path.startsWith('node:')) return path;
  const repo = path.indexOf('/server/');
  return repo >= 0 ? path.slice(repo + 1) : path;
}

function nameOf(frame: CallFrame): string {
  const where = frame.url ? `:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'} ${placeOf(frame.url)}${where}`;
}

/**
 * @param fromS ignore the first seconds of the profile (start-up, warm-up), so what remains is
 *   the steady state under load.
 */
export function summarizeProfile(profile: CpuProfile, top = 25, fromS = 0): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  const from = profile.startTime + fromS * 1e6;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from) continue;
    const id = profile.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self.entries()]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;
  const pct = (t: number) => `${((t / busy) * 100).toFixed(1).padStart(5)}%`;

  const selfByName = new Map<string, number>();
  const selfByPlace = new Map<string, number>();
  for (const [id, t] of self) {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const name = nameOf(node.callFrame);
    selfByName.set(name, (selfByName.get(name) ?? 0) + t);
    const place =
      node.callFrame.functionName === '(garbage collector)'
        ? '(garbage collector)'
        : node.callFrame.functionName === '(program)'
          ? '(program)'
          : placeOf(node.callFrame.url);
    selfByPlace.set(place, (selfByPlace.get(place) ?? 0) + t);
  }

  // Inclusive time: a function's samples and its callees', counted once per stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node || node.callFrame.functionName === '(root)') break;
      const name = nameOf(node.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + t);
    }
  }

  const list = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, t]) => `  ${pct(t)}  ${(t / 1000).toFixed(0).padStart(6)} ms  ${name}`)
      .join('\n');
  const busyMs = busy / 1000;
  return [
    `Profile: ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s${fromS ? ` (the first ${fromS} s left out)` : ''}, busy ${(busyMs / 1000).toFixed(1)} s (idle ${(idle / 1e6).toFixed(1)} s). Percentages are of busy time.`,
    '',
    'Self time by function:',
    list(selfByName, top),
    '',
    'Self time by package or file:',
    list(selfByPlace, top),
    '',
    'Inclusive time by function (our code and the middleware that wraps it):',
    list(
      new Map(
        [...inclusive.entries()].filter(([name]) =>
          /server\/|express-openapi-validator|better-sqlite3|ajv|pino|prom-client/.test(name),
        ),
      ),
      top,
    ),
  ].join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' }, from: { type: 'string', default: '0' } },
  });
  const file = positionals[0];
  if (!file) {
    console.error(
      'Usage: tsx scripts/bench/profile-summary.ts <file.cpuprofile> [--top 25] [--from <seconds>]',
    );
    process.exit(2);
  }
  console.log(
    summarizeProfile(
      JSON.parse(readFileSync(file, 'utf8')) as CpuProfile,
      Number(values.top),
      Number(values.from),
    ),
  );
}
