/**
 * Form input checked by the contract's own limits (openapi.yaml), since dashboard forms do not
 * pass through the API's validator: the domain then receives exactly what an API call could send.
 */

import type { EventName } from '../../generated/openapi.js';
import { eventNameValues } from '../../generated/openapi.js';
import type { Translator } from '../i18n/translator.js';
import { refusal } from './i18n.js';

/** `WebhookUrl`: http(s), at most 2048 characters; the domain then applies the URL policy. */
export function webhookUrlField(t: Translator, value: string | undefined): string {
  const url = (value ?? '').trim();
  if (!/^https?:\/\//.test(url) || url.length > 2048 || !URL.canParse(url)) {
    throw refusal(400, 'invalid_field', t.t('error.webhookUrl'), {
      param: 'url',
    });
  }
  return url;
}

export function descriptionField(t: Translator, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (value.length > 500)
    throw refusal(400, 'invalid_field', t.t('error.description'), {
      param: 'description',
    });
  return value;
}

/** The ticked event names; none ticked means every event (the API's omitted `events`). */
export function eventsField(t: Translator, value: string | undefined): EventName[] | undefined {
  if (!value) return undefined;
  const names = [...new Set(value.split(','))];
  for (const name of names) {
    if (!(eventNameValues as readonly string[]).includes(name)) {
      throw refusal(400, 'invalid_field', t.t('error.unknownEvent', { name }), { param: 'events' });
    }
  }
  return names as EventName[];
}

/**
 * An amount typed in a form: the integer the API's `Amount` is, written only as decimal digits
 * (no sign, exponent, hexadecimal, separators, spaces or fraction: `1e3`, `0x10`, ` 12 ` and
 * `12.0` are refused, where `Number()` would read them), greater than 0. Empty is none.
 */
export function amountField(t: Translator, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const amount = /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(amount)) {
    throw refusal(400, 'invalid_amount', t.t('error.wholeAmount'), { param: 'amount' });
  }
  return amount;
}
