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
  flash?: { kind: 'ok' | 'error'; text: string } | null;
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

function document(nonce: string, title: string, body: Html): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${html`${title}`}</title>
<style nonce="${nonce}">${styles}</style>
</head>
<body>
${body}
<script nonce="${nonce}">${script}</script>
</body>
</html>`;
}

const sections: Array<[path: string, label: string]> = [
  ['', 'Overview'],
  ['/payments', 'Payments'],
  ['/payouts', 'Payouts'],
  ['/topups', 'Top-ups'],
  ['/refunds', 'Refunds'],
  ['/bank-batches', 'Bank batches'],
  ['/webhooks', 'Webhooks'],
  ['/logs', 'Logs'],
];

/** A signed-in page: the mode banner (impossible to miss), the user, the navigation, the content. */
export function page(ctx: PageContext, title: string, content: Html): string {
  const other: Mode = ctx.mode === 'test' ? 'live' : 'test';
  const current = ctx.section.split('/').slice(0, 2).join('/');
  const nav = [
    ...sections.slice(0, -1),
    ...(can(ctx.user.role, 'keys') ? ([['/keys', 'API keys']] as const) : []),
    ...sections.slice(-1),
    ...(can(ctx.user.role, 'users') ? ([['/users', 'Users']] as const) : []),
  ].map(
    ([path, label]) =>
      html`<li><a href="${base(ctx.mode)}${path}"${current === path ? raw(' aria-current="page"') : ''}>${label}</a></li>`,
  );
  const banner =
    ctx.mode === 'test'
      ? html`<span>TEST MODE · sandbox data, no real money moves</span>`
      : html`<span>LIVE MODE · real customers, real money</span>`;
  const flash = ctx.flash
    ? html`<p class="flash flash-${ctx.flash.kind}" role="${ctx.flash.kind === 'error' ? 'alert' : 'status'}">${ctx.flash.text}</p>`
    : '';
  const modeTitle = ctx.mode === 'test' ? 'TEST' : 'LIVE';
  return document(
    ctx.nonce,
    `[${modeTitle}] ${title} · Dashboard`,
    html`<a class="skip" href="#content">Skip to content</a>
<header>
<div class="mode mode-${ctx.mode}" id="mode-banner" data-mode="${ctx.mode}">${banner}<a class="switch" href="${base(other)}${ctx.section}">Switch to ${other} mode</a></div>
<div class="top"><strong>${ctx.accountName}</strong>
<span class="who">${ctx.user.email} (${ctx.user.role})
<form method="post" action="/dashboard/sign-out">${csrfInput(ctx.csrf)}<button type="submit" class="secondary">Sign out</button></form></span></div>
<nav aria-label="Sections"><ul>${nav}</ul></nav>
</header>
<main id="content" tabindex="-1">
<h1>${title}</h1>
${flash}
${content}
</main>
<footer><form method="post" action="/dashboard/sign-out-everywhere">${csrfInput(ctx.csrf)}<button type="submit" class="secondary">Sign out on every device</button></form></footer>`,
  );
}

/** Pages without a session: sign-in, setting a password, errors before sign-in. */
export function plainPage(nonce: string, title: string, content: Html): string {
  return document(
    nonce,
    `${title} · Dashboard`,
    html`<main id="content" class="auth"><h1>${title}</h1>${content}</main>`,
  );
}
