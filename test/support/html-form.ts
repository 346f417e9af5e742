/**
 * Server-rendered HTML read as a browser without JavaScript reads it, for the tests that drive
 * pages over plain HTTP (test/dashboard/over-http.test.ts, test/checkout/checkout-over-http.test.ts):
 * entities decoded, a tag's attributes, and a form with what it sends by default.
 */

export function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A tag's attributes (the text after its name), values decoded; a bare one (`checked`) is ''. */
export function attributesOf(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, value] of source.matchAll(/([\w-]+)(?:="([^"]*)")?/g)) {
    out[name as string] = decodeEntities(value ?? '');
  }
  return out;
}

export interface HtmlForm {
  method: string;
  action: string;
  /** What the form sends as rendered, in document order. */
  fields: Array<[name: string, value: string]>;
  /** The values each radio group offers. */
  choices: Record<string, string[]>;
}

/**
 * The page's first form, or the first that posts to `action`, with what a browser sends by
 * default: its inputs and selects in document order, a radio or checkbox only when checked, a
 * select's selected option (or its first), by value or else by text.
 */
export function formOf(html: string, action?: string): HtmlForm {
  for (const [, formSource = '', body = ''] of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const form = attributesOf(formSource);
    if (action !== undefined && form.action !== action) continue;
    const fields: Array<[string, string]> = [];
    const choices: Record<string, string[]> = {};
    for (const [, input, select, options = ''] of body.matchAll(
      /<input\b([^>]*)>|<select\b([^>]*)>([\s\S]*?)<\/select>/g,
    )) {
      if (input !== undefined) {
        const a = attributesOf(input);
        if (!a.name) continue;
        if (a.type === 'radio') choices[a.name] = [...(choices[a.name] ?? []), a.value ?? ''];
        if ((a.type === 'checkbox' || a.type === 'radio') && !('checked' in a)) continue;
        fields.push([a.name, a.value ?? '']);
        continue;
      }
      const offered = [...options.matchAll(/<option\b([^>]*)>([^<]*)<\/option>/g)].map(
        ([, o = '', text = '']) => {
          const a = attributesOf(o);
          return { selected: 'selected' in a, value: a.value ?? decodeEntities(text) };
        },
      );
      const chosen = offered.find((o) => o.selected) ?? offered[0];
      const name = attributesOf(select ?? '').name;
      if (name && chosen) fields.push([name, chosen.value]);
    }
    return { method: (form.method ?? 'get').toLowerCase(), action: form.action ?? '', fields, choices };
  }
  throw new Error(
    `no form${action === undefined ? '' : ` to ${action}`} on the page:\n${html.slice(0, 2000)}`,
  );
}
