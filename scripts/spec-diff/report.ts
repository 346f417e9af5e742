/**
 * The text report of `npm run spec:diff`: breaking changes first, each change once with the
 * operations it touches.
 */
import type { Change } from './compare.js';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function section(adjective: string, changes: Change[]): string[] {
  const operationsByMessage = new Map<string, string[]>();
  for (const change of changes) {
    const operations = operationsByMessage.get(change.message) ?? [];
    if (!operations.includes(change.operation)) operations.push(change.operation);
    operationsByMessage.set(change.message, operations);
  }
  const lines = [`${plural(operationsByMessage.size, `${adjective} change`)}:`];
  for (const [message, operations] of operationsByMessage) {
    lines.push(`  - ${message}`, `      in ${operations.join(', ')}`);
  }
  return lines;
}

/**
 * Formats the changes between two contracts for a reviewer.
 *
 * @example
 * ```ts
 * console.log(formatReport(diffSpecs(base, head), 'HEAD', 'the work tree'));
 * ```
 */
export function formatReport(changes: Change[], baseName: string, headName: string): string {
  if (changes.length === 0) {
    return `No contract changes from ${baseName} to ${headName} (descriptions and examples are not compared).`;
  }
  const breaking = changes.filter((c) => c.breaking);
  const other = changes.filter((c) => !c.breaking);
  const lines = [`Contract changes from ${baseName} to ${headName}:`, ''];
  if (breaking.length > 0) lines.push(...section('breaking', breaking), '');
  if (other.length > 0) lines.push(...section('non-breaking', other), '');
  lines.push(
    breaking.length > 0
      ? 'Breaking changes found: keep the old behaviour beside the new one, or release a new major version.'
      : 'No breaking changes.',
  );
  return lines.join('\n');
}
