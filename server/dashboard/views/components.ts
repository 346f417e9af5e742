import { formatAmount } from '../../checkout/format.js';
import type { Page } from '../../storage/pagination.js';
import { type Html, html } from '../html.js';

export const money = (amount: number, currency: string) => formatAmount(amount, currency);

/** Times in UTC, the same everywhere (the API's times are UTC too). */
export function when(ms: number | null): Html | string {
  if (ms === null) return '';
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

export const badge = (status: string) => html`<span class="badge badge-${status}">${status}</span>`;

/** A table that scrolls sideways on a phone instead of overflowing the page. */
export function table(caption: string, head: Html, rows: Html[], empty = 'Nothing here yet.'): Html {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="scroll" role="region" aria-label="${caption}" tabindex="0"><table>
<thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
}

/** Next page and back to the first, keeping the filters: the API's cursor pagination. */
export function pager(path: string, query: Record<string, string | undefined>, page: Page<unknown>): Html {
  const kept = Object.entries(query).filter(
    (entry): entry is [string, string] => entry[0] !== 'cursor' && !!entry[1],
  );
  const first = new URLSearchParams(kept).toString();
  const next = page.next_cursor
    ? new URLSearchParams([...kept, ['cursor', page.next_cursor]]).toString()
    : '';
  return html`<nav class="pager" aria-label="Pages">${
    query.cursor ? html`<a href="${path}${first ? `?${first}` : ''}">First page</a>` : ''
  }${page.has_more ? html`<a href="${path}?${next}" rel="next">Next page</a>` : ''}</nav>`;
}

export interface FilterField {
  name: string;
  label: string;
  /** Choices of a select; otherwise a text (or date) input. */
  options?: readonly string[];
  type?: 'text' | 'date';
}

/** The API's filters as a GET form: works without JavaScript, the URL can be shared. */
export function filters(
  path: string,
  fields: FilterField[],
  query: Record<string, string | undefined>,
): Html {
  const inputs = fields.map((field) => {
    const id = `filter-${field.name}`;
    const value = query[field.name] ?? '';
    const control = field.options
      ? html`<select id="${id}" name="${field.name}"><option value="">Any</option>${field.options.map(
          (option) => html`<option${option === value ? html` selected` : ''}>${option}</option>`,
        )}</select>`
      : html`<input id="${id}" name="${field.name}" type="${field.type ?? 'text'}" value="${value}">`;
    return html`<div><label for="${id}">${field.label}</label>${control}</div>`;
  });
  return html`<form class="filters" method="get" action="${path}" role="search" aria-label="Filters">${inputs}<button type="submit">Filter</button><a href="${path}">Clear</a></form>`;
}
