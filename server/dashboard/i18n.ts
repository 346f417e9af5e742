import type { RequestHandler, Response } from 'express';
import { ApiError } from '../domain/errors.js';
import type { MessageKey } from '../i18n/en.js';
import { localeOf } from '../i18n/http.js';
import { defaultTimeZone, Translator, type Values } from '../i18n/translator.js';
import { Html, html } from './html.js';

/** Every dashboard request's translator: the visitor's language, the account's time zone. */
export const localize: RequestHandler = (req, res, next) => {
  res.locals.t = new Translator(localeOf(req), req.dashboard?.account.time_zone ?? defaultTimeZone);
  next();
};

export const translatorOf = (res: Response) => res.locals.t as Translator;

/** A message as markup: its own text escaped, arguments that are `Html` kept as markup. */
export function th(t: Translator, key: MessageKey, values: Values): Html {
  return new Html(
    t
      .parts(key, values)
      .map((part) => html`${part}`.value)
      .join(''),
  );
}

/**
 * A path inside the dashboard to go back to, or undefined for anything else (another site,
 * `//host`, a scheme): the language switch and sign-in only ever redirect within this origin.
 */
export function dashboardPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/dashboard') || /[\\\s]|^\/\//.test(value))
    return undefined;
  const url = new URL(value, 'http://dashboard.invalid');
  if (url.origin !== 'http://dashboard.invalid' || !/^\/dashboard(\/|$)/.test(url.pathname)) return undefined;
  return `${url.pathname}${url.search}`;
}

/** Refusals the dashboard wrote itself, already in the page's language. */
const localized = new WeakSet<ApiError>();

/** A refusal the dashboard words itself: its message is shown as it is, in the page's language. */
export function refusal(...args: ConstructorParameters<typeof ApiError>): ApiError {
  const error = new ApiError(...args);
  localized.add(error);
  return error;
}

/**
 * A refusal's words on the page: the dashboard's own as written, the domain's in English as it
 * wrote them, and in another language the contract's meaning of its error code.
 */
export function errorText(t: Translator, error: ApiError): string {
  if (localized.has(error) || t.locale === 'en') return error.message;
  return t.t(`apiError.${error.code}`);
}
