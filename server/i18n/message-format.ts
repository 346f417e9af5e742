/**
 * ICU message syntax, the part the catalogues use, over `Intl`: `{name}` arguments,
 * `{n, plural, =0 {…} one {# …} other {# …}}` chosen by `Intl.PluralRules` with `#` as the
 * number formatted for the locale, and `{x, select, a {…} other {…}}`. A message is parsed once
 * and cached; arguments are never concatenated into sentences by callers.
 */

type Node =
  | string
  | { arg: string }
  | { arg: string; kind: 'plural' | 'select'; cases: Map<string, Node[]> }
  | { pound: true };

const parsed = new Map<string, Node[]>();

function parse(source: string): Node[] {
  let at = 0;
  const fail = (why: string) => new Error(`message "${source}": ${why} at ${at}`);
  const nodes = (inPlural: boolean): Node[] => {
    const out: Node[] = [];
    let text = '';
    while (at < source.length) {
      const c = source[at] as string;
      if (c === '}') break;
      if (c === '#' && inPlural) {
        if (text) out.push(text);
        text = '';
        out.push({ pound: true });
        at++;
        continue;
      }
      if (c !== '{') {
        text += c;
        at++;
        continue;
      }
      if (text) out.push(text);
      text = '';
      at++;
      out.push(argument());
    }
    if (text) out.push(text);
    return out;
  };
  const word = () => {
    const match = /^\s*([=\w.-]+)\s*/.exec(source.slice(at));
    if (!match) throw fail('a name was expected');
    at += match[0].length;
    return match[1] as string;
  };
  const argument = (): Node => {
    const arg = word();
    if (source[at] === '}') {
      at++;
      return { arg };
    }
    if (source[at] !== ',') throw fail('"," or "}" was expected');
    at++;
    const kind = word();
    if (kind !== 'plural' && kind !== 'select') throw fail(`unknown argument type ${kind}`);
    if (source[at] !== ',') throw fail('"," was expected');
    at++;
    const cases = new Map<string, Node[]>();
    for (;;) {
      while (source[at] === ' ') at++;
      if (source[at] === '}') {
        at++;
        break;
      }
      const key = word();
      if (source[at] !== '{') throw fail('"{" was expected');
      at++;
      cases.set(key, nodes(kind === 'plural'));
      if (source[at] !== '}') throw fail('"}" was expected');
      at++;
    }
    if (!cases.has('other')) throw fail('an "other" case is required');
    return { arg, kind, cases };
  };
  const result = nodes(false);
  if (at !== source.length) throw fail('unbalanced "}"');
  return result;
}

/** The names a message's arguments use: a catalogue test checks each language uses the same. */
export function argumentNames(source: string): string[] {
  const names = new Set<string>();
  const walk = (list: Node[]) => {
    for (const node of list) {
      if (typeof node === 'string' || 'pound' in node) continue;
      names.add(node.arg);
      if ('cases' in node) for (const inner of node.cases.values()) walk(inner);
    }
  };
  walk(parse(source));
  return [...names].sort();
}

/**
 * The message with its arguments in place, as a list of parts: text of the message, and the
 * arguments' values as they were given (so markup built by a caller can stay markup).
 */
export function formatParts(
  source: string,
  values: Readonly<Record<string, unknown>>,
  locale: string,
): unknown[] {
  let nodes = parsed.get(source);
  if (!nodes) {
    nodes = parse(source);
    parsed.set(source, nodes);
  }
  const out: unknown[] = [];
  const walk = (list: Node[], count: number | undefined) => {
    for (const node of list) {
      if (typeof node === 'string') out.push(node);
      else if ('pound' in node) out.push(new Intl.NumberFormat(locale).format(count ?? 0));
      else if (!('cases' in node)) {
        const value = values[node.arg];
        out.push(typeof value === 'number' ? new Intl.NumberFormat(locale).format(value) : value);
      } else if (node.kind === 'plural') {
        const n = Number(values[node.arg]);
        const chosen =
          node.cases.get(`=${n}`) ??
          node.cases.get(new Intl.PluralRules(locale).select(n)) ??
          node.cases.get('other');
        walk(chosen ?? [], n);
      } else {
        walk(node.cases.get(String(values[node.arg])) ?? node.cases.get('other') ?? [], count);
      }
    }
  };
  walk(nodes, undefined);
  return out;
}
