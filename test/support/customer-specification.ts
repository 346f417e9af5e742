/**
 * The customer's specification as data, for the traceability test: the copy kept in
 * docs/specification/payments-api-spec.md, cut into its numbered sections, their `###` parts,
 * Markdown tables and numbered lists. Each helper throws when what it looks for is not there, so
 * a test can never pass on an empty table.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const customerSpecificationPath = fileURLToPath(
  new URL('../../docs/specification/payments-api-spec.md', import.meta.url),
);

const text = readFileSync(customerSpecificationPath, 'utf8');

/** The text of `## <number>. ...`, up to the next `## ` heading. */
export function section(number: number): string {
  const parts = text.split(/^(?=## )/m);
  const found = parts.find((part) => part.startsWith(`## ${number}. `));
  if (!found) throw new Error(`No section ${number} in ${customerSpecificationPath}`);
  return found;
}

/** The text of the `### <title>` part of a section, up to the next `###` heading. */
export function part(sectionText: string, title: string): string {
  const found = sectionText.split(/^(?=### )/m).find((p) => p.startsWith(`### ${title}`));
  if (!found) throw new Error(`No part "### ${title}" in ${sectionText.split('\n')[0]}`);
  return found;
}

/** The first Markdown table of a text, one object per row keyed by the header's cells. */
export function table(partText: string): Array<Record<string, string>> {
  const lines = partText.split('\n').filter((line) => line.startsWith('|'));
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
  const [header, separator, ...rows] = lines;
  if (!header || !separator || rows.length === 0) throw new Error(`No table in ${partText.split('\n')[0]}`);
  const names = cells(header);
  return rows.map((row) => Object.fromEntries(cells(row).map((cell, i) => [names[i], cell])));
}

/** The items of the numbered list of a text, by their number. */
export function numberedItems(partText: string): Map<number, string> {
  const items = new Map<number, string>();
  for (const match of partText.matchAll(/^(\d+)\. (.+)$/gm)) items.set(Number(match[1]), match[2] as string);
  if (items.size === 0) throw new Error(`No numbered list in ${partText.split('\n')[0]}`);
  return items;
}

/** Item `number` of a numbered list; throws when the list has no such item. */
export function item(items: Map<number, string>, number: number): string {
  const found = items.get(number);
  if (found === undefined) throw new Error(`No item ${number} in the list`);
  return found;
}
