import { escapeHtml } from '../checkout/format.js';

/** Markup that is already safe: the result of `html` or of `raw`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A template tag that escapes every interpolated value unless it is `Html` already, so a page
 * cannot forget to escape a merchant's description or an endpoint's URL.
 *
 * @example
 * html`<td>${row.description}</td>` // `<script>` in the description arrives as text
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Trusted markup built in code (never from input). */
export const raw = (markup: string) => new Html(markup);
