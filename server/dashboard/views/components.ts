import { type Translator, utcMinute } from '../../i18n/translator.js';
import type { Page } from '../../storage/pagination.js';
import { type Html, html } from '../html.js';

/**
 * A time in the account's zone, in the page's language, with the UTC time on hover (its title)
 * and in its machine-readable `datetime`.
 */
export function when(t: Translator, ms: number | null): Html | string {
  if (ms === null) return '';
  return html`<time datetime="${new Date(ms).toISOString()}" title="${utcMinute(ms)}">${t.dateTime(ms)}</time>`;
}

/** A value read from the database (a status, a type) in the page's language; as stored if unknown. */
export function label(
  t: Translator,
  prefix:
    | 'status'
    | 'flow'
    | 'payoutType'
    | 'method'
    | 'ledger'
    | 'role'
    | 'event'
    | 'operatorProduct'
    | 'operatorState'
    | 'operatorError',
  value: string,
): string {
  const key = `${prefix}.${value}`;
  return t.has(key) ? t.t(key) : value;
}

export const badge = (t: Translator, status: string) =>
  html`<span class="badge badge-${status}">${label(t, 'status', status)}</span>`;

/** A table that scrolls sideways on a phone instead of overflowing the page. */
export function table(t: Translator, caption: string, head: Html, rows: Html[], empty?: string): Html {
  if (rows.length === 0) return html`<p class="muted">${empty ?? t.t('table.empty')}</p>`;
  return html`<div class="scroll" role="region" aria-label="${caption}" tabindex="0"><table>
<thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
}

/** Next page and back to the first, keeping the filters: the API's cursor pagination. */
export function pager(
  t: Translator,
  path: string,
  query: Record<string, string | undefined>,
  page: Page<unknown>,
): Html {
  const kept = Object.entries(query).filter(
    (entry): entry is [string, string] => entry[0] !== 'cursor' && !!entry[1],
  );
  const first = new URLSearchParams(kept).toString();
  const next = page.next_cursor
    ? new URLSearchParams([...kept, ['cursor', page.next_cursor]]).toString()
    : '';
  return html`<nav class="pager" aria-label="${t.t('pager.label')}">${
    query.cursor ? html`<a href="${path}${first ? `?${first}` : ''}">${t.t('pager.first')}</a>` : ''
  }${page.has_more ? html`<a href="${path}?${next}" rel="next">${t.t('pager.next')}</a>` : ''}</nav>`;
}

export interface FilterField {
  name: string;
  label: string;
  /** Choices of a select, with the words each is shown as; otherwise a text (or date) input. */
  options?: ReadonlyArray<readonly [value: string, label: string]>;
  type?: 'text' | 'date';
}

/** The contract's values as a select's choices, each in the page's language. */
export function choices(
  t: Translator,
  prefix: Parameters<typeof label>[1],
  values: readonly string[],
): Array<[string, string]> {
  return values.map((value) => [value, label(t, prefix, value)]);
}

/** The API's filters as a GET form: works without JavaScript, the URL can be shared. */
export function filters(
  t: Translator,
  path: string,
  fields: FilterField[],
  query: Record<string, string | undefined>,
): Html {
  const inputs = fields.map((field) => {
    const id = `filter-${field.name}`;
    const value = query[field.name] ?? '';
    const control = field.options
      ? html`<select id="${id}" name="${field.name}"><option value="">${t.t('filters.any')}</option>${field.options.map(
          ([option, text]) =>
            html`<option value="${option}"${option === value ? html` selected` : ''}>${text}</option>`,
        )}</select>`
      : html`<input id="${id}" name="${field.name}" type="${field.type ?? 'text'}" value="${value}">`;
    return html`<div><label for="${id}">${field.label}</label>${control}</div>`;
  });
  return html`<form class="filters" method="get" action="${path}" role="search" aria-label="${t.t('filters.label')}">${inputs}<button type="submit">${t.t('filters.submit')}</button><a href="${path}">${t.t('filters.clear')}</a></form>`;
}

/** The list's filters as the query of its CSV download. */
export function csvHref(path: string, query: Record<string, string | undefined>): string {
  const kept = new URLSearchParams(
    Object.entries(query).filter((e): e is [string, string] => e[0] !== 'cursor' && !!e[1]),
  ).toString();
  return `${path}.csv${kept ? `?${kept}` : ''}`;
}

/** The list's CSV download, with the filters on screen (routes/exports.ts). */
export function csvLink(t: Translator, path: string, query: Record<string, string | undefined>): Html {
  return html`<p><a class="button secondary" id="download-csv" href="${csvHref(path, query)}" download>${t.t('exports.download')}</a></p>`;
}
