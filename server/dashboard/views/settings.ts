import { type Html, html, raw } from '../html.js';
import { csrfInput, type PageContext } from './layout.js';

/**
 * The account's settings: the time zone of its pages, chosen among the IANA zones, and whether
 * its owners must sign in with a second step.
 */
export function settingsView(
  ctx: PageContext,
  settings: { timeZone: string; zones: string[]; ownersNeedTwoStep: boolean },
): Html {
  const { t } = ctx;
  const options = settings.zones.map(
    (zone) =>
      html`<option value="${zone}"${zone === settings.timeZone ? raw(' selected') : ''}>${zone}</option>`,
  );
  return html`<h2>${t.t('settings.timeZone')}</h2>
<form method="post" action="/dashboard/${ctx.mode}/settings/time-zone" class="card">${csrfInput(ctx.csrf)}
<div class="field"><label for="time-zone">${t.t('settings.timeZone')}</label><select id="time-zone" name="time_zone" aria-describedby="time-zone-hint">${options}</select>
<p class="muted" id="time-zone-hint">${t.t('settings.timeZoneHint')}</p></div>
<button type="submit">${t.t('settings.save')}</button></form>
<h2>${t.t('settings.twoStep')}</h2>
<form method="post" action="/dashboard/${ctx.mode}/settings/two-step" class="card">${csrfInput(ctx.csrf)}
<label class="check"><input type="checkbox" id="owners-need-two-step" name="owners_need_two_step"${settings.ownersNeedTwoStep ? raw(' checked') : ''} aria-describedby="owners-need-two-step-hint"> ${t.t('settings.twoStepLabel')}</label>
<p class="muted" id="owners-need-two-step-hint">${t.t('settings.twoStepHint')}</p>
<button type="submit">${t.t('settings.save')}</button></form>`;
}
