/**
 * The language of a page: French or English, from the visitor's choice (a cookie) or their
 * browser's `Accept-Language`, with amounts, numbers and times formatted for Cameroon's French
 * (`fr-CM`) or English (`en-CM`) by `Intl`, and times in the account's time zone.
 * Decision 0036.
 */
import { en, type MessageKey, type Messages } from './en.js';
import { fr } from './fr.js';
import { formatParts } from './message-format.js';

export const locales = ['fr', 'en'] as const;
export type Locale = (typeof locales)[number];

const catalogues: Record<Locale, Messages> = { fr, en };
const intlTags: Record<Locale, string> = { fr: 'fr-CM', en: 'en-CM' };
/** What each language is called in itself, for the switch. */
export const languageNames: Record<Locale, string> = { fr: 'Français', en: 'English' };

/** The time zone of an account that has not chosen one. */
export const defaultTimeZone = 'Africa/Douala';
/** The cookie that remembers a visitor's language, on the dashboard and the checkout page. */
export const languageCookie = 'lang';

export const isLocale = (value: unknown): value is Locale => locales.includes(value as Locale);

/**
 * The language a browser asks for, by the weights of `Accept-Language` (`fr-CM,fr;q=0.9,en;q=0.8`);
 * English when it names neither (the language of the API and its documentation).
 */
export function negotiate(acceptLanguage: string | undefined): Locale {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0 && isLocale(entry.lang))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.lang as Locale | undefined) ?? 'en';
}

export type Values = Readonly<Record<string, unknown>>;

/** A page's words and formats: one per request. */
export class Translator {
  readonly tag: string;
  private readonly messages: Messages;

  constructor(
    readonly locale: Locale,
    readonly timeZone: string = defaultTimeZone,
  ) {
    this.tag = intlTags[locale];
    this.messages = catalogues[locale];
  }

  /** The message as text: its arguments in place, numbers formatted for the locale. */
  t(key: MessageKey, values: Values = {}): string {
    return formatParts(this.messages[key], values, this.tag).join('');
  }

  /** The message as parts, for callers that keep some arguments as markup (the dashboard's `th`). */
  parts(key: MessageKey, values: Values): unknown[] {
    return formatParts(this.messages[key], values, this.tag);
  }

  /** Whether the catalogue has `key` (for values read from the database, such as statuses). */
  has(key: string): key is MessageKey {
    return Object.hasOwn(this.messages, key);
  }

  /** An amount in minor units, in the locale's form with the currency's symbol: `2 500 FCFA`, `FCFA 2,500`. */
  money(amount: number, currency: string): string {
    const format = new Intl.NumberFormat(this.tag, { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  }

  number(value: number): string {
    return new Intl.NumberFormat(this.tag).format(value);
  }

  percent(ratio: number): string {
    return new Intl.NumberFormat(this.tag, { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
  }

  /** Date and time in the account's zone: `20 nov. 2026, 10:30`. */
  dateTime(ms: number): string {
    return new Intl.DateTimeFormat(this.tag, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: this.timeZone,
    }).format(ms);
  }

  /** A day in the account's zone: `20 nov. 2026`. */
  day(ms: number): string {
    return new Intl.DateTimeFormat(this.tag, { dateStyle: 'medium', timeZone: this.timeZone }).format(ms);
  }

  /** A short day, for a chart's axis: `20/11`. */
  shortDay(ms: number): string {
    return new Intl.DateTimeFormat(this.tag, { day: '2-digit', month: '2-digit', timeZone: 'UTC' }).format(
      ms,
    );
  }
}

/** `2026-11-20 09:30 UTC`: the same for everyone, shown on hover beside a local time and in exports. */
export function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** How far `timeZone` is ahead of UTC at `ms`, in milliseconds (`GMT+01:00` is 3,600,000). */
function offsetAt(ms: number, timeZone: string): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(ms)
      .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return (match[1] === '-' ? -1 : 1) * minutes * 60_000;
}

/** `2026-11-28T10:00:00+01:00`: the instant as `timeZone`'s clock shows it, with its offset (exports). */
export function localIso(ms: number, timeZone: string): string {
  const offset = offsetAt(ms, timeZone);
  const minutes = Math.abs(offset) / 60_000;
  const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return `${new Date(ms + offset).toISOString().slice(0, 19)}${offset < 0 ? '-' : '+'}${hhmm}`;
}

/** The instant a day (`2026-11-20`) begins in `timeZone`: filters and reports count whole local days. */
export function dayStart(day: string, timeZone: string): number {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  return utcMidnight - offsetAt(utcMidnight - offsetAt(utcMidnight, timeZone), timeZone);
}

/** The day (`2026-11-20`) `ms` falls on in `timeZone`, as a date input holds it. */
export function dayOf(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(ms);
}
