import { type Html, html, raw } from '../html.js';
import { csrfInput, type PageContext } from './layout.js';

/** The account's settings: the time zone of its pages, chosen among the IANA zones. */
export function settingsView(ctx: PageContext, settings: { timeZone: string; zones: string[] }): Html {
  const { t } = ctx;
  const options = settings.zones.map(
    (zone) =>
      html`<option value="${zone}"${zone === settings.timeZone ? raw(' selected') : ''}>${zone}</option>`,
  );
  return html`<h2>${t.t('settings.timeZone')}</h2>
<form method="post" action="/dashboard/${ctx.mode}/settings/time-zone" class="card">${csrfInput(ctx.csrf)}
<div class="field"><label for="time-zone">${t.t('settings.timeZone')}</label><select id="time-zone" name="time_zone" aria-describedby="time-zone-hint">${options}</select>
<p class="muted" id="time-zone-hint">${t.t('settings.timeZoneHint')}</p></div>
<button type="submit">${t.t('settings.save')}</button></form>`;
}
