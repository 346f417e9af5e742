import type { DailyVolume } from '../../domain/dashboard-views.js';
import type { Translator } from '../../i18n/translator.js';
import { type Html, html } from '../html.js';
import { th } from '../i18n.js';

const colours = { payments: '#0b5cad', payouts: '#9c5f00' };

/**
 * Daily volumes as a server-rendered SVG bar chart: payments received and payouts sent, one
 * pair of bars per day, each bar with its figure as a tooltip, and the totals in words for
 * screen readers. No script, no library.
 */
export function volumeChart(t: Translator, currency: string, days: DailyVolume[]): Html {
  const width = 720;
  const height = 220;
  const top = 10;
  const bottom = 24;
  const max = Math.max(1, ...days.map((d) => Math.max(d.payments, d.payouts)));
  const slot = width / days.length;
  const barWidth = Math.max(2, slot / 2 - 2);
  const scale = (value: number) => ((height - top - bottom) * value) / max;
  const received = t.money(
    days.reduce((sum, d) => sum + d.payments, 0),
    currency,
  );
  const paidOut = t.money(
    days.reduce((sum, d) => sum + d.payouts, 0),
    currency,
  );
  const bars = days.map((d, i) => {
    const x = i * slot + 1;
    const date = t.shortDay(d.day);
    const pair = (['payments', 'payouts'] as const).map((kind, k) => {
      const h = scale(d[kind]);
      return html`<rect x="${(x + k * (barWidth + 1)).toFixed(1)}" y="${(height - bottom - h).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}" fill="${colours[kind]}"><title>${t.t('chart.bar', { date, kind, amount: t.money(d[kind], currency) })}</title></rect>`;
    });
    const label =
      i % 7 === 0
        ? html`<text x="${x.toFixed(1)}" y="${height - 6}" font-size="11" fill="#4a5568">${date}</text>`
        : '';
    return html`${pair}${label}`;
  });
  const id = `chart-${currency}`;
  return html`<figure class="chart card">
<figcaption>${th(t, 'chart.caption', { currency: html`<strong>${currency}</strong>`, days: days.length, received, paidOut })}</figcaption>
<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title" preserveAspectRatio="none">
<title id="${id}-title">${t.t('chart.title', { currency, days: days.length, received, paidOut })}</title>
<line x1="0" y1="${height - bottom}" x2="${width}" y2="${height - bottom}" stroke="#7a869a"/>
${bars}
</svg>
<p class="legend"><span><span class="swatch swatch-payments"></span>${t.t('chart.payments')}</span><span><span class="swatch swatch-payouts"></span>${t.t('chart.payouts')}</span></p>
</figure>`;
}

/** Payments that ended in one slice of a breakdown: a day, a service or an operator. */
export interface Outcomes {
  succeeded: number;
  failed: number;
}

/**
 * Success and failure rates beside the volume: one table per breakdown, each row its counts and
 * rates, written as the page's language writes percentages (`80 %` in French).
 */
export function ratesTable(
  t: Translator,
  id: string,
  heading: string,
  column: string,
  rows: Array<[label: Html | string, Outcomes]>,
): Html {
  const body = rows.map(([name, o]) => {
    const ended = o.succeeded + o.failed;
    return html`<tr><th scope="row">${name}</th><td class="num">${t.number(o.succeeded)}</td><td class="num">${t.number(o.failed)}</td><td class="num">${t.percent(o.succeeded / ended)}</td><td class="num">${t.percent(o.failed / ended)}</td></tr>`;
  });
  const head = html`<tr><th scope="col">${column}</th><th scope="col" class="num">${t.t('insight.succeeded')}</th><th scope="col" class="num">${t.t('insight.failed')}</th><th scope="col" class="num">${t.t('insight.successRate')}</th><th scope="col" class="num">${t.t('insight.failureRate')}</th></tr>`;
  return html`<h3 id="${id}-title">${heading}</h3><div class="scroll" role="region" aria-labelledby="${id}-title" tabindex="0" id="${id}"><table><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}
