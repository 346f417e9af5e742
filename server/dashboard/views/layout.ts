import type { MessageKey } from '../../i18n/en.js';
import { languageNames, locales, type Translator } from '../../i18n/translator.js';
import type { DashboardUserRow, Mode } from '../../storage/rows.js';
import { can } from '../auth.js';
import { csrfField } from '../csrf.js';
import { type Html, html, raw } from '../html.js';
import { script } from './script.js';
import { styles } from './styles.js';

export interface PageContext {
  nonce: string;
  csrf: string;
  mode: Mode;
  user: DashboardUserRow;
  accountName: string;
  /** The path of the page inside the mode, e.g. `/payments`; keeps the mode switch on the same page. */
  section: string;
  /** The page's language, number and time formats. */
  t: Translator;
  /** The page's own path and query, where the language switch comes back to. */
  path: string;
  flash?: { kind: 'ok' | 'error'; text: string } | null;
}

/** What a page without a session needs: its nonce, language and path. */
export interface PlainContext {
  nonce: string;
  t: Translator;
  path: string;
}

export const base = (mode: Mode) => `/dashboard/${mode}`;

/** The hidden anti-forgery field every form carries. */
export const csrfInput = (csrf: string) => html`<input type="hidden" name="${csrfField}" value="${csrf}">`;

/** A one-button form: every change in the dashboard is a POST with its CSRF token. */
export function postButton(
  ctx: { csrf: string },
  action: string,
  label: string,
  options: { danger?: boolean; secondary?: boolean; fields?: Record<string, string> } = {},
): Html {
  const fields = Object.entries(options.fields ?? {}).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  const cls = options.danger ? 'danger' : options.secondary ? 'secondary' : '';
  return html`<form method="post" action="${action}">${csrfInput(ctx.csrf)}${fields}<button type="submit" class="${cls}">${label}</button></form>`;
}

/** Links to the page in the other languages, each named in its own language. */
function languageSwitch(pc: PlainContext): Html {
  const others = locales.filter((locale) => locale !== pc.t.locale);
  return html`<nav class="languages" aria-label="${pc.t.t('layout.language')}">${others.map(
    (locale) =>
      html`<a href="/dashboard/language/${locale}?back=${encodeURIComponent(pc.path)}" lang="${locale}" hreflang="${locale}" id="language-${locale}">${languageNames[locale]}</a>`,
  )}</nav>`;
}

function document(pc: PlainContext, title: string, body: Html): string {
  return `<!doctype html>
<html lang="${pc.t.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${html`${title}`}</title>
<style nonce="${pc.nonce}">${styles}</style>
</head>
<body data-copy-label="${html`${pc.t.t('common.copy')}`}" data-copied-label="${html`${pc.t.t('common.copied')}`}">
${body}
<script nonce="${pc.nonce}">${script}</script>
</body>
</html>`;
}

const sections: Array<[path: string, label: MessageKey]> = [
  ['', 'nav.overview'],
  ['/payments', 'nav.payments'],
  ['/payouts', 'nav.payouts'],
  ['/topups', 'nav.topups'],
  ['/refunds', 'nav.refunds'],
  ['/bank-batches', 'nav.bankBatches'],
  ['/webhooks', 'nav.webhooks'],
  ['/logs', 'nav.logs'],
  ['/services', 'nav.services'],
  ['/events', 'nav.events'],
];

/** A signed-in page: the mode banner (impossible to miss), the user, the navigation, the content. */
export function page(ctx: PageContext, title: string, content: Html): string {
  const { t } = ctx;
  const other: Mode = ctx.mode === 'test' ? 'live' : 'test';
  const current = ctx.section.split('/').slice(0, 2).join('/');
  // API keys just before the logs, users last, for the roles that may see them.
  const logs = sections.findIndex(([path]) => path === '/logs');
  const nav = [
    ...sections.slice(0, logs),
    ...(can(ctx.user.role, 'keys') ? ([['/keys', 'nav.keys']] as const) : []),
    ...sections.slice(logs),
    ...(can(ctx.user.role, 'users') ? ([['/users', 'nav.users']] as const) : []),
    ...(can(ctx.user.role, 'settings') ? ([['/settings', 'nav.settings']] as const) : []),
  ].map(
    ([path, label]) =>
      html`<li><a href="${base(ctx.mode)}${path}"${current === path ? raw(' aria-current="page"') : ''}>${t.t(label)}</a></li>`,
  );
  const banner = html`<span>${t.t(ctx.mode === 'test' ? 'layout.testBanner' : 'layout.liveBanner')}</span>`;
  const flash = ctx.flash
    ? html`<p class="flash flash-${ctx.flash.kind}" role="${ctx.flash.kind === 'error' ? 'alert' : 'status'}">${ctx.flash.text}</p>`
    : '';
  return document(
    ctx,
    t.t('layout.title', { mode: t.t('layout.modeTag', { mode: ctx.mode }), title }),
    html`<a class="skip" href="#content">${t.t('layout.skip')}</a>
<header>
<div class="mode mode-${ctx.mode}" id="mode-banner" data-mode="${ctx.mode}">${banner}<a class="switch" href="${base(other)}${ctx.section}">${t.t('layout.switchMode', { mode: other })}</a></div>
<div class="top"><strong>${ctx.accountName}</strong>
<span class="who">${t.t('layout.who', { email: ctx.user.email, role: t.t(`role.${ctx.user.role}`) })}
<form method="post" action="/dashboard/sign-out">${csrfInput(ctx.csrf)}<button type="submit" class="secondary">${t.t('layout.signOut')}</button></form></span>${languageSwitch(ctx)}</div>
<nav aria-label="${t.t('layout.sections')}"><ul>${nav}</ul></nav>
<form class="search" method="get" action="${base(ctx.mode)}/search" role="search"><label for="search-q" class="visually-hidden">${t.t('search.label')}</label><input id="search-q" name="q" type="search" maxlength="100" placeholder="${t.t('search.placeholder')}" required><button type="submit" class="secondary">${t.t('search.submit')}</button></form>
</header>
<main id="content" tabindex="-1">
<h1>${title}</h1>
${flash}
${content}
</main>
<footer><p><a href="${base(ctx.mode)}/two-step" id="two-step-link">${t.t('twoStep.title')}</a></p><form method="post" action="/dashboard/sign-out-everywhere">${csrfInput(ctx.csrf)}<button type="submit" class="secondary">${t.t('layout.signOutEverywhere')}</button></form></footer>`,
  );
}

/** Pages without a session: sign-in, setting a password, errors before sign-in. */
export function plainPage(pc: PlainContext, title: string, content: Html): string {
  return document(
    pc,
    pc.t.t('layout.plainTitle', { title }),
    html`<main id="content" class="auth">${languageSwitch(pc)}<h1>${title}</h1>${content}</main>`,
  );
}
